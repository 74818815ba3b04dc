// Chat: sessions on the side, the conversation streaming in, tool calls as collapsible steps,
// and each turn's recalled memory as one line that expands to the query and what was injected.
import { api, streamMessage } from "/assets/api.js";
import { clear, h, notice } from "/assets/dom.js";

/** `recalled · L2×n L3×n · chars`, expanding to the query and the injected lines with their ids. */
export function recallLine(report) {
  const counts = report.counts ?? {};
  const summary = `recalled · L2×${counts.L2 ?? 0} L3×${counts.L3 ?? 0} · ${report.chars ?? 0} chars`;
  return h(
    "details",
    { class: "recall" },
    h("summary", {}, summary),
    h("p", {}, "query: ", h("q", {}, report.query ?? "")),
    report.lines?.length ? h("ul", { class: "lines" }, report.lines.map((line) => h("li", {}, line.replace(/^- /, "")))) : h("p", { class: "muted" }, "nothing injected"),
    report.ids?.length ? h("p", { class: "muted ids" }, "ids: ", report.ids.join(", ")) : null,
  );
}

/** A turn's error; on first run (no provider yet) it says what to do and links to where. */
function turnError(code, message) {
  if (code !== "no_provider") return notice(`${code}: ${message}`, "error");
  return h(
    "p",
    { class: "notice error", role: "alert" },
    "No model provider is set up yet, so homed cannot answer. ",
    h("a", { href: "#/providers" }, "Add a provider on the Providers page"),
    ", then send your message again.",
  );
}

function messageView(message) {
  if (message.role === "tool") return null;
  const text = typeof message.content === "string" ? message.content : (message.content ?? []).map((p) => p.text ?? "[image]").join(" ");
  return h(
    "div",
    { class: `msg ${message.role}` },
    text ? h("p", {}, text) : null,
    (message.tool_calls ?? []).map((c) => h("details", { class: "step" }, h("summary", {}, `tool · ${c.function.name}`), h("pre", {}, c.function.arguments))),
  );
}

export async function renderChat(view, [sessionId]) {
  const { sessions } = await api("GET", "/api/sessions");
  const current = sessions.find((s) => s.id === sessionId) ?? (sessionId ? null : sessions[0]);
  const partner = h("input", { id: "new-partner", name: "partner", required: true, placeholder: "e.g. me, or a project name" });
  const side = h(
    "aside",
    { class: "sessions", "aria-label": "Conversations" },
    h("h2", {}, "Conversations"),
    h(
      "form",
      {
        class: "inline",
        async onsubmit(event) {
          event.preventDefault();
          const created = await api("POST", "/api/sessions", { partner: partner.value, channel: "console" });
          location.hash = `#/chat/${created.id}`;
        },
      },
      h("label", { for: "new-partner" }, "New conversation with"),
      partner,
      h("button", { type: "submit" }, "Start"),
    ),
    h("ul", {}, sessions.map((s) => h("li", {}, h("a", { href: `#/chat/${s.id}`, "aria-current": s.id === current?.id ? "page" : null }, s.title ?? s.partner, h("small", {}, ` · ${s.channel}`))))),
  );
  const main = h("section", { class: "chat", "aria-label": "Conversation" });
  view.append(h("h1", { class: "sr-only" }, "Chat"), h("div", { class: "chat-layout" }, side, main));
  if (!current) {
    main.append(notice(sessions.length ? "That conversation does not exist." : "Start a conversation on the left.", "info"));
    return;
  }

  const log = h("div", { class: "log", role: "log", "aria-live": "polite" });
  const history = await api("GET", `/api/sessions/${current.id}/context`);
  for (const event of history) for (const m of event.messages) log.append(messageView(m) ?? "");
  const input = h("textarea", { id: "message", name: "message", rows: 3, required: true, placeholder: "Message… (Ctrl+Enter to send)" });
  const send = h("button", { type: "submit" }, "Send");
  /** The running turn's controller: Stop (or leaving the page) cancels it; what was said so far stays. */
  let controller = null;
  const stop = h("button", { type: "button", class: "quiet", hidden: true, onclick: () => controller?.abort() }, "Stop");
  const form = h(
    "form",
    { class: "composer", async onsubmit(event) { event.preventDefault(); await turn(input.value); } },
    h("label", { for: "message", class: "sr-only" }, "Message"),
    input,
    send,
    stop,
  );
  input.addEventListener("keydown", (e) => e.key === "Enter" && (e.ctrlKey || e.metaKey) && form.requestSubmit());
  main.append(h("h2", {}, current.title ?? current.partner, " ", h("a", { class: "small", href: `#/context/${current.id}` }, "context inspector →")), log, form);

  async function turn(text) {
    if (!text.trim()) return;
    input.value = "";
    send.disabled = true;
    controller = new AbortController();
    stop.hidden = false;
    log.append(h("div", { class: "msg user" }, h("p", {}, text)));
    const box = h("div", { class: "msg assistant streaming" });
    log.append(box);
    let answer = null;
    let reasoning = null;
    let calls = new Map();
    const ensureAnswer = () => answer ?? box.appendChild((answer = h("p", { class: "answer" })));
    try {
      await streamMessage(current.id, text, (name, data) => {
        if (name === "recall") box.before(recallLine(data.report));
        else if (name === "iteration") (calls = new Map()), (answer = null);
        else if (name === "reasoning") {
          reasoning ??= box.appendChild(h("details", { class: "step reasoning" }, h("summary", {}, "reasoning"), h("pre", {})));
          reasoning.lastChild.append(data.text);
        } else if (name === "content") ensureAnswer().append(data.text);
        else if (name === "tool_call") {
          let step = calls.get(data.index);
          if (!step) {
            step = { el: h("details", { class: "step tool" }, h("summary", {}, "tool · …"), h("pre", { class: "args" }), h("pre", { class: "result" })), name: "" };
            calls.set(data.index, step);
            box.append(step.el);
          }
          if (data.id) step.id = data.id;
          if (data.name) step.name += data.name;
          step.el.firstChild.textContent = `tool · ${step.name}`;
          step.el.querySelector(".args").append(data.arguments ?? "");
        } else if (name === "tool_result") {
          const step = [...calls.values()].find((s) => s.id === data.id);
          if (step) {
            step.el.querySelector(".result").textContent = data.result;
            step.el.firstChild.textContent = `tool · ${data.name}${data.denied ? " (denied)" : " ✓"}`;
          }
        } else if (name === "error") box.append(turnError(data.error, data.message));
        else if (name === "done" && !answer && data.text) ensureAnswer().append(data.text);
        log.scrollTop = log.scrollHeight;
      }, controller.signal);
    } catch (error) {
      if (error.name === "AbortError") box.append(h("p", { class: "muted" }, "(stopped)"));
      else box.append(notice(error.message, "error"));
    } finally {
      box.classList.remove("streaming");
      send.disabled = false;
      stop.hidden = true;
      controller = null;
      input.focus();
    }
  }
  input.focus();
  return () => controller?.abort();
}

// @ts-nocheck -- not yet a typed component (issue 20): converted page by page
// Chat: sessions on the side, the conversation streaming in, tool calls as collapsible steps,
// and each turn's recalled memory as one line that expands to the query and what was injected.
import { api, streamMessage } from "./api.ts";
import { clear, data, h, notice } from "./dom.ts";
import { t } from "./i18n.ts";
import { renderMarkdown } from "./markdown.ts";

/** "remembered 3 things (120 characters)", expanding to the query and the injected lines with their ids. */
export function recallLine(report) {
  const n = report.lines?.length ?? report.ids?.length ?? 0;
  // Cold turns moved back into the conversation itself (not injected lines): said apart.
  const restored = report.restored?.length ? t("chat.restored", { n: report.restored.length }) : "";
  const summary = (n ? t("chat.recalled", { n, chars: report.chars ?? 0 }) : t("chat.recalledNothing")) + restored;
  return h(
    "details",
    { class: "recall" },
    h("summary", {}, summary),
    h("p", {}, t("chat.recallQuery"), h("q", { translate: "no" }, report.query ?? "")),
    report.lines?.length
      ? h(
          "ul",
          { class: "lines", translate: "no" },
          report.lines.map((line) => h("li", {}, line.replace(/^- /, ""))),
        )
      : n
        ? null
        : h("p", { class: "muted" }, t("chat.recallNone")),
    report.ids?.length ? h("p", { class: "muted ids" }, t("chat.recallIds"), data(report.ids.join(", "))) : null,
  );
}

/** A turn's error; on first run (no provider yet) it says what to do and links to where. */
function turnError(code, message) {
  if (code !== "no_provider") return notice(t("chat.turnError", { code, message }), "error");
  return h("p", { class: "notice error", role: "alert" }, t("chat.noProvider"), h("a", { href: "#/providers" }, t("chat.noProviderLink")), t("chat.noProviderAfter"));
}

/** A stored message; a tool call shows its result (from the tool message answering it) as it did live. */
function messageView(message, results) {
  if (message.role === "tool") return null;
  const text = typeof message.content === "string" ? message.content : (message.content ?? []).map((p) => p.text ?? t("chat.image")).join(" ");
  return h(
    "div",
    { class: `msg ${message.role}` },
    text ? (message.role === "assistant" ? renderMarkdown(h("div", { class: "answer md", translate: "no" }), text) : data(text, "p")) : null,
    (message.tool_calls ?? []).map((c) => {
      const result = results.get(c.id);
      return h(
        "details",
        { class: "step tool" },
        h("summary", {}, result === undefined ? t("chat.tool", { name: c.function.name }) : t("chat.toolDone", { name: c.function.name })),
        data(c.function.arguments, "pre", { class: "args" }),
        result === undefined ? null : data(result, "pre", { class: "result" }),
      );
    }),
  );
}

/** The conversation's name with Rename (an inline form; an empty name shows the partner again). */
function conversationHeading(session) {
  const heading = h("div", { class: "conversation-heading" });
  const show = () =>
    clear(
      heading,
      h("h2", {}, data(session.title ?? session.partner), h("small", { translate: "no" }, ` · ${session.partner} · ${session.channel}`)),
      h("button", { type: "button", class: "quiet small", onclick: edit }, t("chat.rename")),
      h("a", { class: "small", href: `#/context/${session.id}` }, t("chat.inspector")),
    );
  function edit() {
    const input = h("input", { id: "rename", value: session.title ?? "", maxlength: 200, placeholder: session.partner });
    const out = h("span", { "aria-live": "polite" });
    clear(
      heading,
      h(
        "form",
        {
          class: "inline-row",
          async onsubmit(event) {
            event.preventDefault();
            try {
              await api("PATCH", `/api/sessions/${encodeURIComponent(session.id)}`, { title: input.value });
              // Redrawn so the list on the side shows the new name too.
              window.dispatchEvent(new HashChangeEvent("hashchange"));
            } catch (error) {
              clear(out, notice(error.message, "error"));
            }
          },
        },
        h("label", { for: "rename" }, t("chat.name")),
        input,
        h("button", { type: "submit" }, t("chat.save")),
        h("button", { type: "button", class: "quiet", onclick: show }, t("chat.cancel")),
        out,
      ),
    );
    input.focus();
  }
  show();
  return heading;
}

export async function renderChat(view, [sessionId]) {
  const { sessions } = await api("GET", "/api/sessions");
  const current = sessions.find((s) => s.id === sessionId) ?? (sessionId ? null : sessions[0]);
  const partner = h("input", { id: "new-partner", name: "partner", required: true, placeholder: t("chat.partnerPlaceholder") });
  const find = h("input", { id: "find-conversation", type: "search", placeholder: t("chat.findPlaceholder") });
  const noMatch = h("p", { class: "muted", hidden: true }, t("chat.noMatch"));
  // Grouped by partner (each partner's conversations, one per channel), the most recent first.
  const byPartner = Map.groupBy(sessions, (s) => s.partner);
  const groups = [...byPartner].map(([who, list]) =>
    h(
      "li",
      { class: "partner", dataset: { partner: who } },
      h("span", { class: "who", translate: "no" }, who),
      h(
        "ul",
        {},
        list.map((s) =>
          h(
            "li",
            { dataset: { session: s.id, find: `${s.title ?? ""} ${s.partner} ${s.channel}`.toLowerCase() } },
            h("a", { href: `#/chat/${s.id}`, "aria-current": s.id === current?.id ? "page" : null }, data(s.title ?? s.partner), h("small", { translate: "no" }, ` · ${s.channel}`)),
          ),
        ),
      ),
    ),
  );
  find.addEventListener("input", () => {
    const q = find.value.trim().toLowerCase();
    for (const group of groups) {
      let shown = 0;
      for (const item of group.querySelectorAll("li[data-session]")) shown += (item.hidden = !item.dataset.find.includes(q)) ? 0 : 1;
      group.hidden = shown === 0;
    }
    noMatch.hidden = groups.some((g) => !g.hidden);
  });
  const side = h(
    "aside",
    { class: "sessions", "aria-label": t("chat.conversations") },
    h("h2", {}, t("chat.conversations")),
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
      h("label", { for: "new-partner" }, t("chat.newWith")),
      partner,
      h("button", { type: "submit" }, t("chat.start")),
    ),
    sessions.length ? [h("label", { for: "find-conversation" }, t("chat.find")), find] : null,
    h("ul", { class: "conversations" }, groups),
    noMatch,
  );
  const main = h("section", { class: "chat", "aria-label": t("chat.conversation") });
  view.append(h("h1", { class: "sr-only" }, t("chat.heading")), h("div", { class: "chat-layout" }, side, main));
  if (!current) {
    main.append(notice(sessions.length ? t("chat.missing") : t("chat.startLeft"), "info"));
    return;
  }

  const log = h("div", { class: "log", role: "log", "aria-live": "polite" });
  const history = await api("GET", `/api/sessions/${current.id}/context`);
  // Each turn's recall line, back in its place: the audit's entries of this conversation, oldest
  // first, each given to the first user message it was the query of (the audit keeps ids, not lines).
  const recalls = (await api("GET", `/api/audit?session=${encodeURIComponent(current.id)}`)).entries.reverse();
  const recallFor = (text) => {
    const i = recalls.findIndex((e) => e.query && text.startsWith(e.query));
    return i < 0
      ? null
      : recallLine({
          query: recalls[i].query,
          chars: recalls[i].chars,
          ids: recalls
            .splice(0, i + 1)
            .at(-1)
            .ids.map((x) => x.id),
        });
  };
  const results = new Map(
    history
      .flatMap((e) => e.messages)
      .filter((m) => m.role === "tool")
      .map((m) => [m.tool_call_id, typeof m.content === "string" ? m.content : JSON.stringify(m.content)]),
  );
  for (const event of history) {
    for (const m of event.messages) {
      log.append(messageView(m, results) ?? "");
      if (m.role === "user" && typeof m.content === "string") log.append(recallFor(m.content) ?? "");
    }
  }
  const input = h("textarea", { id: "message", name: "message", rows: 3, required: true, placeholder: t("chat.messagePlaceholder") });
  const send = h("button", { type: "submit" }, t("chat.send"));
  /** The running turn's controller: Stop (or leaving the page) cancels it; what was said so far stays. */
  let controller = null;
  const stop = h("button", { type: "button", class: "quiet", hidden: true, onclick: () => controller?.abort() }, t("chat.stop"));
  const form = h(
    "form",
    {
      class: "composer",
      async onsubmit(event) {
        event.preventDefault();
        await turn(input.value);
      },
    },
    h("label", { for: "message", class: "sr-only" }, t("chat.message")),
    input,
    send,
    stop,
  );
  input.addEventListener("keydown", (e) => e.key === "Enter" && (e.ctrlKey || e.metaKey) && form.requestSubmit());
  main.append(conversationHeading(current), log, form);

  async function turn(text) {
    if (!text.trim()) return;
    input.value = "";
    send.disabled = true;
    controller = new AbortController();
    stop.hidden = false;
    log.append(h("div", { class: "msg user" }, data(text, "p")));
    // Until the first word, tool step or thought arrives: a visible "thinking" line, not an empty bar.
    const typing = h("p", { class: "typing muted", role: "status" }, t("chat.typing"));
    const box = h("div", { class: "msg assistant streaming" }, typing);
    log.append(box);
    let answer = null;
    let answerText = "";
    let drawing = 0;
    let reasoning = null;
    let calls = new Map();
    const ensureAnswer = () => answer ?? box.appendChild((answer = h("div", { class: "answer md", translate: "no" })));
    // The answer is drawn as Markdown at most once a frame while it streams, and once more at the end.
    const draw = () => {
      cancelAnimationFrame(drawing);
      drawing = 0;
      if (answer) renderMarkdown(answer, answerText);
    };
    const say = (text) => {
      ensureAnswer();
      answerText += text;
      drawing ||= requestAnimationFrame(draw);
    };
    try {
      await streamMessage(
        current.id,
        text,
        (name, ev) => {
          if (name !== "recall") typing.remove();
          if (name === "recall") box.before(recallLine(ev.report));
          else if (name === "iteration") draw(), (calls = new Map()), (answer = null), (answerText = "");
          else if (name === "reasoning") {
            reasoning ??= box.appendChild(h("details", { class: "step reasoning" }, h("summary", {}, t("chat.reasoning")), h("pre", { translate: "no" })));
            reasoning.lastChild.append(ev.text);
          } else if (name === "content") say(ev.text);
          else if (name === "tool_call") {
            let step = calls.get(ev.index);
            if (!step) {
              step = {
                el: h("details", { class: "step tool" }, h("summary", {}, t("chat.toolPending")), h("pre", { class: "args", translate: "no" }), h("pre", { class: "result", translate: "no" })),
                name: "",
              };
              calls.set(ev.index, step);
              box.append(step.el);
            }
            if (ev.id) step.id = ev.id;
            if (ev.name) step.name += ev.name;
            step.el.firstChild.textContent = t("chat.tool", { name: step.name });
            step.el.querySelector(".args").append(ev.arguments ?? "");
          } else if (name === "tool_result") {
            const step = [...calls.values()].find((s) => s.id === ev.id);
            if (step) {
              step.el.querySelector(".result").textContent = ev.result;
              step.el.firstChild.textContent = t(ev.denied ? "chat.toolDenied" : "chat.toolDone", { name: ev.name });
            }
          } else if (name === "error") box.append(turnError(ev.error, ev.message));
          else if (name === "done" && !answer && ev.text) say(ev.text);
          log.scrollTop = log.scrollHeight;
        },
        controller.signal,
      );
    } catch (error) {
      if (error.name === "AbortError") box.append(h("p", { class: "muted" }, t("chat.stopped")));
      else box.append(notice(error.message, "error"));
    } finally {
      typing.remove();
      draw();
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

// Chat: sessions on the side, the conversation streaming in, tool calls as collapsible steps,
// and each turn's recalled memory as one line that expands to the query and what was injected.
import { Fragment } from "preact";
import { useEffect, useLayoutEffect, useRef, useState } from "preact/hooks";
import { api, type Streamed, streamMessage } from "./api.ts";
import type { AuditAnswer, ContextAnswer, DeletedAnswer, MessageEvents, SessionsAnswer } from "./api-types.ts";
import { Data, Notice, type PageProps, useLoad } from "./components.tsx";
import { errorText, errorWords } from "./errors.ts";
import { named, t } from "./i18n.ts";
import { renderMarkdown } from "./markdown.ts";
import { RecallCards } from "./recall-cards.tsx";

type Session = SessionsAnswer["sessions"][number];
type Message = ContextAnswer[number]["messages"][number];
/** The recall participant's report (a turn's `recall` event), or one rebuilt from the audit after a reload. */
type RecallReport = { query?: string; chars?: number; lines?: string[]; ids?: string[]; restored?: unknown[] };

/** "remembered 3 things (120 characters)", expanding to the query and the injected lines with their ids. */
function RecallLine({ report }: { report: RecallReport }) {
  const n = report.lines?.length ?? report.ids?.length ?? 0;
  // Cold turns moved back into the conversation itself (not injected lines): said apart.
  const restored = report.restored?.length ? t("chat.restored", { n: report.restored.length }) : "";
  const summary = (n ? t("chat.recalled", { n, chars: report.chars ?? 0 }) : t("chat.recalledNothing")) + restored;
  return (
    <details class="recall">
      <summary>{summary}</summary>
      <p>
        {t("chat.recallQuery")}
        <q translate={false}>{report.query ?? ""}</q>
      </p>
      {report.lines?.length ? (
        <ul class="lines" translate={false}>
          {report.lines.map((line, i) => (
            <li key={i}>{line.replace(/^- /, "")}</li>
          ))}
        </ul>
      ) : n ? null : (
        <p class="muted">{t("chat.recallNone")}</p>
      )}
      {report.ids?.length ? (
        <p class="muted ids">
          {t("chat.recallIds")}
          <Data>{report.ids.join(", ")}</Data>
        </p>
      ) : null}
    </details>
  );
}

/** " · console" in the reader's words; another channel's name (a protocol's) as it is. */
function Channel({ channel }: { channel: string }) {
  const said = named("channel", channel);
  return <span translate={said === channel ? false : undefined}>{` · ${said}`}</span>;
}

/** A turn's error; on first run (no provider yet) it says what to do and links to where. */
function TurnError({ code, message }: { code: string; message: string }) {
  if (code !== "no_provider") return <Notice kind="error">{errorWords(code, message)}</Notice>;
  return (
    <p class="notice error" role="alert">
      {t("chat.noProvider")}
      <a href="#/providers">{t("chat.noProviderLink")}</a>
      {t("chat.noProviderAfter")}
    </p>
  );
}

/** An answer as Markdown (marked, then DOMPurify: web/markdown.ts), drawn again when its text grows. */
function Markdown({ text }: { text: string }) {
  const el = useRef<HTMLDivElement>(null);
  useLayoutEffect(() => void (el.current && renderMarkdown(el.current, text)), [text]);
  return <div class="answer md" translate={false} ref={el} />;
}

/** A tool call as a collapsible step: its arguments, and its result once there is one. */
function ToolStep({ label, args, result, live }: { label: string; args: string; result: string | undefined; live: boolean }) {
  return (
    <details class="step tool">
      <summary>{label}</summary>
      <Data as="pre" class="args">
        {args}
      </Data>
      {live || result !== undefined ? (
        <Data as="pre" class="result">
          {result ?? ""}
        </Data>
      ) : null}
    </details>
  );
}

const messageText = (m: Message) => (typeof m.content === "string" ? m.content : (m.content ?? []).map((p) => (p.type === "text" ? p.text : t("chat.image"))).join(" "));

/** A stored message; a tool call shows its result (from the tool message answering it) as it did live, and a stopped answer says so. */
function StoredMessage({ message, results, stopped }: { message: Message; results: Map<string, string>; stopped: boolean }) {
  if (message.role === "tool") return null;
  const text = messageText(message);
  return (
    <div class={`msg ${message.role}`}>
      {text ? message.role === "assistant" ? <Markdown text={text} /> : <Data as="p">{text}</Data> : null}
      {message.role === "assistant" &&
        (message.tool_calls ?? []).map((c) => {
          const result = results.get(c.id);
          return (
            <ToolStep
              key={c.id}
              label={result === undefined ? t("chat.tool", { name: c.function.name }) : t("chat.toolDone", { name: c.function.name })}
              args={c.function.arguments}
              result={result}
              live={false}
            />
          );
        })}
      {stopped && <p class="muted">{t("chat.stopped")}</p>}
    </div>
  );
}

/**
 * Delete, behind a confirmation that says what happens to the memory: by default what was said
 * stays as cold history (recall still finds it); forgetting it too is a choice the person ticks.
 */
function DeleteConversation({ session, done }: { session: Session; done: () => void }) {
  const [refused, setRefused] = useState<string | null>(null);
  async function remove(event: Event) {
    event.preventDefault();
    const forget = new FormData(event.currentTarget as HTMLFormElement).get("forget") === "on";
    try {
      await api<DeletedAnswer>("DELETE", `/api/sessions/${encodeURIComponent(session.id)}${forget ? "?memory=forget" : ""}`);
      location.hash = "#/chat";
    } catch (error) {
      setRefused(errorText(error));
    }
  }
  return (
    <form class="card delete-conversation" aria-label={t("chat.deleteTitle")} onSubmit={remove}>
      <h3>{t("chat.deleteTitle")}</h3>
      <p>{t("chat.deleteKeeps")}</p>
      <label>
        <input type="checkbox" name="forget" /> {t("chat.deleteForget")}
      </label>
      <div class="actions">
        <button type="submit" class="danger">
          {t("chat.deleteConfirm")}
        </button>
        <button type="button" class="quiet" onClick={done}>
          {t("chat.cancel")}
        </button>
      </div>
      <div aria-live="polite">{refused && <Notice kind="error">{refused}</Notice>}</div>
    </form>
  );
}

/** The conversation's name with Rename (an inline form; an empty name shows the partner again) and Delete. */
function ConversationHeading({ session }: { session: Session }) {
  const [editing, setEditing] = useState(false);
  const [deleting, setDeleting] = useState(false);
  const [refused, setRefused] = useState<string | null>(null);
  const input = useRef<HTMLInputElement>(null);
  useEffect(() => {
    if (editing) input.current?.focus();
  }, [editing]);

  async function save(event: Event) {
    event.preventDefault();
    try {
      await api("PATCH", `/api/sessions/${encodeURIComponent(session.id)}`, { title: input.current!.value });
      // Redrawn so the list on the side shows the new name too.
      window.dispatchEvent(new HashChangeEvent("hashchange"));
    } catch (error) {
      setRefused(errorText(error));
    }
  }

  return (
    <div class="conversation-heading">
      {editing ? (
        <form class="inline-row" onSubmit={save}>
          <label for="rename">{t("chat.name")}</label>
          <input ref={input} id="rename" defaultValue={session.title ?? ""} maxLength={200} placeholder={session.partner} />
          <button type="submit">{t("chat.save")}</button>
          <button type="button" class="quiet" onClick={() => setEditing(false)}>
            {t("chat.cancel")}
          </button>
          <span aria-live="polite">{refused && <Notice kind="error">{refused}</Notice>}</span>
        </form>
      ) : (
        <>
          <h2>
            <Data>{session.title ?? session.partner}</Data>
            <small>
              <Data>{` · ${session.partner}`}</Data>
              <Channel channel={session.channel} />
            </small>
          </h2>
          <button type="button" class="quiet small" onClick={() => setEditing(true)}>
            {t("chat.rename")}
          </button>
          <a class="small" href={`#/context/${session.id}`}>
            {t("chat.inspector")}
          </a>
          <button type="button" class="quiet small danger" aria-expanded={deleting} onClick={() => setDeleting(!deleting)}>
            {t("chat.delete")}
          </button>
        </>
      )}
      {deleting && <DeleteConversation session={session} done={() => setDeleting(false)} />}
    </div>
  );
}

/** The conversations, grouped by partner (each partner's, by channel: #2, #3… for new chats beside the first), and a box that narrows them. */
function Sidebar({ sessions, current }: { sessions: Session[]; current: Session | null }) {
  const partner = useRef<HTMLInputElement>(null);
  const [q, setQ] = useState("");
  const byPartner = new Map<string, Session[]>();
  for (const s of sessions) byPartner.set(s.partner, [...(byPartner.get(s.partner) ?? []), s]);
  const matches = (s: Session) => `${s.title ?? ""} ${s.partner} ${s.channel}`.toLowerCase().includes(q.trim().toLowerCase());

  async function start(event: Event) {
    event.preventDefault();
    // Always a new conversation, beside any the partner has: the earlier ones stay as they are.
    const created = await api<Session>("POST", "/api/sessions", { partner: partner.current!.value, channel: "console", new: true });
    location.hash = `#/chat/${created.id}`;
  }

  return (
    <aside class="sessions" aria-label={t("chat.conversations")}>
      <h2>{t("chat.conversations")}</h2>
      <form class="inline" onSubmit={start}>
        <label for="new-partner">{t("chat.newWith")}</label>
        <input ref={partner} id="new-partner" name="partner" required placeholder={t("chat.partnerPlaceholder")} />
        <button type="submit">{t("chat.start")}</button>
      </form>
      {sessions.length ? (
        <>
          <label for="find-conversation">{t("chat.find")}</label>
          <input id="find-conversation" type="search" placeholder={t("chat.findPlaceholder")} onInput={(e) => setQ(e.currentTarget.value)} />
        </>
      ) : null}
      <ul class="conversations">
        {[...byPartner].map(([who, list]) => (
          <li key={who} class="partner" data-partner={who} hidden={!list.some(matches)}>
            <span class="who" translate={false}>
              {who}
            </span>
            <ul>
              {list.map((s) => (
                <li key={s.id} data-session={s.id} hidden={!matches(s)}>
                  <a href={`#/chat/${s.id}`} aria-current={s.id === current?.id ? "page" : undefined}>
                    <Data>{s.title ?? s.partner}</Data>
                    <small>
                      <Channel channel={s.channel} />
                      {s.thread ? ` #${s.thread + 1}` : ""}
                    </small>
                  </a>
                </li>
              ))}
            </ul>
          </li>
        ))}
      </ul>
      <p class="muted" hidden={sessions.length === 0 || sessions.some(matches)}>
        {t("chat.noMatch")}
      </p>
    </aside>
  );
}

/** What a live answer is made of, in the order it arrived. */
type Part =
  | { kind: "reasoning"; text: string }
  | { kind: "answer"; text: string }
  | { kind: "tool"; id?: string; name: string; args: string; result?: string; finished?: { name: string; denied: boolean } }
  | { kind: "error"; code: string; message: string }
  | { kind: "stopped" }
  | { kind: "failed"; message: string };
/** A turn sent from this page: what was said, the recall lines, and the answer's parts. */
type LiveTurn = { said: string; recalls: RecallReport[]; parts: Part[]; typing: boolean; streaming: boolean };

function LiveAnswer({ turn }: { turn: LiveTurn }) {
  return (
    <>
      <div class="msg user">
        <Data as="p">{turn.said}</Data>
      </div>
      {turn.recalls.map((r, i) => (
        <Fragment key={i}>
          <RecallLine report={r} />
          <RecallCards report={r} />
        </Fragment>
      ))}
      <div class={turn.streaming ? "msg assistant streaming" : "msg assistant"}>
        {/* Until the first word, tool step or thought arrives: a visible "thinking" line, not an empty bar. */}
        {turn.typing && (
          <p class="typing muted" role="status">
            {t("chat.typing")}
          </p>
        )}
        {turn.parts.map((p, i) => {
          if (p.kind === "reasoning")
            return (
              <details key={i} class="step reasoning">
                <summary>{t("chat.reasoning")}</summary>
                <pre translate={false}>{p.text}</pre>
              </details>
            );
          if (p.kind === "answer") return <Markdown key={i} text={p.text} />;
          if (p.kind === "tool") {
            const label = p.finished ? t(p.finished.denied ? "chat.toolDenied" : "chat.toolDone", { name: p.finished.name }) : t("chat.tool", { name: p.name });
            return <ToolStep key={i} label={label} args={p.args} result={p.result} live />;
          }
          if (p.kind === "error") return <TurnError key={i} code={p.code} message={p.message} />;
          if (p.kind === "stopped")
            return (
              <p key={i} class="muted">
                {t("chat.stopped")}
              </p>
            );
          return (
            <Notice key={i} kind="error">
              {p.message}
            </Notice>
          );
        })}
      </div>
    </>
  );
}

/**
 * Sends a message and gathers the streamed turn into `turn`; `changed` is called after each
 * event (the page draws at most once a frame: the Markdown is parsed again on each draw).
 */
async function runTurn(sessionId: string, turn: LiveTurn, signal: AbortSignal, changed: () => void): Promise<void> {
  let answer: Extract<Part, { kind: "answer" }> | null = null;
  let reasoning: Extract<Part, { kind: "reasoning" }> | null = null;
  let calls = new Map<number, Extract<Part, { kind: "tool" }>>();
  const say = (text: string) => {
    if (!answer) turn.parts.push((answer = { kind: "answer", text: "" }));
    answer.text += text;
  };
  const on = (ev: Streamed<MessageEvents>) => {
    if (ev.name !== "recall") turn.typing = false;
    switch (ev.name) {
      case "recall":
        turn.recalls.push(ev.data.report as RecallReport);
        break;
      case "iteration":
        calls = new Map();
        answer = null;
        break;
      case "reasoning":
        if (!reasoning) turn.parts.push((reasoning = { kind: "reasoning", text: "" }));
        reasoning.text += ev.data.text;
        break;
      case "content":
        say(ev.data.text);
        break;
      case "tool_call": {
        let step = calls.get(ev.data.index);
        if (!step) {
          step = { kind: "tool", name: "", args: "", result: "" };
          calls.set(ev.data.index, step);
          turn.parts.push(step);
        }
        if (ev.data.id) step.id = ev.data.id;
        if (ev.data.name) step.name += ev.data.name;
        step.args += ev.data.arguments ?? "";
        break;
      }
      case "tool_result": {
        const step = [...calls.values()].find((s) => s.id === ev.data.id);
        if (step) {
          step.result = ev.data.result;
          step.finished = { name: ev.data.name, denied: ev.data.denied };
        }
        break;
      }
      case "error":
        turn.parts.push({ kind: "error", code: ev.data.error, message: ev.data.message });
        break;
      case "done":
        if (!answer && ev.data.text) say(ev.data.text);
        break;
    }
    changed();
  };
  try {
    await streamMessage(sessionId, turn.said, on, signal);
  } catch (error) {
    if ((error as Error).name === "AbortError") turn.parts.push({ kind: "stopped" });
    else turn.parts.push({ kind: "failed", message: errorText(error) });
  } finally {
    turn.typing = false;
    turn.streaming = false;
  }
}

function Conversation({ session, stored }: { session: Session; stored: Stored }) {
  const input = useRef<HTMLTextAreaElement>(null);
  const form = useRef<HTMLFormElement>(null);
  const log = useRef<HTMLDivElement>(null);
  const [turns, setTurns] = useState<LiveTurn[]>([]);
  const [, redraw] = useState(0);
  /** The running turn's controller: Stop (or leaving the page) cancels it; what was said so far stays. */
  const controller = useRef<AbortController | null>(null);
  const frame = useRef(0);
  useEffect(() => {
    input.current?.focus();
    return () => {
      controller.current?.abort();
      cancelAnimationFrame(frame.current);
    };
  }, []);
  useEffect(() => {
    if (!log.current) return;
    log.current.scrollTop = log.current.scrollHeight;
    // On a phone the page is the one scroll (console.css): the conversation's end is the page's.
    if (getComputedStyle(log.current).overflowY === "visible") window.scrollTo(0, document.documentElement.scrollHeight);
  });

  async function send(event: Event) {
    event.preventDefault();
    const text = input.current!.value;
    if (!text.trim()) return;
    input.current!.value = "";
    const turn: LiveTurn = { said: text, recalls: [], parts: [], typing: true, streaming: true };
    setTurns((all) => [...all, turn]);
    controller.current = new AbortController();
    const draw = () => {
      cancelAnimationFrame(frame.current);
      frame.current = 0;
      redraw((n) => n + 1);
    };
    await runTurn(session.id, turn, controller.current.signal, () => {
      frame.current ||= requestAnimationFrame(draw);
    });
    controller.current = null;
    draw();
    input.current?.focus();
  }

  const running = turns.at(-1)?.streaming === true;
  return (
    <>
      <ConversationHeading session={session} />
      <div class="log" role="log" aria-live="polite" ref={log}>
        {stored.map(({ message, recall, stopped }, i) => (
          <Fragment key={i}>
            <StoredMessage message={message} results={stored.results} stopped={stopped} />
            {recall && <RecallLine report={recall} />}
            {recall && <RecallCards report={recall} />}
          </Fragment>
        ))}
        {turns.map((turn, i) => (
          <LiveAnswer key={`t${i}`} turn={turn} />
        ))}
      </div>
      <form ref={form} class="composer" onSubmit={send}>
        <label for="message" class="sr-only">
          {t("chat.message")}
        </label>
        <textarea
          ref={input}
          id="message"
          name="message"
          rows={3}
          required
          placeholder={t("chat.messagePlaceholder")}
          onKeyDown={(e) => e.key === "Enter" && (e.ctrlKey || e.metaKey) && form.current?.requestSubmit()}
        />
        <button type="submit" disabled={running}>
          {t("chat.send")}
        </button>
        <button type="button" class="quiet" hidden={!running} onClick={() => controller.current?.abort()}>
          {t("chat.stop")}
        </button>
      </form>
    </>
  );
}

/**
 * The stored conversation: each message with the recall line of the turn it started (and whether
 * it ends a turn its client stopped), and the tool results by call.
 */
type Stored = { message: Message; recall: RecallReport | null; stopped: boolean }[] & { results: Map<string, string> };

/**
 * Each turn's recall line, back in its place: the audit's entries of this conversation, oldest
 * first, each given to the first user message it was the query of (the audit keeps ids, not lines).
 */
function storedConversation(history: ContextAnswer, audit: AuditAnswer): Stored {
  const recalls = [...audit.entries].reverse();
  const recallFor = (text: string): RecallReport | null => {
    const i = recalls.findIndex((e) => e.query && text.startsWith(e.query));
    if (i < 0) return null;
    const entry = recalls.splice(0, i + 1).at(-1)!;
    return { query: entry.query, chars: entry.chars, ids: entry.ids.map((x) => x.id) };
  };
  const messages = history.flatMap((e) => e.messages);
  const stoppedAfter = new Set(history.filter((e) => e.stopped).map((e) => e.messages.at(-1)));
  const results = new Map(messages.flatMap((m) => (m.role === "tool" ? [[m.tool_call_id, typeof m.content === "string" ? m.content : JSON.stringify(m.content)] as const] : [])));
  const stored = messages.map((message) => ({
    message,
    recall: message.role === "user" && typeof message.content === "string" ? recallFor(message.content) : null,
    stopped: stoppedAfter.has(message),
  }));
  return Object.assign(stored, { results });
}

async function load(sessionId: string | undefined) {
  const { sessions } = await api<SessionsAnswer>("GET", "/api/sessions");
  const current = sessions.find((s) => s.id === sessionId) ?? (sessionId ? null : (sessions[0] ?? null));
  if (!current) return { sessions, current, stored: null };
  const [history, audit] = await Promise.all([api<ContextAnswer>("GET", `/api/sessions/${current.id}/context`), api<AuditAnswer>("GET", `/api/audit?session=${encodeURIComponent(current.id)}`)]);
  return { sessions, current, stored: storedConversation(history, audit) };
}

export function Chat({ params: [sessionId], fail }: PageProps) {
  const [loaded] = useLoad(() => load(sessionId), fail);
  /** On a phone the conversation list is a drawer (console.css), opened by its button; choosing one redraws the page, closed. */
  const [drawer, setDrawer] = useState(false);
  // Focus goes into the opened drawer and back to its button when it closes, as a dialog's would.
  const toggle = (open: boolean) => {
    setDrawer(open);
    requestAnimationFrame(() => document.querySelector<HTMLElement>(open ? ".drawer-close" : ".drawer-toggle")?.focus());
  };
  // Esc closes the open drawer, wherever the focus is.
  useEffect(() => {
    if (!drawer) return;
    const close = (e: KeyboardEvent) => e.key === "Escape" && toggle(false);
    document.addEventListener("keydown", close);
    return () => document.removeEventListener("keydown", close);
  }, [drawer]);
  if (!loaded) return null;
  const { sessions, current, stored } = loaded;
  return (
    <>
      <h1 class="sr-only">{t("chat.heading")}</h1>
      <button type="button" class="quiet drawer-toggle" aria-expanded={drawer} aria-controls="conversation-drawer" onClick={() => toggle(true)}>
        {t("look.conversations")}
      </button>
      <div class="chat-layout">
        <div id="conversation-drawer" class={drawer ? "drawer open" : "drawer"}>
          <button type="button" class="quiet drawer-close" onClick={() => toggle(false)}>
            {t("look.closeConversations")}
          </button>
          <Sidebar sessions={sessions} current={current} />
        </div>
        <section class="chat" aria-label={t("chat.conversation")}>
          {current && stored ? <Conversation key={current.id} session={current} stored={stored} /> : <Notice>{sessions.length ? t("chat.missing") : t("chat.startLeft")}</Notice>}
        </section>
      </div>
    </>
  );
}

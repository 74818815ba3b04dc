// Chat: sessions on the side, the conversation streaming in, tool calls as collapsible steps,
// and each turn's recalled memory as one line that expands to the query and what was injected.
import { Fragment } from "preact";
import { useEffect, useLayoutEffect, useRef, useState } from "preact/hooks";
import { MuteToggle } from "./mute-toggle.tsx";
import { markRead, useUnread, WOKEN_EVENT } from "./proactive.ts";
import { api, type Streamed, streamMessage } from "./api.ts";
import { MAX_IMAGES, PastedImages, pastedImages } from "./image-paste.tsx";
import type { AuditAnswer, ContextAnswer, DeletedAnswer, FailureAnswer, MessageEvents, ModelTitleAnswer, ProvidersAnswer, SessionsAnswer } from "./api-types.ts";
import { enterSends, sendsMessage, setEnterSends } from "./chat-keys.ts";
import { ModelSwitcher } from "./model-switcher.tsx";
import { useConversationsSaying } from "./conversation-search.ts";
import { Data, Notice, type PageProps, useLoad } from "./components.tsx";
import { errorText, errorWords } from "./errors.ts";
import { named, t } from "./i18n.ts";
import { titleFrom } from "./auto-title.ts";
import { decorateCodeBlocks } from "./code-blocks.ts";
import { DAYS, type Day, dayOf } from "./day-groups.ts";
import { renderMarkdown } from "./markdown.ts";
import { RecallCards } from "./recall-cards.tsx";
import { CopyButton, EditMessage } from "./message-actions.tsx";
import { ReadAloud, type Recording, setProviderSpeech, VoiceClip, VoiceRecorder, voiceClips, withoutVoiceLines } from "./voice.tsx";

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

/**
 * A turn's error; on first run (no provider yet) it says what to do and links to where, and once
 * a provider is there, that the message waits to be sent.
 */
function TurnError({ code, message, hasProvider }: { code: string; message: string; hasProvider: boolean }) {
  if (code !== "no_provider") return <Notice kind="error">{errorWords(code, message)}</Notice>;
  if (hasProvider) return <Notice>{t("turn.notSentYet")}</Notice>;
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
  useLayoutEffect(() => void (el.current && decorateCodeBlocks(renderMarkdown(el.current, text))), [text]);
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

const messageText = (m: Message) =>
  typeof m.content === "string" ? m.content : (m.content ?? []).flatMap((p) => (p.type === "text" ? [p.text] : p.type === "image_url" ? [t("chat.image")] : [])).join(" ");

/** What was said, with Copy and Edit (Edit sends the new text in its place: what followed it goes). */
function UserMessage({ text, idle, editable, resend, voice = [] }: { text: string; idle: boolean; editable: boolean; resend: (text: string) => void; voice?: VoiceClipProps[] }) {
  const [editing, setEditing] = useState(false);
  if (editing && idle)
    return (
      <div class="msg user editing">
        <EditMessage
          text={text}
          send={(edited) => {
            setEditing(false);
            resend(edited);
          }}
          cancel={() => setEditing(false)}
        />
      </div>
    );
  // A voice message shows its clip and transcript, not the line that tells the model of it.
  const shown = voice.length ? withoutVoiceLines(text) : text;
  const copied = shown || voice.flatMap((v) => (v.transcript ? [v.transcript] : [])).join("\n");
  return (
    <div class="msg user">
      {voice.map((clip, i) => (
        <VoiceClip key={i} {...clip} />
      ))}
      {shown && <Data as="p">{shown}</Data>}
      {idle && (
        <div class="msg-actions">
          {copied && <CopyButton text={copied} label={t("turn.copyMessage")} />}
          {editable && (
            <button type="button" class="quiet small" onClick={() => setEditing(true)}>
              {t("turn.edit")}
            </button>
          )}
        </div>
      )}
    </div>
  );
}

/** An answer's actions: Copy (its Markdown as written), and Regenerate on the last answer. */
function AnswerActions({ text, regenerate }: { text: string; regenerate?: () => void }) {
  return (
    <div class="msg-actions">
      {text && <CopyButton text={text} label={t("turn.copyAnswer")} />}
      {text && <ReadAloud text={text} />}
      {regenerate && (
        <button type="button" class="quiet small" onClick={regenerate}>
          {t("turn.regenerate")}
        </button>
      )}
    </div>
  );
}

/** A stored answer; a tool call shows its result (from the tool message answering it) as it did live, and a stopped answer says so. */
function StoredAnswer({ message, results, stopped, idle, regenerate }: { message: Message; results: Map<string, string>; stopped: boolean; idle: boolean; regenerate?: () => void }) {
  const text = messageText(message);
  return (
    <div class="msg assistant">
      {text ? <Markdown text={text} /> : null}
      {(message.role === "assistant" ? (message.tool_calls ?? []) : []).map((c) => {
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
      {idle && (text || regenerate) ? <AnswerActions text={text} regenerate={regenerate} /> : null}
    </div>
  );
}

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

/** Who a console chat is with when nobody is named: the person, talking for themself. */
const YOURSELF = "me";

/** Starts a new conversation (with `partner`, else the person's own) beside any there are, and opens it. */
async function startChat(partner = "") {
  const created = await api<Session>("POST", "/api/sessions", { partner: partner.trim() || YOURSELF, channel: "console", new: true });
  location.hash = `#/chat/${created.id}`;
}

/** The first step while no model is set up: what a model is for here, and where to add one. */
function AddModelStep() {
  return (
    <section class="card first-step" aria-labelledby="first-step-title">
      <h2 id="first-step-title">{t("turn.firstTitle")}</h2>
      <p>{t("turn.firstWhy")}</p>
      <p>
        <a class="button" href="#/providers">
          {t("turn.firstLink")}
        </a>
      </p>
      <p class="muted small">{t("turn.firstMeanwhile")}</p>
    </section>
  );
}

/** One day's conversations, by partner (each partner's, by channel: #2, #3… for new chats beside the first). */
function DayGroup({ day, sessions, current, matches }: { day: Day; sessions: Session[]; current: Session | null; matches: (s: Session) => boolean }) {
  const byPartner = new Map<string, Session[]>();
  for (const s of sessions) byPartner.set(s.partner, [...(byPartner.get(s.partner) ?? []), s]);
  const unread = useUnread();
  return (
    <li class="day" data-day={day} hidden={!sessions.some(matches)}>
      <h3 class="day-name">{t(`turn.${day}`)}</h3>
      <ul>
        {[...byPartner].map(([who, list]) => (
          <li key={who} class="partner" data-partner={who} hidden={!list.some(matches)}>
            {/* The person's own chats need no name over them; someone else's do. */}
            {who !== YOURSELF && (
              <span class="who" translate={false}>
                {who}
              </span>
            )}
            <ul>
              {list.map((s) => (
                <li key={s.id} data-session={s.id} hidden={!matches(s)}>
                  <a href={`#/chat/${s.id}`} aria-current={s.id === current?.id ? "page" : undefined}>
                    <Data>{s.title ?? s.partner}</Data>
                    {unread.has(s.id) && s.id !== current?.id && (
                      <span class="unread-mark">
                        <span class="sr-only">{t("proactive.unread")}</span>
                      </span>
                    )}
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
    </li>
  );
}

/** The conversations by the day each was last used (today, yesterday, earlier), and a box that narrows them. */
function Sidebar({ sessions, current }: { sessions: Session[]; current: Session | null }) {
  const partner = useRef<HTMLInputElement>(null);
  const [q, setQ] = useState("");
  const saying = useConversationsSaying(q);
  const matches = (s: Session) => saying.has(s.id) || `${s.title ?? ""} ${s.partner} ${s.channel}`.toLowerCase().includes(q.trim().toLowerCase());
  const now = new Date();

  async function start(event: Event) {
    event.preventDefault();
    await startChat(partner.current!.value);
  }

  return (
    <aside class="sessions" aria-label={t("chat.conversations")}>
      <h2>{t("chat.conversations")}</h2>
      <form class="inline" onSubmit={start}>
        <label for="new-partner">{t("chat.newWith")}</label>
        <input ref={partner} id="new-partner" name="partner" placeholder={t("turn.partnerOptional")} aria-describedby="partner-help" />
        <p id="partner-help" class="help small">
          {t("turn.partnerHelp")}
        </p>
        <button type="submit">{t("chat.start")}</button>
      </form>
      {sessions.length ? (
        <>
          <label for="find-conversation">{t("chat.find")}</label>
          <input id="find-conversation" type="search" placeholder={t("chat.findPlaceholder")} onInput={(e) => setQ(e.currentTarget.value)} />
        </>
      ) : null}
      <ul class="conversations">
        {DAYS.map((day) => {
          const inDay = sessions.filter((s) => dayOf(s.updatedAt, now) === day);
          return inDay.length ? <DayGroup key={day} day={day} sessions={inDay} current={current} matches={matches} /> : null;
        })}
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
/**
 * A turn sent from this page: what was said, the recall lines, and the answer's parts; `event`
 * is the stored event of what was said, once the turn has ended (none when it was never stored).
 */
type LiveTurn = {
  said: string;
  recalls: RecallReport[];
  parts: Part[];
  typing: boolean;
  streaming: boolean;
  event?: string;
  /** A voice message sent with it (the microphone). */
  voice?: Recording;
  /** What was typed and the photos pasted with it, when there were photos (`said` then shows them as [image]). */
  sent?: { text: string; images: string[] };
};
type VoiceClipProps = Parameters<typeof VoiceClip>[0];

/** What a live turn's actions do: send again in its place (edited, or as it was), each replacing what followed. */
type TurnActions = { idle: boolean; resend: (text: string) => void; last: boolean; hasProvider: boolean };

function LiveAnswer({ turn, actions }: { turn: LiveTurn; actions: TurnActions }) {
  const answer = turn.parts.flatMap((p) => (p.kind === "answer" ? [p.text] : [])).join("\n\n");
  const failed = turn.parts.some((p) => p.kind === "error" || p.kind === "failed");
  // Sent before any model was set up, and one is now: it waits to be sent, it did not fail.
  const waiting = actions.hasProvider && turn.parts.some((p) => p.kind === "error" && p.code === "no_provider");
  return (
    <>
      <UserMessage text={turn.said} idle={actions.idle} editable={!turn.voice} resend={actions.resend} voice={turn.voice ? [{ src: turn.voice.url, pending: true }] : []} />
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
          if (p.kind === "error") return <TurnError key={i} code={p.code} message={p.message} hasProvider={actions.hasProvider} />;
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
        {actions.idle && failed ? (
          <div class="msg-actions">
            <button type="button" onClick={() => actions.resend(turn.said)}>
              {waiting ? t("turn.sendNow") : t("turn.retry")}
            </button>
          </div>
        ) : actions.idle && !turn.streaming ? (
          <AnswerActions text={answer} regenerate={actions.last && answer ? () => actions.resend(turn.said) : undefined} />
        ) : null}
      </div>
    </>
  );
}

/**
 * Sends a message and gathers the streamed turn into `turn`; `changed` is called after each
 * event (the page draws at most once a frame: the Markdown is parsed again on each draw).
 */
async function runTurn(sessionId: string, turn: LiveTurn, replace: string | undefined, signal: AbortSignal, changed: () => void): Promise<void> {
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
    const voice = turn.voice ? { audio: { data: turn.voice.data, mime: turn.voice.mime } } : {};
    const images = turn.sent?.images.map((url) => ({ url }));
    const text = turn.sent?.text ?? turn.said;
    // A photo alone is a message too: its (empty) text goes with it.
    await streamMessage(sessionId, { ...(text || images ? { content: text } : {}), ...voice, ...(replace ? { replace } : {}), ...(images ? { images } : {}) }, on, signal);
  } catch (error) {
    if ((error as Error).name === "AbortError") turn.parts.push({ kind: "stopped" });
    else turn.parts.push({ kind: "failed", message: errorText(error) });
  } finally {
    turn.typing = false;
    turn.streaming = false;
  }
}

/** The stored event of `said`: the last live one of the conversation whose user message it is (none when it was never stored). */
async function eventOf(sessionId: string, said: string): Promise<string | undefined> {
  const events = await api<ContextAnswer>("GET", `/api/sessions/${encodeURIComponent(sessionId)}/context`).catch(() => []);
  return events.findLast((e) => e.messages[0]?.role === "user" && messageText(e.messages[0]) === said)?.id;
}

/**
 * The turn a page loaded later shows for a failure kept with the conversation: its error, with
 * Retry. When the failed message was stored (the last one), it moves from `stored` to the turn.
 */
function failedTurn(stored: StoredMessage[], failure: FailureAnswer["failure"]): { stored: StoredMessage[]; turns: LiveTurn[] } {
  if (!failure) return { stored, turns: [] };
  const last = stored.at(-1);
  const kept = last?.message.role === "user" && messageText(last.message) === failure.input ? last : undefined;
  const turn: LiveTurn = { said: failure.input, recalls: [], parts: [{ kind: "error", code: failure.error, message: failure.message }], typing: false, streaming: false, event: kept?.event };
  return { stored: kept ? stored.slice(0, -1) : stored, turns: [turn] };
}

function Conversation({ session, loaded, hasProvider, renamed }: { session: Session; loaded: Loaded; hasProvider: boolean; renamed: () => void }) {
  const input = useRef<HTMLTextAreaElement>(null);
  const form = useRef<HTMLFormElement>(null);
  const log = useRef<HTMLDivElement>(null);
  const [initial] = useState(() => failedTurn(loaded.stored, loaded.failure));
  const [stored, setStored] = useState(initial.stored);
  const [turns, setTurns] = useState<LiveTurn[]>(initial.turns);
  const [enterAlone, setEnterAlone] = useState(enterSends);
  /** Photos pasted into the box, waiting for Send. */
  const [images, setImages] = useState<string[]>([]);
  /** Whether the conversation still waits for its name: one nobody named, whose first exchange this page sends. */
  const unnamed = useRef(session.title === null && loaded.stored.length === 0);
  const [, redraw] = useState(0);
  /** The running turn's controller: Stop, Esc (or leaving the page) cancels it; what was said so far stays. */
  const controller = useRef<AbortController | null>(null);
  const frame = useRef(0);
  useEffect(() => {
    input.current?.focus();
    // Esc stops the answer wherever the focus is (an answer's details, a link, the box).
    const stop = (e: KeyboardEvent) => e.key === "Escape" && controller.current?.abort();
    document.addEventListener("keydown", stop);
    return () => {
      document.removeEventListener("keydown", stop);
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

  /** Sends `text` (with a voice message, or pasted photos) as a new turn; with `replace`, in place of that stored event and all after it. */
  async function say(text: string, replace?: string, voice?: Recording, photos: string[] = []) {
    // Shown (and found again among the stored events) as the stored message reads: text, then [image] per photo.
    const said = photos.length ? [text, ...photos.map(() => t("chat.image"))].filter(Boolean).join(" ") : text;
    const turn: LiveTurn = { said, recalls: [], parts: [], typing: true, streaming: true, ...(voice ? { voice } : {}), ...(photos.length ? { sent: { text, images: photos } } : {}) };
    setTurns((all) => [...all, turn]);
    controller.current = new AbortController();
    const draw = () => {
      cancelAnimationFrame(frame.current);
      frame.current = 0;
      redraw((n) => n + 1);
    };
    await runTurn(session.id, turn, replace, controller.current.signal, () => {
      frame.current ||= requestAnimationFrame(draw);
    });
    controller.current = null;
    // Which stored event it was, so Edit, Regenerate and Retry can replace it.
    if (!voice) turn.event = await eventOf(session.id, turn.said);
    draw();
    input.current?.focus();
    // Its first exchange answered: the conversation takes its name from what was asked.
    if (unnamed.current && turn.parts.some((p) => p.kind === "answer") && !turn.parts.some((p) => p.kind === "error" || p.kind === "failed")) {
      unnamed.current = false;
      const title = titleFrom(text || t("voice.message"));
      if (title) await api("PATCH", `/api/sessions/${encodeURIComponent(session.id)}`, { title }).then(renamed, () => {});
      // Then the model's name for it (one small request): on any failure the name from the text stays.
      void api<ModelTitleAnswer>("POST", `/api/sessions/${encodeURIComponent(session.id)}/title`, { ifTitle: title || null }).then(
        (a) => a.title && renamed(),
        () => {},
      );
    }
  }

  async function send(event: Event) {
    event.preventDefault();
    const text = input.current!.value;
    const photos = images;
    if (!text.trim() && photos.length === 0) return;
    input.current!.value = "";
    setImages([]);
    await say(text, undefined, undefined, photos);
  }

  /** Sends `text` in place of the stored message `i` (and what followed it). */
  const resendStored = (i: number) => (text: string) => {
    const from = stored[i]!.event;
    setStored(stored.slice(0, i));
    setTurns([]);
    void say(text, from);
  };
  /** Sends `text` in place of live turn `i` (and what followed it); a turn never stored is just sent again. */
  const resendLive = (i: number) => (text: string) => {
    const { event: from, voice } = turns[i]!;
    setTurns(turns.slice(0, i));
    void say(text, from, voice);
  };

  const running = turns.at(-1)?.streaming === true;
  const idle = !running;
  // Regenerate belongs to the last answer: the stored one only while no turn was sent from this page.
  const lastAnswer = turns.length ? -1 : stored.findLastIndex((m) => m.message.role === "assistant");
  const askedBefore = (i: number) => stored.findLastIndex((m, j) => j < i && m.message.role === "user");
  return (
    <>
      <ConversationHeading session={session} />
      <div class="log" role="log" aria-live="polite" ref={log}>
        {stored.map(({ message, recall, stopped }, i) => {
          if (message.role === "tool") return null;
          const asked = i === lastAnswer ? askedBefore(i) : -1;
          return (
            <Fragment key={i}>
              {message.role === "user" ? (
                <UserMessage text={messageText(message)} idle={idle} editable={typeof message.content === "string"} resend={resendStored(i)} voice={voiceClips(message.content)} />
              ) : (
                <StoredAnswer
                  message={message}
                  results={loaded.stored.results}
                  stopped={stopped}
                  idle={idle}
                  regenerate={asked >= 0 ? () => resendStored(asked)(messageText(stored[asked]!.message)) : undefined}
                />
              )}
              {recall && <RecallLine report={recall} />}
              {recall && <RecallCards report={recall} />}
            </Fragment>
          );
        })}
        {turns.map((turn, i) => (
          <LiveAnswer key={`t${i}`} turn={turn} actions={{ idle, resend: resendLive(i), last: i === turns.length - 1, hasProvider }} />
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
          required={images.length === 0}
          aria-describedby="composer-keys"
          onPaste={(e) => void pastedImages(e).then((found) => found.length && setImages((all) => [...all, ...found].slice(0, MAX_IMAGES)))}
          placeholder={t("chat.messagePlaceholder")}
          onKeyDown={(e) => {
            if (!sendsMessage(e, enterAlone)) return;
            e.preventDefault();
            if (!running) form.current?.requestSubmit();
          }}
        />
        <PastedImages images={images} remove={(i) => setImages((all) => all.filter((_, j) => j !== i))} />
        <button type="submit" disabled={running}>
          {t("chat.send")}
        </button>
        <VoiceRecorder
          disabled={running}
          recorded={(recording) => {
            // What is typed goes with the recording, as one message.
            const text = input.current!.value;
            input.current!.value = "";
            void say(text, undefined, recording);
          }}
        />
        <button type="button" class="quiet" hidden={!running} onClick={() => controller.current?.abort()}>
          {t("chat.stop")}
        </button>
      </form>
      <p class="composer-keys small muted">
        <span id="composer-keys">
          <kbd translate={false}>{enterAlone ? "Enter" : "Ctrl+Enter"}</kbd>
          {t("turn.keySends")}
          <kbd translate={false}>{enterAlone ? "Shift+Enter" : "Enter"}</kbd>
          {t("turn.keyNewLine")}
          <kbd translate={false}>Esc</kbd>
          {t("turn.keyStops")}
        </span>{" "}
        <label>
          <input
            type="checkbox"
            checked={enterAlone}
            onChange={(e) => {
              setEnterSends(e.currentTarget.checked);
              setEnterAlone(e.currentTarget.checked);
            }}
          />{" "}
          {t("turn.enterSends")}
        </label>
      </p>
    </>
  );
}

/**
 * The stored conversation: each message with the recall line of the turn it started (and whether
 * it ends a turn its client stopped), and the tool results by call.
 */
type StoredMessage = { message: Message; event: string; recall: RecallReport | null; stopped: boolean };
type Stored = StoredMessage[] & { results: Map<string, string> };
/** What the page loads for a conversation: its stored messages and its last turn's failure, if it failed. */
type Loaded = { stored: Stored; failure: FailureAnswer["failure"] };

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
  const messages = history.flatMap((e) => e.messages.map((message) => ({ message, event: e.id })));
  const stoppedAfter = new Set(history.filter((e) => e.stopped).map((e) => e.messages.at(-1)));
  const results = new Map(messages.flatMap(({ message: m }) => (m.role === "tool" ? [[m.tool_call_id, typeof m.content === "string" ? m.content : JSON.stringify(m.content)] as const] : [])));
  const stored = messages.map(({ message, event }) => ({
    message,
    event,
    recall: message.role === "user" && typeof message.content === "string" ? recallFor(message.content) : null,
    stopped: stoppedAfter.has(message),
  }));
  return Object.assign(stored, { results });
}

async function load(sessionId: string | undefined) {
  const [{ sessions }, { providers }] = await Promise.all([api<SessionsAnswer>("GET", "/api/sessions"), api<ProvidersAnswer>("GET", "/api/providers")]);
  const hasProvider = providers.length > 0;
  setProviderSpeech(providers.some((p) => p.speechModel));
  const current = sessions.find((s) => s.id === sessionId) ?? (sessionId ? null : (sessions[0] ?? null));
  if (!current) return { sessions, current, hasProvider, providers, conversation: null };
  const [history, audit, { failure }] = await Promise.all([
    api<ContextAnswer>("GET", `/api/sessions/${current.id}/context`),
    api<AuditAnswer>("GET", `/api/audit?session=${encodeURIComponent(current.id)}`),
    api<FailureAnswer>("GET", `/api/sessions/${current.id}/failure`),
  ]);
  return { sessions, current, hasProvider, providers, conversation: { stored: storedConversation(history, audit), failure } satisfies Loaded };
}

export function Chat({ params: [sessionId], fail }: PageProps) {
  const [loaded, reload] = useLoad(() => load(sessionId), fail);
  /** On a phone the conversation list is a drawer (console.css), opened by its button; choosing one redraws the page, closed. */
  const [drawer, setDrawer] = useState(false);
  // Focus goes into the opened drawer and back to its button when it closes, as a dialog's would.
  const toggle = (open: boolean) => {
    setDrawer(open);
    requestAnimationFrame(() => document.querySelector<HTMLElement>(open ? ".drawer-close" : ".drawer-toggle")?.focus());
  };
  // A woken answer of the open conversation (live-notifications.tsx): loaded again and shown, already read.
  const [generation, setGeneration] = useState(0);
  const woken = useRef(false);
  const shownId = loaded?.current?.id;
  useEffect(() => {
    if (!shownId) return;
    markRead(shownId);
    const onWoken = (e: Event) => {
      if ((e as CustomEvent<{ sessionId: string }>).detail.sessionId !== shownId) return;
      markRead(shownId);
      woken.current = true;
      reload();
    };
    window.addEventListener(WOKEN_EVENT, onWoken);
    return () => window.removeEventListener(WOKEN_EVENT, onWoken);
  }, [shownId]);
  useEffect(() => {
    if (!woken.current) return;
    woken.current = false;
    setGeneration((g) => g + 1);
  }, [loaded]);
  // Esc closes the open drawer, wherever the focus is.
  useEffect(() => {
    if (!drawer) return;
    const close = (e: KeyboardEvent) => e.key === "Escape" && toggle(false);
    document.addEventListener("keydown", close);
    return () => document.removeEventListener("keydown", close);
  }, [drawer]);
  if (!loaded) return null;
  const { sessions, current, conversation, hasProvider, providers } = loaded;
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
          {!hasProvider && <AddModelStep />}
          <ModelSwitcher providers={providers} />
          {current && conversation ? (
            <>
              <MuteToggle kind="session" name={current.id} label={t("proactive.muteSession")} />
              <Conversation key={`${current.id}/${generation}`} session={current} loaded={conversation} hasProvider={hasProvider} renamed={reload} />
            </>
          ) : sessions.length ? (
            <Notice>{t("chat.missing")}</Notice>
          ) : (
            <p>
              <button type="button" onClick={() => void startChat()}>
                {t("turn.startChat")}
              </button>
            </p>
          )}
        </section>
      </div>
    </>
  );
}

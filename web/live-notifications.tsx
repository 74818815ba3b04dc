// Live notifications of the turns homed starts itself (a reminder due, new feed items): while the
// console is open it listens on /api/proactive/events (Server-Sent Events). Each woken answer
// shows as a notice with a link to its conversation, marks that conversation unread unless it is
// the one being read, tells an open conversation to show it, and — when the person allowed it and
// the tab is hidden — raises a desktop notification.
import { useEffect, useState } from "preact/hooks";
import type { LiveMessage } from "./api-types.ts";
import { Data } from "./components.tsx";
import { t } from "./i18n.ts";
import { markUnread, viewedSession, WOKEN_EVENT } from "./proactive.ts";

/** Notices kept on screen at once; older ones go. */
const MAX_SHOWN = 3;
/** How much of an answer a notice shows; the conversation has the rest. */
const EXCERPT_CHARS = 280;

const titleOf = (m: LiveMessage) => m.session.title ?? m.session.partner;
const excerpt = (text: string) => (text.length > EXCERPT_CHARS ? `${text.slice(0, EXCERPT_CHARS)}…` : text);

function desktopNotify(message: LiveMessage): void {
  if (typeof Notification === "undefined" || Notification.permission !== "granted" || document.visibilityState === "visible") return;
  const note = new Notification(t("proactive.desktopTitle", { title: titleOf(message) }), { body: excerpt(message.text), tag: message.eventId ?? message.sessionId });
  note.onclick = () => {
    window.focus();
    location.hash = `#/chat/${message.sessionId}`;
    note.close();
  };
}

export function LiveNotifications() {
  const [shown, setShown] = useState<LiveMessage[]>([]);
  const [permission, setPermission] = useState(typeof Notification === "undefined" ? "unsupported" : Notification.permission);
  useEffect(() => {
    const source = new EventSource("/api/proactive/events");
    source.addEventListener("woken", (e) => {
      const message = JSON.parse((e as MessageEvent<string>).data) as LiveMessage;
      if (viewedSession() !== message.sessionId) markUnread(message.sessionId);
      window.dispatchEvent(new CustomEvent(WOKEN_EVENT, { detail: message }));
      setShown((list) => [...list, message].slice(-MAX_SHOWN));
      desktopNotify(message);
    });
    return () => source.close();
  }, []);
  const dismiss = (m: LiveMessage) => setShown((list) => list.filter((x) => x !== m));
  const ask = async () => setPermission(await Notification.requestPermission());
  return (
    <div class="live-notes" role="status" aria-label={t("proactive.region")}>
      {shown.map((m) => (
        <div key={m.eventId ?? m.sessionId} class="live-note notice" data-session={m.sessionId}>
          <p>
            <strong>{t(`proactive.source_${m.source.kind}`)}</strong> · <Data>{titleOf(m)}</Data>
          </p>
          <Data as="p" class="live-text">
            {excerpt(m.text)}
          </Data>
          <p class="live-actions">
            <a href={`#/chat/${m.sessionId}`} onClick={() => dismiss(m)}>
              {t("proactive.open")}
            </a>
            {permission === "default" && (
              <button type="button" class="quiet" onClick={() => void ask()}>
                {t("proactive.allowDesktop")}
              </button>
            )}
            <button type="button" class="quiet" onClick={() => dismiss(m)}>
              {t("proactive.dismiss")}
            </button>
          </p>
        </div>
      ))}
    </div>
  );
}

// Proactive turns in the console (issue 29): which conversations have a woken answer not yet
// seen (kept in localStorage, so a reload keeps the marks), and what is muted (the daemon's,
// through /api/proactive/mutes). Pages hear of changes through window events.
import { useEffect, useState } from "preact/hooks";
import { api } from "./api.ts";
import type { MutesAnswer } from "./api-types.ts";

const UNREAD_KEY = "homed.unread";
/** Sent on window when a woken answer arrives: detail is the LiveMessage. */
export const WOKEN_EVENT = "homed:woken";
const UNREAD_EVENT = "homed:unread";

function readUnread(): Set<string> {
  try {
    const stored = JSON.parse(localStorage.getItem(UNREAD_KEY) ?? "[]");
    return new Set(Array.isArray(stored) ? stored.filter((s): s is string => typeof s === "string") : []);
  } catch {
    return new Set();
  }
}

function writeUnread(ids: Set<string>): void {
  localStorage.setItem(UNREAD_KEY, JSON.stringify([...ids]));
  window.dispatchEvent(new Event(UNREAD_EVENT));
}

export function markUnread(sessionId: string): void {
  const ids = readUnread();
  if (!ids.has(sessionId)) writeUnread(ids.add(sessionId));
}

export function markRead(sessionId: string): void {
  const ids = readUnread();
  if (ids.delete(sessionId)) writeUnread(ids);
}

/** The conversations with a woken answer not yet seen, redrawn when that changes. */
export function useUnread(): Set<string> {
  const [ids, setIds] = useState(readUnread);
  useEffect(() => {
    const changed = () => setIds(readUnread());
    window.addEventListener(UNREAD_EVENT, changed);
    window.addEventListener("storage", changed);
    return () => {
      window.removeEventListener(UNREAD_EVENT, changed);
      window.removeEventListener("storage", changed);
    };
  }, []);
  return ids;
}

/** The session the console shows now (#/chat/<id>), when the tab is visible. */
export function viewedSession(): string | undefined {
  const [route, id] = location.hash.replace(/^#\/?/, "").split("/");
  return document.visibilityState === "visible" && (route === "chat" || route === "") && id ? decodeURIComponent(id) : undefined;
}

export const readMutes = () => api<MutesAnswer>("GET", "/api/proactive/mutes");
export const setMute = (kind: "source" | "session", name: string, muted: boolean) => api<MutesAnswer>("PUT", "/api/proactive/mutes", { kind, name, muted });

// The conversation list by when each was last used: today, yesterday, earlier (local time).
export const DAYS = ["today", "yesterday", "earlier"] as const;
export type Day = (typeof DAYS)[number];

/** The group of a conversation last used at `ms`, seen at `now` (midnights by the calendar, so a DST day is still one day). */
export function dayOf(ms: number, now: Date = new Date()): Day {
  const today = new Date(now.getFullYear(), now.getMonth(), now.getDate()).getTime();
  if (ms >= today) return "today";
  return ms >= new Date(now.getFullYear(), now.getMonth(), now.getDate() - 1).getTime() ? "yesterday" : "earlier";
}

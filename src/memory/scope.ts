/**
 * Which cold events a query may see. The filter becomes part of each channel's SQL WHERE
 * clause — never a pass over results afterwards, where a top-k cut taken before filtering
 * would silently return fewer (or other people's) memories.
 */
import type { InValue } from "@libsql/client";

export type RecallScope = {
  /** A conversation, partner or project key; user-wide memories are visible from every one. */
  conversation?: string;
  /** Inclusive time bounds, milliseconds since the epoch. */
  since?: number;
  until?: number;
};

export type SqlFilter = { sql: string; args: InValue[] };

/** The WHERE conditions on alias `e` (events) for cold context within a scope. */
export function scopeFilter(scope: RecallScope): SqlFilter {
  const parts = ["e.layer = 'L2'"];
  const args: InValue[] = [];
  if (scope.conversation !== undefined) {
    // Written as a rowid set, not `conversation = ? OR scope = 'user'`: SQLite cannot use an
    // index for that OR and would read every cold event (80 ms at 10k events, measured) where
    // the two index lookups read only the conversation's own (1 ms).
    parts.push("e.rowid IN (SELECT rowid FROM events WHERE conversation = ? UNION ALL SELECT rowid FROM events WHERE scope = 'user')");
    args.push(scope.conversation);
  }
  if (scope.since !== undefined) {
    parts.push("e.time >= ?");
    args.push(scope.since);
  }
  if (scope.until !== undefined) {
    parts.push("e.time <= ?");
    args.push(scope.until);
  }
  return { sql: parts.join(" AND "), args };
}

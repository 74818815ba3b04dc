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
    parts.push("(e.conversation = ? OR e.scope = 'user')");
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

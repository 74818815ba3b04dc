/**
 * Which cold events a query may see. The filter becomes part of each channel's SQL WHERE
 * clause — never a pass over results afterwards, where a top-k cut taken before filtering
 * would silently return fewer (or other people's) memories.
 */
import type { InValue } from "@libsql/client";
import { z } from "zod";

export type SqlFilter = { sql: string; args: InValue[] };

/**
 * Who is asking, in a chat (DESIGN §3 Scopes): homed serves one user, so every memory is
 * reachable unless it is private (`private_to`) to a partner or project other than these.
 */
export type Viewer = { partner?: string; project?: string };

/** A memory's narrower scope, as stored in `private_to`; null is the user's (every chat). */
export type PrivateScope = `partner:${string}` | `project:${string}`;

/**
 * A memory's scope as a person names it (`homed import --scope`, the console import, the
 * `memory_note` tool): `user` (the default: every chat) or private to one partner or project.
 */
export const MemoryScopeSchema = z.string().regex(/^(user|(partner|project):\S.{0,199})$/s, 'scope must be "user", "partner:NAME" or "project:NAME"');

/** The `private_to` value of a scope named so: null for `user`. */
export const privateToOf = (scope: string): PrivateScope | null => (scope === "user" ? null : (scope as PrivateScope));

/** The `private_to` values a viewer may see besides the user's (null) ones. */
export const visibleScopes = (viewer: Viewer): PrivateScope[] => [
  ...(viewer.partner === undefined ? [] : [`partner:${viewer.partner}` as const]),
  ...(viewer.project === undefined ? [] : [`project:${viewer.project}` as const]),
];

/** `private_to IS NULL OR private_to IN (…)` on `alias`, for a viewer. */
export function viewerFilter(viewer: Viewer, alias: string): SqlFilter {
  const mine = visibleScopes(viewer);
  if (mine.length === 0) return { sql: `${alias}.private_to IS NULL`, args: [] };
  return { sql: `(${alias}.private_to IS NULL OR ${alias}.private_to IN (${mine.map(() => "?").join(", ")}))`, args: mine };
}

export type RecallScope = {
  /**
   * An explicit filter (benchmarks, `homed recall --conversation`, tools): only this
   * conversation's memories and user-wide (`scope = 'user'`) ones. A chat does not set it: it
   * searches everything and ranks its own conversation first (`QueryOptions.prefer`).
   */
  conversation?: string;
  /** Set in a chat: memories private to another partner or project are never returned. */
  viewer?: Viewer;
  /** Inclusive time bounds, milliseconds since the epoch. */
  since?: number;
  until?: number;
};

/**
 * The events a scope may admit, as a query of their rowids (`r`) read from indexes alone: a
 * conversation's and the user-wide ones (a superset: layer, privacy and time are checked on the
 * best matches). Undefined when the scope is the whole store.
 */
export function scopeCandidates(scope: RecallScope): SqlFilter | undefined {
  if (scope.conversation === undefined) return undefined;
  return { sql: "SELECT rowid AS r FROM events WHERE conversation = ? UNION ALL SELECT rowid AS r FROM events WHERE scope = 'user'", args: [scope.conversation] };
}

/** The WHERE conditions on alias `e` (events) for cold context within a scope. */
export function scopeFilter(scope: RecallScope): SqlFilter {
  const parts: string[] = [];
  const args: InValue[] = [];
  if (scope.conversation === undefined) parts.push("e.layer = 'L2'");
  else {
    // The unary + keeps SQLite from driving the query by the layer index (every cold event)
    // instead of by the conversation's rowids: 19 → 6 ms for a 1k-event conversation in 100k.
    parts.push("+e.layer = 'L2'");
    // Written as a rowid set, not `conversation = ? OR scope = 'user'`: SQLite cannot use an
    // index for that OR and would read every cold event (80 ms at 10k events, measured) where
    // the two index lookups read only the conversation's own (1 ms).
    parts.push("e.rowid IN (SELECT rowid FROM events WHERE conversation = ? UNION ALL SELECT rowid FROM events WHERE scope = 'user')");
    args.push(scope.conversation);
  }
  if (scope.viewer !== undefined) {
    const visible = viewerFilter(scope.viewer, "e");
    parts.push(visible.sql);
    args.push(...visible.args);
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

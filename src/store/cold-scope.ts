/**
 * Which cold events a recall may see, as SQL conditions on alias `e` (events). Every channel puts
 * them in its own WHERE clause — never a pass over results afterwards, where a top-k cut taken
 * before filtering would silently return fewer (or other people's) memories.
 */
import { sql, type SQL, type SQLWrapper } from "drizzle-orm";
import { SQLiteAsyncDialect } from "drizzle-orm/sqlite-core";
import type { Executor } from "./query-db.ts";
import { searchEvents, type EventFilter, type RankedEvents, type SearchTerms } from "../search/index.ts";

export type ColdScope = {
  /** Only this conversation's events and user-wide (`scope = 'user'`) ones. */
  conversation?: string;
  /** A chat's viewer: the private scopes it may see besides the user's. Undefined: no privacy test (the user's own tools). */
  privateScopes?: readonly string[];
  /** Inclusive time bounds, milliseconds since the epoch. */
  since?: number;
  until?: number;
};

/**
 * `private_to IS NULL OR private_to IN (…)`: what a viewer with these private scopes may see of
 * events or facts (`privateTo`: their column, or an alias's as SQL).
 */
export function visibleTo(privateTo: SQLWrapper, privateScopes: readonly string[]): SQL {
  if (privateScopes.length === 0) return sql`${privateTo} IS NULL`;
  return sql`(${privateTo} IS NULL OR ${privateTo} IN ${[...privateScopes]})`;
}

/**
 * The events a scope may admit, as a query of their rowids (`r`) read from indexes alone: a
 * conversation's and the user-wide ones (a superset: layer, privacy and time are checked on the
 * best matches). Undefined when the scope is the whole store.
 */
export function coldCandidates(scope: ColdScope): SQL | undefined {
  if (scope.conversation === undefined) return undefined;
  return sql`SELECT rowid AS r FROM events WHERE conversation = ${scope.conversation} UNION ALL SELECT rowid AS r FROM events WHERE scope = 'user'`;
}

/** The WHERE conditions on alias `e` (events) for cold context within a scope. */
export function coldScopeSql(scope: ColdScope): SQL {
  const parts: SQL[] = [];
  if (scope.conversation === undefined) parts.push(sql`e.layer = 'L2'`);
  else {
    // The unary + keeps SQLite from driving the query by the layer index (every cold event)
    // instead of by the conversation's rowids: 19 → 6 ms for a 1k-event conversation in 100k.
    parts.push(sql`+e.layer = 'L2'`);
    // Written as a rowid set, not `conversation = ? OR scope = 'user'`: SQLite cannot use an
    // index for that OR and would read every cold event (80 ms at 10k events, measured) where
    // the two index lookups read only the conversation's own (1 ms).
    parts.push(sql`e.rowid IN (SELECT rowid FROM events WHERE conversation = ${scope.conversation} UNION ALL SELECT rowid FROM events WHERE scope = 'user')`);
  }
  if (scope.privateScopes !== undefined) parts.push(visibleTo(sql`e.private_to`, scope.privateScopes));
  if (scope.since !== undefined) parts.push(sql`e.time >= ${scope.since}`);
  if (scope.until !== undefined) parts.push(sql`e.time <= ${scope.until}`);
  return sql.join(parts, sql` AND `);
}

const dialect = new SQLiteAsyncDialect();

/** A condition as the event index's search takes it (text and arguments). */
function eventFilter(condition: SQL): EventFilter {
  const { sql: text, params } = dialect.sqlToQuery(condition);
  return { sql: text, args: params as EventFilter["args"] };
}

/**
 * The words and grams rankings of cold events in `scope`, `limit` deep each. Under a conversation
 * scope its events (and the user-wide ones) are listed from indexes first and only they are
 * scored, so the query grows with the conversation rather than the store; otherwise every match
 * is scored. Either way the scope (layer, privacy, time) is checked on the best.
 */
export function searchColdEvents(client: Executor, terms: SearchTerms, scope: ColdScope, limit: number): Promise<{ words: RankedEvents; grams: RankedEvents }> {
  const within = coldCandidates(scope);
  // What `within` lists is the conversation's part of the scope: the check on the best matches
  // needs only the rest (layer, privacy, time), not the conversation's rowids listed again.
  const filter = eventFilter(coldScopeSql(within ? { ...scope, conversation: undefined } : scope));
  return searchEvents(client, terms, { limit, filter, ...(within ? { within: eventFilter(within) } : {}) });
}

/**
 * Recall's reads of cold events beyond the ranking (memory/query.ts, memory/injection.ts) and the
 * move of recalled events back into L1 (memory/recall.ts). The per-query reads are typed sql
 * templates: they run on every turn, and the query builder costs ~150 µs a query to build
 * (measured on the record lookups, store/memory-records.ts).
 */
import type { Client } from "@libsql/client";
import { and, asc, eq, inArray, sql, type SQL } from "drizzle-orm";
import { queryDb, type Executor } from "./query-db.ts";
import { blocks, events } from "./schema.ts";
import { heldInL2 } from "./blocks-table.ts";
import { visibleTo } from "./cold-scope.ts";

/** A cold event as recall shows it. */
export type ColdCandidateRow = { id: string; text: string; time: number; conversation: string; sessionId: string; speaker: string | null; sourceId: string | null };

/**
 * The cold (L2) events among `ids`; an id no longer cold (recalled into L1 meanwhile) is absent.
 * `+layer` keeps SQLite from walking every cold event through a layer index instead of looking
 * the ids up by primary key (it chose the walk: 40 ms a query at 30k events, growing with the store).
 */
export async function coldCandidateRows(client: Executor, ids: readonly string[]): Promise<ColdCandidateRow[]> {
  if (ids.length === 0) return [];
  const rows = await queryDb(client).all<{ id: string; text: string; time: number; conversation: string; session_id: string; speaker: string | null; source_id: string | null }>(
    sql`SELECT id, text, time, conversation, session_id, speaker, source_id FROM events
   WHERE +layer = 'L2' AND id IN ${ids}`,
  );
  return rows.map((r) => ({ id: r.id, text: r.text, time: r.time, conversation: r.conversation, sessionId: r.session_id, speaker: r.speaker, sourceId: r.source_id }));
}

/**
 * Which of `ids` belong to `conversation`: events by their conversation, facts (`triples`) by
 * their scope. One lookup by primary key of the ids (a fused list: at most 300).
 */
export async function idsInConversation(client: Executor, table: "events" | "triples", conversation: string, ids: readonly string[]): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const rows = await queryDb(client).all<{ id: string }>(
    table === "events" ? sql`SELECT id FROM events WHERE +conversation = ${conversation} AND id IN ${ids}` : sql`SELECT id FROM triples WHERE +scope = ${conversation} AND id IN ${ids}`,
  );
  return new Set(rows.map((r) => r.id));
}

/** How often each of `ids` was used (cited or recalled), and its scene. */
export function coldUses(client: Executor, ids: readonly string[]): Promise<{ id: string; accessCount: number; sceneId: string | null }[]> {
  if (ids.length === 0) return Promise.resolve([]);
  return queryDb(client).all(sql`SELECT id, access_count AS accessCount, scene_id AS sceneId FROM events WHERE id IN ${ids}`);
}

/**
 * The newest `limit` cold events: a conversation's and user-wide ones when `conversation` is
 * given, those a viewer with `privateScopes` may see when they are given. With a conversation,
 * its newest and the user-wide newest are read apart, each by its own index, and merged: as one
 * `conversation = ? OR scope = 'user'` SQLite walked every cold event newest first until `limit`
 * matched, all of them for a conversation with none (a new partner's first "ok": 13 ms at 20k
 * messages, growing with the store; now 0.3 ms).
 */
export function recentColdEvents(client: Executor, options: { conversation?: string; privateScopes?: readonly string[]; limit: number }): Promise<{ id: string; text: string; accessCount: number }[]> {
  const { conversation, privateScopes, limit } = options;
  const visible = privateScopes ? sql` AND ${visibleTo(events.privateTo, privateScopes)}` : sql``;
  const newest = (where: SQL) => sql`SELECT id, text, access_count AS accessCount, time FROM events WHERE ${where}${visible} ORDER BY time DESC LIMIT ${limit}`;
  if (conversation === undefined) return queryDb(client).all(newest(sql`layer = 'L2'`));
  const own = newest(sql`conversation = ${conversation} AND +layer = 'L2'`);
  const userWide = newest(sql`scope = 'user' AND +layer = 'L2'`);
  return queryDb(client).all(sql`SELECT id, text, accessCount FROM (SELECT * FROM (${own}) UNION SELECT * FROM (${userWide})) ORDER BY time DESC LIMIT ${limit}`);
}

/** A cold event moved back into L1, in its original order. */
export type RecalledRow = { id: string; sessionId: string; seq: number; time: number; text: string };

/**
 * Moves cold events back into L1 in one write transaction: the events (in their original order:
 * time, then position in the session) become layer L1, used once more, and their blocks' single
 * holder becomes L1. When any of `ids` is not cold, nothing moves and those ids are returned.
 */
export async function moveColdToL1(client: Client, ids: readonly string[], now: number): Promise<{ moved: RecalledRow[] } | { missing: string[] }> {
  const tx = await client.transaction("write");
  try {
    const db = queryDb(tx);
    const rows = await db
      .select({ id: events.id, sessionId: events.sessionId, seq: events.seq, time: events.time, text: events.text })
      .from(events)
      .where(and(eq(events.layer, "L2"), inArray(events.id, [...ids])))
      .orderBy(asc(events.time), asc(events.sessionId), asc(events.seq));
    if (rows.length !== ids.length) {
      const found = new Set(rows.map((r) => r.id));
      return { missing: ids.filter((id) => !found.has(id)) };
    }
    await db
      .update(blocks)
      .set({ holder: "L1" })
      .where(and(heldInL2(), inArray(blocks.eventId, [...ids])));
    await db
      .update(events)
      .set({ layer: "L1", accessCount: sql`${events.accessCount} + 1`, lastAccess: now })
      .where(inArray(events.id, [...ids]));
    await tx.commit();
    return { moved: rows };
  } finally {
    tx.close();
  }
}

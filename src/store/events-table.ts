/**
 * Queries on `events` for the console and the kernel, with typed rows. Recall's own queries
 * (full-text, vectors) live with recall in src/memory; these are the plain ones.
 */
import type { Client, InStatement } from "@libsql/client";
import { and, asc, desc, eq, gte, inArray, isNotNull, isNull, lte, ne, sql } from "drizzle-orm";
import { queryDb, type Executor } from "./query-db.ts";
import { blocks, events } from "./schema.ts";
import { heldInL2 } from "./blocks-table.ts";

/** What the context inspector shows of each event of a session, in the session's order. */
export type TimelineRow = {
  id: string;
  layer: "L1" | "L2" | "L3";
  time: number;
  role: string | null;
  text: string;
  tokens: number;
  lastAccess: number | null;
  sunkAt: number | null;
};

export function sessionTimeline(client: Client, sessionId: string): Promise<TimelineRow[]> {
  return queryDb(client)
    .select({ id: events.id, layer: events.layer, time: events.time, role: events.role, text: events.text, tokens: events.tokens, lastAccess: events.lastAccess, sunkAt: events.sunkAt })
    .from(events)
    .where(eq(events.sessionId, sessionId))
    .orderBy(asc(events.seq));
}

/** Files the session's live events that have no scene yet under `sceneId`. */
export async function fileLiveEventsInScene(client: Client, sessionId: string, sceneId: string): Promise<void> {
  await queryDb(client)
    .update(events)
    .set({ sceneId })
    // `+layer`: by the layer index SQLite walked every live event of every session (20k live
    // events: 12 ms a turn, vs 0.04 ms through the session's own index).
    .where(and(eq(events.sessionId, sessionId), sql`+${events.layer} = 'L1'`, isNull(events.sceneId)));
}

/** Who alone may recall the event (`partner:NAME` / `project:NAME`), or null: the user's. */
export async function setEventPrivateTo(client: Executor, id: string, privateTo: string | null): Promise<void> {
  await queryDb(client).update(events).set({ privateTo }).where(eq(events.id, id));
}

/** An event as the console's memory browser shows it. */
export type EventRow = {
  id: string;
  layer: "L1" | "L2" | "L3";
  text: string;
  time: number;
  conversation: string;
  scope: "user" | "conversation" | "project";
  /** `partner:NAME` / `project:NAME`, or null: the user's, recalled from every chat. */
  privateTo: string | null;
  sessionId: string;
  speaker: string | null;
  role: string | null;
  sourceId: string | null;
  tokens: number;
  accessCount: number;
};

const EVENT_ROW = {
  id: events.id,
  layer: events.layer,
  text: events.text,
  time: events.time,
  conversation: events.conversation,
  scope: events.scope,
  privateTo: events.privateTo,
  sessionId: events.sessionId,
  speaker: events.speaker,
  role: events.role,
  sourceId: events.sourceId,
  tokens: events.tokens,
  accessCount: events.accessCount,
};

export async function eventsByIds(client: Client, ids: readonly string[]): Promise<EventRow[]> {
  if (ids.length === 0) return [];
  return queryDb(client)
    .select(EVENT_ROW)
    .from(events)
    .where(inArray(events.id, [...ids]));
}

export type EventFilter = {
  layer?: "L1" | "L2" | "L3";
  notLayer?: "L1" | "L2" | "L3";
  /** Text holding this, case-insensitively (a plain substring, not a search). */
  containing?: string;
  scope?: "user" | "conversation" | "project";
  conversation?: string;
  /** Said within these bounds, inclusive (milliseconds since the epoch). */
  since?: number;
  until?: number;
  limit: number;
};

/** Events matching every given filter, newest first. */
export function listEvents(client: Client, f: EventFilter): Promise<EventRow[]> {
  const where = [
    f.layer ? eq(events.layer, f.layer) : undefined,
    f.notLayer ? ne(events.layer, f.notLayer) : undefined,
    f.containing ? sql`instr(lower(${events.text}), lower(${f.containing})) > 0` : undefined,
    f.scope ? eq(events.scope, f.scope) : undefined,
    f.conversation ? eq(events.conversation, f.conversation) : undefined,
    f.since !== undefined ? gte(events.time, f.since) : undefined,
    f.until !== undefined ? lte(events.time, f.until) : undefined,
  ];
  return queryDb(client)
    .select(EVENT_ROW)
    .from(events)
    .where(and(...where))
    .orderBy(desc(events.time), desc(events.seq))
    .limit(f.limit);
}

/** Events, tokens and characters per layer (only the layers that hold any). */
export function layerTotals(client: Client): Promise<{ layer: "L1" | "L2" | "L3"; events: number; tokens: number; chars: number }[]> {
  return queryDb(client)
    .select({
      layer: events.layer,
      events: sql<number>`COUNT(*)`.mapWith(Number),
      tokens: sql<number>`COALESCE(SUM(${events.tokens}), 0)`.mapWith(Number),
      chars: sql<number>`COALESCE(SUM(length(${events.text})), 0)`.mapWith(Number),
    })
    .from(events)
    .groupBy(events.layer);
}

/** How many memories were written each day, by the layer each is in now (oldest day first). */
export function writtenPerDay(client: Client): Promise<{ layer: "L1" | "L2" | "L3"; day: string; n: number }[]> {
  const day = sql<string>`date(${events.createdAt} / 1000, 'unixepoch')`;
  return queryDb(client)
    .select({ layer: events.layer, day, n: sql<number>`COUNT(*)`.mapWith(Number) })
    .from(events)
    .groupBy(events.layer, day)
    .orderBy(day);
}

/**
 * The TF-IDF vectors (JSON) of a session's live events: what a new event's vector is weighted by.
 * `+layer`: by the layer index SQLite walked every live event of every session (20k live
 * events: 14 ms on each append, vs 0.02 ms through the session's own index).
 */
export async function liveTfidfJson(client: Executor, sessionId: string): Promise<string[]> {
  const rows = await queryDb(client)
    .select({ tfidf: events.tfidf })
    .from(events)
    .where(and(eq(events.sessionId, sessionId), sql`+${events.layer} = 'L1'`, isNotNull(events.tfidf)));
  return rows.map((r) => r.tfidf!);
}

/** The seq the session's next event takes (0 for its first). */
export async function nextSeq(client: Executor, sessionId: string): Promise<number> {
  const [row] = await queryDb(client)
    .select({ seq: sql<number>`COALESCE(MAX(${events.seq}), -1) + 1` })
    .from(events)
    .where(eq(events.sessionId, sessionId));
  return Number(row!.seq);
}

/** The text of the session's event at `seq`, if there is one. */
export async function eventTextAt(client: Executor, sessionId: string, seq: number): Promise<string | undefined> {
  const [row] = await queryDb(client)
    .select({ text: events.text })
    .from(events)
    .where(and(eq(events.sessionId, sessionId), eq(events.seq, seq)));
  return row?.text;
}

export type NewEventRow = typeof events.$inferInsert;

/** Inserts an event; its rowid (the search index's document number). */
export async function insertEvent(client: Executor, row: NewEventRow): Promise<number> {
  const result = await queryDb(client).insert(events).values(row);
  return Number(result.lastInsertRowid);
}

/**
 * Runs an event's insert and its blocks' as built elsewhere (memory/cold-event.ts, shared with the
 * import's staging), in the caller's transaction; the event's rowid.
 */
export async function insertEventStatements(tx: Executor, event: InStatement, blockRows: readonly InStatement[]): Promise<number> {
  const rowid = Number((await tx.execute(event)).lastInsertRowid);
  for (const statement of blockRows) await tx.execute(statement);
  return rowid;
}

/** A session's live event with what pruning and rendering need. */
export type LiveEventRow = {
  id: string;
  seq: number;
  time: number;
  tokens: number;
  messages: string;
  embedModel: string | null;
  embedding: Float32Array | null;
  tfidf: string | null;
  stopped: boolean | null;
};

/** A session's live (L1) events, in the session's order. */
export function liveEvents(client: Executor, sessionId: string): Promise<LiveEventRow[]> {
  return queryDb(client)
    .select({
      id: events.id,
      seq: events.seq,
      time: events.time,
      tokens: events.tokens,
      messages: events.messages,
      embedModel: events.embedModel,
      embedding: events.embedding,
      tfidf: events.tfidf,
      stopped: events.stopped,
    })
    .from(events)
    .where(and(eq(events.sessionId, sessionId), eq(events.layer, "L1")))
    .orderBy(asc(events.seq));
}

/** SQLite's bound-parameter limit is far above this; chunks keep each statement small. */
const SINK_CHUNK = 500;

/**
 * Moves L1 events and their blocks to L2, inside the caller's transaction: resolves with how many
 * of `ids` were L1 events (the caller rolls back when that is not all of them).
 */
export async function sinkEvents(tx: Executor, ids: readonly string[], now: number): Promise<number> {
  const db = queryDb(tx);
  let moved = 0;
  for (let i = 0; i < ids.length; i += SINK_CHUNK) {
    const chunk = ids.slice(i, i + SINK_CHUNK);
    // `+layer`/`+holder`: by ids, not through the layer/holder index, which walks every live
    // event (and block) of every session.
    const done = await db
      .update(events)
      .set({ layer: "L2", sunkAt: now })
      .where(and(sql`+${events.layer} = 'L1'`, inArray(events.id, chunk)));
    moved += done.rowsAffected;
    await db
      .update(blocks)
      .set({ holder: "L2" })
      .where(and(sql`+${blocks.holder} = 'L1'`, inArray(blocks.eventId, chunk)));
  }
  return moved;
}

/** A cold event as cooling reads it. */
export type ColdEventRecord = { id: string; sessionId: string; seq: number; conversation: string; privateTo: string | null; speaker: string | null; text: string; time: number };

/** L2 events accessed at most `maxAccesses` times and idle since `idleBefore`, oldest first. */
export function coolingCandidateRows(client: Executor, f: { maxAccesses: number; idleBefore: number; limit: number }): Promise<ColdEventRecord[]> {
  return queryDb(client)
    .select({
      id: events.id,
      sessionId: events.sessionId,
      seq: events.seq,
      conversation: events.conversation,
      privateTo: events.privateTo,
      speaker: events.speaker,
      text: events.text,
      time: events.time,
    })
    .from(events)
    .where(and(eq(events.layer, "L2"), lte(events.accessCount, f.maxAccesses), sql`COALESCE(${events.lastAccess}, ${events.createdAt}) <= ${f.idleBefore}`))
    .orderBy(asc(events.time), asc(events.seq))
    .limit(f.limit);
}

/**
 * Moves one L2 event and its blocks to L3, inside the caller's transaction, unless it has left L2
 * or been accessed more than `maxAccesses` times since it was picked: false then, and nothing moved.
 */
export async function moveEventToL3(tx: Executor, id: string, maxAccesses: number): Promise<boolean> {
  const db = queryDb(tx);
  const moved = await db
    .update(events)
    .set({ layer: "L3" })
    .where(and(eq(events.id, id), eq(events.layer, "L2"), lte(events.accessCount, maxAccesses)));
  if (moved.rowsAffected !== 1) return false;
  await db
    .update(blocks)
    .set({ holder: "L3" })
    .where(and(eq(blocks.eventId, id), heldInL2()));
  return true;
}

/**
 * Records of any layer by id — a fact (`triples`, with its node blocks and revisions) or an event —
 * for memory/records.ts: resolving an id or its shown suffix, reading one whole, deleting one.
 */
import { desc, eq, getTableColumns, inArray, sql } from "drizzle-orm";
import { alias } from "drizzle-orm/sqlite-core";
import { queryDb, type Executor } from "./query-db.ts";
import { blockData, blocks, events, tripleRevisions, triples } from "./schema.ts";
import { visibleTo } from "./cold-scope.ts";

export type RecordKind = "fact" | "event";

/*
 * The two lookups below are typed sql templates, not the query builder: building a UNION ALL with
 * the builder cost ~150 µs a call against ~40 µs for the whole raw query (measured, 5000 calls).
 */

/**
 * Who may see a record, as its own WHERE condition (cold-scope.ts `visibleTo`): undefined for no
 * test (the owner's tools), else the private scopes the caller may see besides the user's.
 */
const visible = (privateScopes: readonly string[] | undefined) => (privateScopes === undefined ? sql`` : sql` AND ${visibleTo(sql`private_to`, privateScopes)}`);

/** The records whose id is `id` (at most one of each kind, in practice one) that the caller may see. */
export function recordsWithId(client: Executor, id: string, privateScopes?: readonly string[]): Promise<{ kind: RecordKind; id: string }[]> {
  const seen = visible(privateScopes);
  return queryDb(client).all(sql`SELECT 'fact' AS kind, id FROM triples WHERE id = ${id}${seen} UNION ALL SELECT 'event', id FROM events WHERE id = ${id}${seen}`);
}

/**
 * Up to `limit` records the caller may see whose id, without its '-' and '_' (as injected lines
 * shorten ids), ends in `suffix`. Visibility is in the query, not a pass afterwards: records the
 * caller may not see neither fill the limit nor make a suffix ambiguous.
 */
export function recordsEndingIn(client: Executor, suffix: string, limit: number, privateScopes?: readonly string[]): Promise<{ kind: RecordKind; id: string }[]> {
  const seen = visible(privateScopes);
  return queryDb(client).all(sql`SELECT 'fact' AS kind, id FROM triples WHERE replace(replace(id, '-', ''), '_', '') LIKE '%' || ${suffix}${seen}
    UNION ALL SELECT 'event', id FROM events WHERE replace(replace(id, '-', ''), '_', '') LIKE '%' || ${suffix}${seen} LIMIT ${limit}`);
}

export type EventRecordRow = {
  layer: string;
  sessionId: string;
  conversation: string;
  speaker: string | null;
  time: number;
  text: string;
  messages: string;
  sourceId: string | null;
  accessCount: number;
};

export async function eventRecordRow(client: Executor, id: string): Promise<EventRecordRow | undefined> {
  const [row] = await queryDb(client)
    .select({
      layer: events.layer,
      sessionId: events.sessionId,
      conversation: events.conversation,
      speaker: events.speaker,
      time: events.time,
      text: events.text,
      messages: events.messages,
      sourceId: events.sourceId,
      accessCount: events.accessCount,
    })
    .from(events)
    .where(eq(events.id, id));
  return row;
}

/** The text of an event, if the event is there. */
export async function eventTextById(client: Executor, id: string): Promise<string | undefined> {
  const [row] = await queryDb(client).select({ text: events.text }).from(events).where(eq(events.id, id));
  return row?.text;
}

/** A fact's row with the texts of its subject and object (a node block's content, as text). */
export type FactRecordRow = Omit<typeof triples.$inferSelect, "embedding"> & { subjectText: string; objectText: string };

export async function factRecordRow(client: Executor, id: string): Promise<FactRecordRow | undefined> {
  const subject = alias(blocks, "s");
  const object = alias(blocks, "o");
  // Not the vector: 2 KB a fact that no reader of a record shows.
  const { embedding: _vector, ...columns } = getTableColumns(triples);
  const [row] = await queryDb(client)
    .select({ ...columns, subjectText: subject.content, objectText: object.content })
    .from(triples)
    .innerJoin(subject, eq(subject.id, triples.subjectBlockId))
    .innerJoin(object, eq(object.id, triples.objectBlockId))
    .where(eq(triples.id, id));
  return row && { ...row, subjectText: String(row.subjectText), objectText: String(row.objectText) };
}

/** A fact's old snapshots, newest revision first. */
export function factRevisions(client: Executor, tripleId: string): Promise<{ revision: number; snapshot: string; createdAt: number }[]> {
  return queryDb(client)
    .select({ revision: tripleRevisions.revision, snapshot: tripleRevisions.snapshot, createdAt: tripleRevisions.createdAt })
    .from(tripleRevisions)
    .where(eq(tripleRevisions.tripleId, tripleId))
    .orderBy(desc(tripleRevisions.revision));
}

/** Deletes a fact and its history (its search rows are the caller's, first). */
export async function deleteFactRows(tx: Executor, id: string): Promise<void> {
  const db = queryDb(tx);
  await db.delete(tripleRevisions).where(eq(tripleRevisions.tripleId, id));
  await db.delete(triples).where(eq(triples.id, id));
}

/** Deletes an event with its blocks and their payloads (its search rows are the caller's, first). */
export async function deleteEventRows(tx: Executor, id: string): Promise<void> {
  const db = queryDb(tx);
  await db.delete(blockData).where(inArray(blockData.blockId, db.select({ id: blocks.id }).from(blocks).where(eq(blocks.eventId, id))));
  await db.delete(blocks).where(eq(blocks.eventId, id));
  await db.delete(events).where(eq(events.id, id));
}

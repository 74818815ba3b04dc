/**
 * The backfill's queries (src/embed/backfill.ts): the events and blocks whose vector another
 * embedder made (or none did), a page at a time in rowid order, and their new vectors.
 */
import { and, asc, count, eq, gt, inArray, isNull, ne, or, sql, type SQL } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import type { SQLiteColumn } from "drizzle-orm/sqlite-core";
import { queryDb, type Executor } from "./query-db.ts";
import { blockData, blocks, events } from "./schema.ts";

export type EmbeddedTable = "events" | "blocks";

/** A record to embed again: its text, or for an image block its payload (if stored apart). */
export type StaleRecord = { rowid: number; id: string; text: string | null; kind: string; bytes: Uint8Array | null };

const stale = (column: SQLiteColumn, model: string): SQL => or(isNull(column), ne(column, model))!;
const EMBEDDED_KINDS = ["text", "image"] as const;

/** How many records of the table `model` has not embedded. */
export async function countStaleRecords(client: Executor, table: EmbeddedTable, model: string): Promise<number> {
  const db = queryDb(client);
  const [row] =
    table === "events"
      ? await db.select({ n: count() }).from(events).where(stale(events.embedModel, model))
      : await db
          .select({ n: count() })
          .from(blocks)
          .where(and(stale(blocks.embedModel, model), inArray(blocks.kind, [...EMBEDDED_KINDS])));
  return row?.n ?? 0;
}

/** The next `limit` stale records after rowid `after`, in rowid order. */
export function staleRecords(client: Executor, table: EmbeddedTable, model: string, after: number, limit: number): Promise<StaleRecord[]> {
  const db = queryDb(client);
  if (table === "events") {
    const rowid = sql<number>`${events}.rowid`;
    return db
      .select({ rowid, id: events.id, text: events.text, kind: sql<string>`'text'`, bytes: sql<Uint8Array | null>`NULL` })
      .from(events)
      .where(and(stale(events.embedModel, model), gt(rowid, after)))
      .orderBy(asc(rowid))
      .limit(limit);
  }
  const rowid = sql<number>`${blocks}.rowid`;
  return db
    .select({ rowid, id: blocks.id, text: blocks.content, kind: blocks.kind, bytes: blockData.bytes })
    .from(blocks)
    .leftJoin(blockData, eq(blockData.blockId, blocks.id))
    .where(and(stale(blocks.embedModel, model), inArray(blocks.kind, [...EMBEDDED_KINDS]), gt(rowid, after)))
    .orderBy(asc(rowid))
    .limit(limit);
}

/**
 * Stores new vectors in one write. A record another writer has meanwhile embedded with `model`
 * is left as it is (the stale check is in the UPDATE).
 */
export async function saveVectors(client: Executor, table: EmbeddedTable, model: string, vectors: readonly { id: string; vector: Float32Array }[]): Promise<void> {
  if (vectors.length === 0) return;
  const db = queryDb(client);
  const target = table === "events" ? events : blocks;
  const updates = vectors.map(({ id, vector }) =>
    db
      .update(target)
      .set({ embedding: vector, embedModel: model })
      .where(and(eq(target.id, id), stale(target.embedModel, model))),
  );
  await db.batch(updates as unknown as [BatchItem<"sqlite">, ...BatchItem<"sqlite">[]]);
}

/**
 * The backfill's queries (src/embed/backfill.ts): the events and blocks whose vector another
 * embedder made (or none did), a page at a time in rowid order, and their new vectors.
 */
import { and, asc, count, eq, gt, isNull, ne, or, sql, type SQL } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import type { SQLiteColumn } from "drizzle-orm/sqlite-core";
import { queryDb, type Executor } from "./query-db.ts";
import { blockData, blocks, events } from "./schema.ts";

export type EmbeddedTable = "events" | "blocks";

/** A record to embed again: its text, or for an image block its payload (if stored apart). */
export type StaleRecord = { rowid: number; id: string; text: string | null; kind: string; bytes: Uint8Array | null };

const stale = (column: SQLiteColumn, model: string): SQL => or(isNull(column), ne(column, model))!;

/**
 * The models whose vectors a record should carry: events and text blocks the text model's,
 * image blocks the image model's — the same model for Chinese-CLIP alone, CLIP beside a
 * text-only model, or none (then image blocks are not stale: nothing here could embed them).
 */
export type EmbedSpaces = { text: string; image?: string };

const staleBlocks = (spaces: EmbedSpaces): SQL =>
  or(and(eq(blocks.kind, "text"), stale(blocks.embedModel, spaces.text)), spaces.image === undefined ? undefined : and(eq(blocks.kind, "image"), stale(blocks.embedModel, spaces.image)))!;

/** How many records of the table are not embedded by their space's model. */
export async function countStaleRecords(client: Executor, table: EmbeddedTable, spaces: EmbedSpaces): Promise<number> {
  const db = queryDb(client);
  const [row] =
    table === "events" ? await db.select({ n: count() }).from(events).where(stale(events.embedModel, spaces.text)) : await db.select({ n: count() }).from(blocks).where(staleBlocks(spaces));
  return row?.n ?? 0;
}

/** The next `limit` stale records after rowid `after`, in rowid order. */
export function staleRecords(client: Executor, table: EmbeddedTable, spaces: EmbedSpaces, after: number, limit: number): Promise<StaleRecord[]> {
  const db = queryDb(client);
  if (table === "events") {
    const rowid = sql<number>`${events}.rowid`;
    return db
      .select({ rowid, id: events.id, text: events.text, kind: sql<string>`'text'`, bytes: sql<Uint8Array | null>`NULL` })
      .from(events)
      .where(and(stale(events.embedModel, spaces.text), gt(rowid, after)))
      .orderBy(asc(rowid))
      .limit(limit);
  }
  const rowid = sql<number>`${blocks}.rowid`;
  return db
    .select({ rowid, id: blocks.id, text: blocks.content, kind: blocks.kind, bytes: blockData.bytes })
    .from(blocks)
    .leftJoin(blockData, eq(blockData.blockId, blocks.id))
    .where(and(staleBlocks(spaces), gt(rowid, after)))
    .orderBy(asc(rowid))
    .limit(limit);
}

/**
 * Stores new vectors in one write, each tagged with the model that made it. A record another
 * writer has meanwhile embedded with that model is left as it is (the stale check is in the UPDATE).
 */
export async function saveVectors(client: Executor, table: EmbeddedTable, vectors: readonly { id: string; vector: Float32Array; model: string }[]): Promise<void> {
  if (vectors.length === 0) return;
  const db = queryDb(client);
  const target = table === "events" ? events : blocks;
  const updates = vectors.map(({ id, vector, model }) =>
    db
      .update(target)
      .set({ embedding: vector, embedModel: model })
      .where(and(eq(target.id, id), stale(target.embedModel, model))),
  );
  await db.batch(updates as unknown as [BatchItem<"sqlite">, ...BatchItem<"sqlite">[]]);
}

/** How many image blocks carry the image model's vectors, of how many image blocks (its coverage). */
export async function imageCoverage(client: Executor, model: string): Promise<{ embedded: number; images: number }> {
  const db = queryDb(client);
  const [row] = await db
    .select({ embedded: sql<number>`count(*) FILTER (WHERE ${blocks.embedModel} = ${model})`, images: count() })
    .from(blocks)
    // A literal, not a bound value: the partial index blocks_image_model (kind = 'image') answers.
    .where(sql`${blocks.kind} = 'image'`);
  return { embedded: Number(row?.embedded ?? 0), images: row?.images ?? 0 };
}

/** The `blocks` table: units of content with a stable id, held by exactly one layer. */
import { and, eq, isNull, sql, type SQL } from "drizzle-orm";
import { queryDb, type Executor } from "./query-db.ts";
import { blocks } from "./schema.ts";

export type NewBlockRow = typeof blocks.$inferInsert;

export async function insertBlock(client: Executor, row: NewBlockRow): Promise<void> {
  await queryDb(client).insert(blocks).values(row);
}

/** The L3 node block (a fact's subject or object) whose normalised text has this sha256, if any. */
export async function nodeBlockId(tx: Executor, sha256: string): Promise<string | undefined> {
  const [row] = await queryDb(tx)
    .select({ id: blocks.id })
    .from(blocks)
    .where(and(eq(blocks.holder, "L3"), isNull(blocks.eventId), eq(blocks.kind, "text"), eq(blocks.sha256, sha256)))
    .limit(1);
  return row?.id;
}

/**
 * A block still held by L2, as a condition that never drives the query: by the holder index
 * SQLite read every block of L2 to find an event's few (at 100k messages an update
 * took 13.2 ms, its commit included, against 3.6 ms, and grew with the store); by the event index it
 * reads only those.
 */
export const heldInL2 = (): SQL => sql`+${blocks.holder} = 'L2'`;

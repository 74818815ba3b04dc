/** The `blocks` table: units of content with a stable id, held by exactly one layer. */
import { queryDb, type Executor } from "./query-db.ts";
import { blocks } from "./schema.ts";

export type NewBlockRow = typeof blocks.$inferInsert;

export async function insertBlock(client: Executor, row: NewBlockRow): Promise<void> {
  await queryDb(client).insert(blocks).values(row);
}

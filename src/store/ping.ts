/** Whether the database answers a query (a health check: the process being up is not enough). */
import { sql } from "drizzle-orm";
import { queryDb, type Executor } from "./query-db.ts";

export async function pingDatabase(client: Executor): Promise<void> {
  await queryDb(client).run(sql`SELECT 1`);
}

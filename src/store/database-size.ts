/** The database's size on disk, in bytes: pages times page size, as SQLite counts them. */
import type { Client } from "@libsql/client";
import { sql } from "drizzle-orm";
import { queryDb } from "./query-db.ts";

export async function databaseBytes(client: Client): Promise<number> {
  const row = await queryDb(client).get<{ bytes: number }>(sql`SELECT (SELECT page_count FROM pragma_page_count()) * (SELECT page_size FROM pragma_page_size()) AS bytes`);
  return Number(row.bytes);
}

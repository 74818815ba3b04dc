/**
 * The drizzle query builder over a libSQL client, one per client. The table modules take the
 * client their callers already hold (a route, the kernel) and build typed queries with it; the
 * SQL goes through the same client, so through the one write path (serial-writes.ts).
 */
import type { Client } from "@libsql/client";
import { drizzle, type LibSQLDatabase } from "drizzle-orm/libsql";

const built = new WeakMap<Client, LibSQLDatabase>();

export function queryDb(client: Client): LibSQLDatabase {
  let db = built.get(client);
  if (!db) built.set(client, (db = drizzle(client)));
  return db;
}

/**
 * The drizzle query builder over a libSQL client or an open transaction, one per client. The
 * table modules take the client their callers already hold (a route, the kernel) and build typed
 * queries with it; the SQL goes through the same client, so through the one write path
 * (serial-writes.ts). Inside a write transaction, pass the transaction: a write through the client
 * would wait for the transaction that waits for it.
 */
import type { Client, Transaction } from "@libsql/client";
import { drizzle, type LibSQLDatabase } from "drizzle-orm/libsql";

/** Where a query runs: the client, or a transaction open on it. */
export type Executor = Client | Transaction;

const built = new WeakMap<Executor, LibSQLDatabase>();

export function queryDb(client: Executor): LibSQLDatabase {
  let db = built.get(client);
  // drizzle runs a query with `execute` alone, which a transaction has as the client does.
  if (!db) built.set(client, (db = drizzle(client as Client)));
  return db;
}

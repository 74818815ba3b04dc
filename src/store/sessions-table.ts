/** Queries on `sessions` that the routes need (the kernel's Sessions keeps its own for now). */
import type { Client } from "@libsql/client";
import { eq } from "drizzle-orm";
import { queryDb } from "./query-db.ts";
import { sessions } from "./schema.ts";

export async function sessionExists(client: Client, id: string): Promise<boolean> {
  const found = await queryDb(client).select({ id: sessions.id }).from(sessions).where(eq(sessions.id, id)).limit(1);
  return found.length > 0;
}

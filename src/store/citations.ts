/**
 * A memory the model cited gains weight: a fact's cited count, an event's access count (which
 * also keeps it from cooling while in use). Both are lookups by primary key.
 */
import { eq, sql } from "drizzle-orm";
import { queryDb, type Executor } from "./query-db.ts";
import { events, triples } from "./schema.ts";

export async function countCitation(client: Executor, layer: "L2" | "L3", id: string, now: number): Promise<void> {
  const db = queryDb(client);
  if (layer === "L3") {
    await db
      .update(triples)
      .set({ citedCount: sql`${triples.citedCount} + 1`, lastAccess: now })
      .where(eq(triples.id, id));
  } else {
    await db
      .update(events)
      .set({ accessCount: sql`${events.accessCount} + 1`, lastAccess: now })
      .where(eq(events.id, id));
  }
}

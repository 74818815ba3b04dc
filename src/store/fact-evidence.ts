/**
 * Evidence marks that change after a fact is written. A fact whose source event is deleted keeps
 * its pointer (session, turn, event id, excerpt and hash) but can no longer be checked against its
 * source: "pointer only", not "verbatim source" (DESIGN §3 evidence marks).
 */
import { and, eq } from "drizzle-orm";
import { queryDb, type Executor } from "./query-db.ts";
import { triples } from "./schema.ts";

/** Marks the verbatim facts of a deleted event "pointer"; returns how many. */
export async function markSourceGone(tx: Executor, eventId: string): Promise<number> {
  const changed = await queryDb(tx)
    .update(triples)
    .set({ evidence: "pointer" })
    .where(and(eq(triples.sourceEventId, eventId), eq(triples.evidence, "verbatim")))
    .returning({ id: triples.id });
  return changed.length;
}

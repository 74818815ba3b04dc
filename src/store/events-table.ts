/**
 * Queries on `events` for the console and the kernel, with typed rows. Recall's own queries
 * (full-text, vectors) live with recall in src/memory; these are the plain ones.
 */
import type { Client } from "@libsql/client";
import { and, asc, eq, isNull } from "drizzle-orm";
import { queryDb } from "./query-db.ts";
import { events } from "./schema.ts";

/** What the context inspector shows of each event of a session, in the session's order. */
export type TimelineRow = {
  id: string;
  layer: "L1" | "L2" | "L3";
  time: number;
  role: string | null;
  text: string;
  tokens: number;
  lastAccess: number | null;
  sunkAt: number | null;
};

export function sessionTimeline(client: Client, sessionId: string): Promise<TimelineRow[]> {
  return queryDb(client)
    .select({ id: events.id, layer: events.layer, time: events.time, role: events.role, text: events.text, tokens: events.tokens, lastAccess: events.lastAccess, sunkAt: events.sunkAt })
    .from(events)
    .where(eq(events.sessionId, sessionId))
    .orderBy(asc(events.seq));
}

/** Files the session's live events that have no scene yet under `sceneId`. */
export async function fileLiveEventsInScene(client: Client, sessionId: string, sceneId: string): Promise<void> {
  await queryDb(client)
    .update(events)
    .set({ sceneId })
    .where(and(eq(events.sessionId, sessionId), eq(events.layer, "L1"), isNull(events.sceneId)));
}

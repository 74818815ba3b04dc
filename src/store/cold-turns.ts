/**
 * The turn a cold event belongs to, for moving it back into L1 whole. A chat's turn is the user's
 * message and everything after it up to the next user message (tool rounds, the answer), stored
 * as consecutive events of the session; moving one event of it alone would bring back an answer
 * without its question, or a question without its answer.
 */
import type { Client } from "@libsql/client";
import { and, asc, eq, gt, gte, lt, lte, sql } from "drizzle-orm";
import { queryDb } from "./query-db.ts";
import { events } from "./schema.ts";

export type ColdTurnEvent = { id: string; seq: number; tokens: number };

/**
 * The L2 events of the turn holding `eventId` in `sessionId`, in session order; empty when
 * `eventId` is not a cold (L2) event of that session. Parts of the turn already in L1 (or
 * distilled to L3) are not in the list. Each step is a lookup on the session's (session, seq) index.
 */
export async function coldTurnOf(client: Client, sessionId: string, eventId: string): Promise<ColdTurnEvent[]> {
  const db = queryDb(client);
  const inSession = eq(events.sessionId, sessionId);
  const [target] = await db
    .select({ seq: events.seq })
    .from(events)
    .where(and(eq(events.id, eventId), inSession, eq(events.layer, "L2")));
  if (!target) return [];
  const isUser = eq(events.role, "user");
  const [start] = await db
    .select({ seq: sql<number | null>`MAX(${events.seq})` })
    .from(events)
    .where(and(inSession, isUser, lte(events.seq, target.seq)));
  const [end] = await db
    .select({ seq: sql<number | null>`MIN(${events.seq})` })
    .from(events)
    .where(and(inSession, isUser, gt(events.seq, target.seq)));
  return db
    .select({ id: events.id, seq: events.seq, tokens: events.tokens })
    .from(events)
    .where(and(inSession, eq(events.layer, "L2"), gte(events.seq, start?.seq ?? target.seq), end?.seq == null ? undefined : lt(events.seq, end.seq)))
    .orderBy(asc(events.seq));
}

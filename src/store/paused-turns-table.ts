/** The `paused_turns` table: a turn waiting for its caller's tool results, one per session (the round as JSON). */
import { eq } from "drizzle-orm";
import { queryDb, type Executor } from "./query-db.ts";
import { pausedTurns } from "./schema.ts";

/** Keeps the session's paused round, replacing one it had. */
export async function putPausedTurn(client: Executor, sessionId: string, round: string, now = Date.now()): Promise<void> {
  await queryDb(client)
    .insert(pausedTurns)
    .values({ sessionId, round, createdAt: now })
    .onConflictDoUpdate({ target: pausedTurns.sessionId, set: { round, createdAt: now } });
}

/** The session's paused round as stored, or undefined. */
export async function pausedTurnOf(client: Executor, sessionId: string): Promise<string | undefined> {
  const [row] = await queryDb(client).select({ round: pausedTurns.round }).from(pausedTurns).where(eq(pausedTurns.sessionId, sessionId));
  return row?.round;
}

/** Whether the session has a paused round (a read, so a turn with none costs no write). */
export async function hasPausedTurn(client: Executor, sessionId: string): Promise<boolean> {
  const found = await queryDb(client).select({ sessionId: pausedTurns.sessionId }).from(pausedTurns).where(eq(pausedTurns.sessionId, sessionId)).limit(1);
  return found.length > 0;
}

export async function deletePausedTurn(client: Executor, sessionId: string): Promise<void> {
  await queryDb(client).delete(pausedTurns).where(eq(pausedTurns.sessionId, sessionId));
}

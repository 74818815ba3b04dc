/** The `sessions` table: the channel's own conversation with each partner (thread 0), and any started since (1, 2, …). */
import { randomUUID } from "node:crypto";
import { and, desc, eq, max, sql, type SQL } from "drizzle-orm";
import { queryDb, type Executor } from "./query-db.ts";
import { pausedTurns, sessions } from "./schema.ts";

export type SessionRow = typeof sessions.$inferSelect;

/** The ids of the sessions of these partners, as a subquery (memory/access.ts decides which). */
export function sessionIdsOf(partners: readonly string[]): SQL {
  return sql`SELECT id FROM sessions WHERE partner IN ${[...partners]}`;
}

export async function sessionExists(client: Executor, id: string): Promise<boolean> {
  const found = await queryDb(client).select({ id: sessions.id }).from(sessions).where(eq(sessions.id, id)).limit(1);
  return found.length > 0;
}

/** The channel's own session with this partner (thread 0), created if there is none. */
export async function openSession(client: Executor, channel: string, partner: string, title?: string, now = Date.now()): Promise<SessionRow> {
  const db = queryDb(client);
  await db
    .insert(sessions)
    .values({ id: randomUUID(), channel, partner, thread: 0, title: title ?? null, createdAt: now, updatedAt: now })
    .onConflictDoNothing({ target: [sessions.channel, sessions.partner, sessions.thread] });
  const [row] = await db
    .select()
    .from(sessions)
    .where(and(eq(sessions.channel, channel), eq(sessions.partner, partner), eq(sessions.thread, 0)));
  return row!;
}

/**
 * A new session with this partner on this channel, beside those it has (the next thread). Two
 * started at once would take the same number: the loser takes the next (the unique index decides).
 */
export async function startSession(client: Executor, channel: string, partner: string, title?: string, now = Date.now()): Promise<SessionRow> {
  for (;;) {
    const row = await insertNextThread(client, { channel, partner, title: title ?? null, createdAt: now, updatedAt: now });
    if (row) return row;
  }
}

/** Inserts the partner's next thread on the channel; undefined when a concurrent insert took its number (or its context key). */
async function insertNextThread(client: Executor, values: Omit<typeof sessions.$inferInsert, "id" | "thread">): Promise<SessionRow | undefined> {
  const db = queryDb(client);
  const [last] = await db
    .select({ thread: max(sessions.thread) })
    .from(sessions)
    .where(and(eq(sessions.channel, values.channel), eq(sessions.partner, values.partner)));
  const thread = last?.thread === null || last?.thread === undefined ? 0 : last.thread + 1;
  const [row] = await db
    .insert(sessions)
    .values({ ...values, id: randomUUID(), thread })
    .onConflictDoNothing()
    .returning();
  return row;
}

/**
 * The session the caller names by its own key on this channel (an A2A `contextId`), started as
 * the partner's next thread the first time. The key is looked up with the partner: the same key
 * sent by another partner is another conversation. Two first uses at once: the unique index
 * keeps one row, and the loser reads it back.
 */
export async function openContextSession(client: Executor, channel: string, partner: string, contextKey: string, now = Date.now()): Promise<SessionRow> {
  const db = queryDb(client);
  const find = async () =>
    (
      await db
        .select()
        .from(sessions)
        .where(and(eq(sessions.channel, channel), eq(sessions.partner, partner), eq(sessions.contextKey, contextKey)))
    )[0];
  for (;;) {
    const found = await find();
    if (found) return found;
    const row = await insertNextThread(client, { channel, partner, contextKey, createdAt: now, updatedAt: now });
    if (row) return row;
  }
}

export async function sessionById(client: Executor, id: string): Promise<SessionRow | undefined> {
  const [row] = await queryDb(client).select().from(sessions).where(eq(sessions.id, id));
  return row;
}

/** Every session, the most recently used first. */
export function listSessions(client: Executor): Promise<SessionRow[]> {
  return queryDb(client).select().from(sessions).orderBy(desc(sessions.updatedAt));
}

/** Names a session (null: no name, the console shows the partner). Whether there was such a session. */
export async function renameSession(client: Executor, id: string, title: string | null): Promise<boolean> {
  const renamed = await queryDb(client).update(sessions).set({ title }).where(eq(sessions.id, id)).returning({ id: sessions.id });
  return renamed.length > 0;
}

/** Removes a session's row (and its paused turn, which points at it); its events are the caller's to move or forget first. Whether there was one. */
export async function deleteSession(client: Executor, id: string): Promise<boolean> {
  const db = queryDb(client);
  await db.delete(pausedTurns).where(eq(pausedTurns.sessionId, id));
  const gone = await db.delete(sessions).where(eq(sessions.id, id)).returning({ id: sessions.id });
  return gone.length > 0;
}

export async function touchSession(client: Executor, id: string, now = Date.now()): Promise<void> {
  await queryDb(client).update(sessions).set({ updatedAt: now }).where(eq(sessions.id, id));
}

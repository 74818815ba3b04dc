/** The `console_sessions` table: console logins, by a keyed hash of the cookie's value. */
import { eq, lt } from "drizzle-orm";
import { queryDb, type Executor } from "./query-db.ts";
import { consoleSessions } from "./schema.ts";

/** Adds a login and, in the same write, drops the ones expired before `now`. */
export async function addConsoleLogin(client: Executor, tokenHash: string, now: number, expiresAt: number): Promise<void> {
  const db = queryDb(client);
  await db.batch([db.delete(consoleSessions).where(lt(consoleSessions.expiresAt, now)), db.insert(consoleSessions).values({ tokenHash, createdAt: now, expiresAt })]);
}

/** When a login expires, or undefined when there is none with that hash. */
export async function consoleLoginExpiry(client: Executor, tokenHash: string): Promise<number | undefined> {
  const [row] = await queryDb(client).select({ expiresAt: consoleSessions.expiresAt }).from(consoleSessions).where(eq(consoleSessions.tokenHash, tokenHash));
  return row?.expiresAt;
}

export async function renewConsoleLogin(client: Executor, tokenHash: string, expiresAt: number): Promise<void> {
  await queryDb(client).update(consoleSessions).set({ expiresAt }).where(eq(consoleSessions.tokenHash, tokenHash));
}

export async function deleteConsoleLogin(client: Executor, tokenHash: string): Promise<void> {
  await queryDb(client).delete(consoleSessions).where(eq(consoleSessions.tokenHash, tokenHash));
}

/** Deletes every login; resolves with how many there were. */
export async function deleteAllConsoleLogins(client: Executor): Promise<number> {
  return (await queryDb(client).delete(consoleSessions)).rowsAffected;
}

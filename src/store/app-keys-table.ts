/** The `app_keys` table: per-app API keys, by the SHA-256 of the key. */
import { asc, eq } from "drizzle-orm";
import { queryDb, type Executor } from "./query-db.ts";
import { appKeys } from "./schema.ts";

/** A key's row without its hash (what every listing may show). */
export type AppKeyRow = { name: string; partner: string | null; scopes: string; createdAt: number; lastUsedAt: number | null };

const LISTED = { name: appKeys.name, partner: appKeys.partner, scopes: appKeys.scopes, createdAt: appKeys.createdAt, lastUsedAt: appKeys.lastUsedAt };

/** Adds a key; false when a key of that name exists (nothing is changed then). */
export async function insertAppKey(client: Executor, row: Omit<AppKeyRow, "lastUsedAt"> & { keyHash: string }): Promise<boolean> {
  const done = await queryDb(client).insert(appKeys).values(row).onConflictDoNothing({ target: appKeys.name });
  return done.rowsAffected > 0;
}

export function listAppKeys(client: Executor): Promise<AppKeyRow[]> {
  return queryDb(client).select(LISTED).from(appKeys).orderBy(asc(appKeys.name));
}

/** Deletes the key of that name; false when there is none. */
export async function deleteAppKey(client: Executor, name: string): Promise<boolean> {
  return (await queryDb(client).delete(appKeys).where(eq(appKeys.name, name))).rowsAffected > 0;
}

/** Notes when the key was last used. */
export async function markAppKeyUsed(client: Executor, keyHash: string, now: number): Promise<void> {
  await queryDb(client).update(appKeys).set({ lastUsedAt: now }).where(eq(appKeys.keyHash, keyHash));
}

export async function appKeyByHash(client: Executor, keyHash: string): Promise<AppKeyRow | undefined> {
  const [row] = await queryDb(client).select(LISTED).from(appKeys).where(eq(appKeys.keyHash, keyHash));
  return row;
}

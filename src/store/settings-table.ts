/** The `settings` table: non-secret settings, one JSON value per key. */
import { eq } from "drizzle-orm";
import { queryDb, type Executor } from "./query-db.ts";
import { settings } from "./schema.ts";

/** The parsed value of a setting, or undefined when it is not set. */
export async function readSetting(client: Executor, key: string): Promise<unknown> {
  const [row] = await queryDb(client).select({ value: settings.value }).from(settings).where(eq(settings.key, key));
  return row ? JSON.parse(row.value) : undefined;
}

export async function writeSetting(client: Executor, key: string, value: unknown, now = Date.now()): Promise<void> {
  const json = JSON.stringify(value);
  await queryDb(client)
    .insert(settings)
    .values({ key, value: json, updatedAt: now })
    .onConflictDoUpdate({ target: settings.key, set: { value: json, updatedAt: now } });
}

export async function deleteSetting(client: Executor, key: string): Promise<void> {
  await queryDb(client).delete(settings).where(eq(settings.key, key));
}

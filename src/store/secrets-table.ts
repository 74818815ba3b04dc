/** The `secrets` table: values sealed by secret-box.ts, written through the API and never returned by it. */
import { eq } from "drizzle-orm";
import { queryDb, type Executor } from "./query-db.ts";
import { secrets } from "./schema.ts";

/** The stored (sealed) value of a secret, or undefined. */
export async function sealedSecret(client: Executor, name: string): Promise<string | undefined> {
  const [row] = await queryDb(client).select({ value: secrets.value }).from(secrets).where(eq(secrets.name, name));
  return row?.value;
}

export async function hasSecret(client: Executor, name: string): Promise<boolean> {
  const found = await queryDb(client).select({ name: secrets.name }).from(secrets).where(eq(secrets.name, name)).limit(1);
  return found.length > 0;
}

/** Stores a secret's value, already sealed by the caller. */
export async function putSecret(client: Executor, name: string, sealed: string, now = Date.now()): Promise<void> {
  await queryDb(client)
    .insert(secrets)
    .values({ name, value: sealed, updatedAt: now })
    .onConflictDoUpdate({ target: secrets.name, set: { value: sealed, updatedAt: now } });
}

export async function deleteSecret(client: Executor, name: string): Promise<void> {
  await queryDb(client).delete(secrets).where(eq(secrets.name, name));
}

/**
 * Opens the store: an embedded libSQL file (default, WAL) or a libSQL server (`libsql://`,
 * `http(s)://`, for sqld / Turso) through the same client and schema.
 */
import { createClient, type Client } from "@libsql/client";
import { drizzle, type LibSQLDatabase } from "drizzle-orm/libsql";
import * as schema from "./schema.ts";
import { migrate } from "./migrate.ts";
import { BUSY_TIMEOUT_MS, DEFAULT_MAX_WAIT_MS, serialWrites, type WriteWaitOptions } from "./serial-writes.ts";
import { databasePath, openWriteLock } from "./write-lock.ts";
import { explainServerError } from "./server-errors.ts";

export type Db = LibSQLDatabase<typeof schema>;

export interface Store {
  readonly url: string;
  readonly embedded: boolean;
  readonly client: Client;
  readonly db: Db;
  close(): void;
}

export type StoreOptions = {
  url: string;
  /** Auth token for a remote libSQL server. */
  authToken?: string;
  /** Apply pending migrations (default true). Doctor opens without migrating. */
  migrate?: boolean;
  /** SQLite's wait for a process that is not homed (default BUSY_TIMEOUT_MS; tests shorten it). */
  busyTimeoutMs?: number;
} & WriteWaitOptions;

export const isEmbeddedUrl = (url: string) => url.startsWith("file:") || url === ":memory:";

export async function openStore(options: StoreOptions): Promise<Store> {
  const embedded = isEmbeddedUrl(options.url);
  // `timeout`: the busy timeout of every pooled connection (a PRAGMA would reach one of them).
  const raw = createClient({ url: options.url, authToken: options.authToken, timeout: options.busyTimeoutMs ?? BUSY_TIMEOUT_MS });
  // Every write, migrations included, takes the one write path (see serial-writes.ts).
  const file = databasePath(options.url);
  let lock;
  try {
    lock = file ? openWriteLock(file, options.maxWaitMs ?? DEFAULT_MAX_WAIT_MS) : undefined;
  } catch (error) {
    raw.close();
    throw error;
  }
  const client = serialWrites(raw, { ...options, lock });
  try {
    if (embedded) {
      // WAL: readers never block the writer, and a killed process leaves a consistent file.
      await client.execute("PRAGMA journal_mode = WAL");
    }
    await client.execute("PRAGMA foreign_keys = ON");
    if (options.migrate !== false) await migrate(client);
  } catch (error) {
    client.close();
    throw embedded ? error : explainServerError(options.url, error, Boolean(options.authToken) || /authToken=/i.test(options.url));
  }
  return {
    url: options.url,
    embedded,
    client,
    db: drizzle(client, { schema }),
    close: () => client.close(),
  };
}

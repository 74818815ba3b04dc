/**
 * Opens the store: an embedded libSQL file (default, WAL) or a libSQL server (`libsql://`,
 * `http(s)://`, for sqld / Turso) through the same client and schema.
 */
import { createClient, type Client } from "@libsql/client";
import { drizzle, type LibSQLDatabase } from "drizzle-orm/libsql";
import * as schema from "./schema.ts";
import { migrate } from "./migrate.ts";
import { BUSY_TIMEOUT_MS, DEFAULT_MAX_WAIT_MS, serialWrites, type WriteWaitOptions } from "./serial-writes.ts";
import { databasePath, openWriteLock, type WriteLock } from "./write-lock.ts";
import { explainServerError } from "./server-errors.ts";
import { backfillSearchIndex, moveTermListsOutOfRows } from "../search/index.ts";

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
  /**
   * An embedded replica: `url` is a local file kept in sync with this libSQL server. Reads are
   * local; writes go to the server and come back to the file.
   */
  syncUrl?: string;
  /** Apply pending migrations (default true). Doctor opens without migrating. */
  migrate?: boolean;
  /** Told what a long one-time upgrade step is doing (the search index moving out of FTS5). */
  notice?: (line: string) => void;
  /** SQLite's wait for a process that is not homed (default BUSY_TIMEOUT_MS; tests shorten it). */
  busyTimeoutMs?: number;
} & WriteWaitOptions;

/**
 * How often an embedded replica pulls what other daemons wrote (its own writes it reads at once).
 * Pulled here rather than by the client's `syncInterval`, whose thread outlives `close()` (it
 * kept polling a stopped server, measured with @libsql/client 0.18).
 */
export const SYNC_INTERVAL_MS = 1000;

function keepSynced(client: Client): () => void {
  let pulling = false;
  const timer = setInterval(() => {
    if (pulling) return;
    pulling = true;
    // A failed pull (server away) is retried next time; reads stay local meanwhile.
    void client
      .sync()
      .catch(() => {})
      .finally(() => (pulling = false));
  }, SYNC_INTERVAL_MS);
  timer.unref?.();
  return () => clearInterval(timer);
}

export const isEmbeddedUrl = (url: string) => url.startsWith("file:") || url === ":memory:";

export async function openStore(options: StoreOptions): Promise<Store> {
  const embedded = isEmbeddedUrl(options.url);
  // `timeout`: the busy timeout of every pooled connection (a PRAGMA would reach one of them).
  const raw = createClient({
    url: options.url,
    authToken: options.authToken,
    syncUrl: options.syncUrl,
    timeout: options.busyTimeoutMs ?? BUSY_TIMEOUT_MS,
  });
  // Every write, migrations included, takes the one write path (see serial-writes.ts).
  const file = databasePath(options.url);
  let lock: WriteLock | undefined;
  try {
    lock = file ? openWriteLock(file, options.maxWaitMs ?? DEFAULT_MAX_WAIT_MS) : undefined;
  } catch (error) {
    raw.close();
    throw error;
  }
  const client = serialWrites(raw, { ...options, lock });
  let stopSync: (() => void) | undefined;
  try {
    if (options.syncUrl) await raw.sync();
    stopSync = options.syncUrl ? keepSynced(raw) : undefined;
    if (embedded && !options.syncUrl) {
      // WAL: readers never block the writer, and a killed process leaves a consistent file.
      await client.execute("PRAGMA journal_mode = WAL");
    }
    await client.execute("PRAGMA foreign_keys = ON");
    if (options.migrate !== false) {
      await migrate(client);
      // Before the backfill: it writes segments as they are now, their term lists on their own.
      await moveTermListsOutOfRows(client, options.notice);
      await backfillSearchIndex(client, options.notice);
    }
  } catch (error) {
    stopSync?.();
    client.close();
    throw embedded && !options.syncUrl ? error : explainServerError(options.url, error, Boolean(options.authToken) || /authToken=/i.test(options.url));
  }
  return {
    url: options.url,
    embedded,
    client,
    db: drizzle(client, { schema }),
    close: () => {
      stopSync?.();
      client.close();
    },
  };
}

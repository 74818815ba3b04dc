/**
 * Opens the store: an embedded libSQL file (default, WAL) or a libSQL server (`libsql://`,
 * `http(s)://`, for sqld / Turso) through the same client and schema.
 */
import { createClient, type Client } from "@libsql/client";
import { drizzle, type LibSQLDatabase } from "drizzle-orm/libsql";
import * as schema from "./schema.ts";
import { migrate } from "./migrate.ts";

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
};

export const isEmbeddedUrl = (url: string) => url.startsWith("file:") || url === ":memory:";

export async function openStore(options: StoreOptions): Promise<Store> {
  const embedded = isEmbeddedUrl(options.url);
  const client = createClient({ url: options.url, authToken: options.authToken });
  try {
    if (embedded) {
      // Wait for another connection's lock (a running daemon, a closing client) instead of
      // failing at once; it must be set first, since switching to WAL itself takes a lock.
      await client.execute("PRAGMA busy_timeout = 5000");
      // WAL: readers never block the writer, and a killed process leaves a consistent file.
      await client.execute("PRAGMA journal_mode = WAL");
    }
    await client.execute("PRAGMA foreign_keys = ON");
    if (options.migrate !== false) await migrate(client);
  } catch (error) {
    client.close();
    throw error;
  }
  return {
    url: options.url,
    embedded,
    client,
    db: drizzle(client, { schema }),
    close: () => client.close(),
  };
}

/**
 * Per-app API keys: each lets one app (Open WebUI, a script, an IDE) reach `/v1` and `/mcp` —
 * never `/api` — as its own partner, so giving an app access no longer means handing it the
 * admin token. A key is shown once, when made; only its SHA-256 is stored (the key is 256 random
 * bits, so a fast hash is enough and a copy of the database lets no one in). Each request looks
 * the key up, so a revoked key stops working at once, also while the daemon runs.
 */
import { createHash, randomBytes } from "node:crypto";
import type { Client } from "@libsql/client";
import { z } from "zod";
import { HomedError } from "../errors/index.ts";

export const KEY_SCOPES = ["v1", "mcp"] as const;
export type KeyScope = (typeof KEY_SCOPES)[number];

/** Every key starts so, so a leaked one is recognisable (secret scanners, logs). */
const KEY_PREFIX = "hk-";

export const KeyNameSchema = z.string().regex(/^[A-Za-z0-9._-]{1,64}$/, "a key's name is 1 to 64 letters, digits, '.', '_' or '-'");

export const KeyInputSchema = z.object({
  name: KeyNameSchema,
  /** The partner the app's turns belong to when its requests carry no `user` (default: the key's name). */
  partner: z.string().trim().min(1).max(200).optional(),
  scopes: z.array(z.enum(KEY_SCOPES)).min(1).optional(),
});
export type KeyInput = z.infer<typeof KeyInputSchema>;

/** A key as every listing shows it: never the key, never its hash. `lastUsedAt`: null when never used. */
export type AppKey = { name: string; partner: string | null; scopes: KeyScope[]; createdAt: number; lastUsedAt: number | null };

/**
 * How stale a key's last-used time may get: a request writes it only when it is older than this,
 * so a busy app costs one write a minute, not one per request (a write waits its turn behind
 * every other write of the store).
 */
export const LAST_USED_RESOLUTION_MS = 60_000;

const COLUMNS = "name, partner, scopes, created_at, last_used_at";

const hashOf = (key: string) => createHash("sha256").update(key).digest("hex");

const fromRow = (r: Record<string, unknown>): AppKey => ({
  name: String(r.name),
  partner: r.partner == null ? null : String(r.partner),
  scopes: String(r.scopes).split(",").filter((s): s is KeyScope => (KEY_SCOPES as readonly string[]).includes(s)),
  createdAt: Number(r.created_at),
  lastUsedAt: r.last_used_at == null ? null : Number(r.last_used_at),
});

export class AppKeys {
  constructor(private readonly client: Client) {}

  /** Makes a key; resolves with the key itself (to show once) and its listing. */
  async create(input: KeyInput): Promise<{ key: string; view: AppKey }> {
    const key = `${KEY_PREFIX}${randomBytes(32).toString("base64url")}`;
    const scopes = [...new Set(input.scopes ?? KEY_SCOPES)];
    const createdAt = Date.now();
    const done = await this.client.execute({
      sql: "INSERT INTO app_keys (name, key_hash, partner, scopes, created_at) VALUES (?, ?, ?, ?, ?) ON CONFLICT (name) DO NOTHING",
      args: [input.name, hashOf(key), input.partner ?? null, scopes.join(","), createdAt],
    });
    if (done.rowsAffected === 0) throw new HomedError("key_exists", `Cannot create the key '${input.name}': a key with that name exists (revoke it first)`, { param: "name" });
    return { key, view: { name: input.name, partner: input.partner ?? null, scopes, createdAt, lastUsedAt: null } };
  }

  async list(): Promise<AppKey[]> {
    return (await this.client.execute(`SELECT ${COLUMNS} FROM app_keys ORDER BY name`)).rows.map(fromRow);
  }

  async revoke(name: string): Promise<void> {
    const done = await this.client.execute({ sql: "DELETE FROM app_keys WHERE name = ?", args: [name] });
    if (done.rowsAffected === 0) throw new HomedError("key_not_found", `No key named '${name}' (homed key list shows them)`);
  }

  /** The key's listing when `key` is a live app key, else undefined; notes the use (to a minute). */
  async verify(key: string, now = Date.now()): Promise<AppKey | undefined> {
    if (!key.startsWith(KEY_PREFIX) || key.length > 100) return undefined;
    const row = await this.client.execute({ sql: `SELECT ${COLUMNS} FROM app_keys WHERE key_hash = ?`, args: [hashOf(key)] });
    if (!row.rows[0]) return undefined;
    const found = fromRow(row.rows[0]);
    if (found.lastUsedAt === null || now - found.lastUsedAt >= LAST_USED_RESOLUTION_MS) {
      await this.client.execute({ sql: "UPDATE app_keys SET last_used_at = ? WHERE key_hash = ?", args: [now, hashOf(key)] });
      found.lastUsedAt = now;
    }
    return found;
  }
}

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
import { appKeyByHash, deleteAppKey, insertAppKey, listAppKeys, markAppKeyUsed, type AppKeyRow } from "../store/index.ts";

export const KEY_SCOPES = ["v1", "mcp", "a2a"] as const;
export type KeyScope = (typeof KEY_SCOPES)[number];
/**
 * What a key opens when its maker names no scopes. Not `a2a`: a key that lets another agent
 * talk to homed is a choice made by naming it, as the A2A channel itself is off until enabled.
 */
export const DEFAULT_KEY_SCOPES: readonly KeyScope[] = ["v1", "mcp"];

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

const hashOf = (key: string) => createHash("sha256").update(key).digest("hex");

const fromRow = (r: AppKeyRow): AppKey => ({
  ...r,
  scopes: r.scopes.split(",").filter((s): s is KeyScope => (KEY_SCOPES as readonly string[]).includes(s)),
});

export class AppKeys {
  constructor(private readonly client: Client) {}

  /** Makes a key; resolves with the key itself (to show once) and its listing. */
  async create(input: KeyInput): Promise<{ key: string; view: AppKey }> {
    const key = `${KEY_PREFIX}${randomBytes(32).toString("base64url")}`;
    const scopes = [...new Set(input.scopes ?? DEFAULT_KEY_SCOPES)];
    const createdAt = Date.now();
    const added = await insertAppKey(this.client, { name: input.name, keyHash: hashOf(key), partner: input.partner ?? null, scopes: scopes.join(","), createdAt });
    if (!added) throw new HomedError("key_exists", `Cannot create the key '${input.name}': a key with that name exists (revoke it first)`, { param: "name" });
    return { key, view: { name: input.name, partner: input.partner ?? null, scopes, createdAt, lastUsedAt: null } };
  }

  async list(): Promise<AppKey[]> {
    return (await listAppKeys(this.client)).map(fromRow);
  }

  async revoke(name: string): Promise<void> {
    if (!(await deleteAppKey(this.client, name))) throw new HomedError("key_not_found", `No key named '${name}' (homed key list shows them)`);
  }

  /** The key's listing when `key` is a live app key, else undefined; notes the use (to a minute). */
  async verify(key: string, now = Date.now()): Promise<AppKey | undefined> {
    if (!key.startsWith(KEY_PREFIX) || key.length > 100) return undefined;
    const row = await appKeyByHash(this.client, hashOf(key));
    if (!row) return undefined;
    const found = fromRow(row);
    if (found.lastUsedAt === null || now - found.lastUsedAt >= LAST_USED_RESOLUTION_MS) {
      await markAppKeyUsed(this.client, hashOf(key), now);
      found.lastUsedAt = now;
    }
    return found;
  }
}

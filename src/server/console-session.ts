/**
 * Console sessions: logging in with the admin token gives the browser an HttpOnly,
 * SameSite=Strict cookie holding a random session id, so scripts in the page never see the
 * token. Sessions are kept in the database, so a daemon restart (an upgrade, a reboot) does not
 * log everyone out; only a hash of the id is stored, keyed with the admin token, so a copy of
 * the database lets no one in and a login made under an earlier token never matches again.
 * Logout and `homed token reset` delete them. Wrong tokens are slowed per source
 * (login-throttle.ts).
 */
import { createHmac, randomBytes } from "node:crypto";
import type { Client } from "@libsql/client";
import { addConsoleLogin, consoleLoginExpiry, deleteAllConsoleLogins, deleteConsoleLogin, renewConsoleLogin } from "../store/index.ts";

export const SESSION_COOKIE = "homed_session";
/** How long a console login lasts without use. */
export const SESSION_TTL_MS = 7 * 24 * 3600_000;
/**
 * Use renews a login's lifetime at most this often: renewing on every request would write to
 * the database on every request the console makes.
 */
export const SESSION_RENEW_MS = 60_000;
/** Session ids are 43 characters; anything much longer is not one and is not even hashed. */
const MAX_ID_CHARS = 100;

export class ConsoleSessions {
  /** `key`: the admin token the logins are made with. */
  constructor(
    private readonly client: Client,
    private readonly key: string,
    private readonly now: () => number = Date.now,
  ) {}

  private hash(id: string): string {
    return createHmac("sha256", this.key).update(id).digest("base64url");
  }

  async create(): Promise<string> {
    const id = randomBytes(32).toString("base64url");
    const now = this.now();
    // Expired logins are cleared when a new one is made: the table holds the live ones only.
    await addConsoleLogin(this.client, this.hash(id), now, now + SESSION_TTL_MS);
    return id;
  }

  /** True for a live session, whose lifetime then starts again (sliding expiry). */
  async touch(id: string | undefined): Promise<boolean> {
    if (!id || id.length > MAX_ID_CHARS) return false;
    const hash = this.hash(id);
    const now = this.now();
    const expires = await consoleLoginExpiry(this.client, hash);
    if (expires === undefined) return false;
    if (expires < now) {
      await deleteConsoleLogin(this.client, hash);
      return false;
    }
    if (expires - now < SESSION_TTL_MS - SESSION_RENEW_MS) await renewConsoleLogin(this.client, hash, now + SESSION_TTL_MS);
    return true;
  }

  async revoke(id: string | undefined): Promise<void> {
    if (id && id.length <= MAX_ID_CHARS) await deleteConsoleLogin(this.client, this.hash(id));
  }
}

/** Ends every console login: the admin token was reset, so whoever held it is out. */
export function revokeAllConsoleSessions(client: Client): Promise<number> {
  return deleteAllConsoleLogins(client);
}

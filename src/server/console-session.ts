/**
 * Console sessions: logging in with the admin token gives the browser an HttpOnly,
 * SameSite=Strict cookie holding a random session id, so scripts in the page never see the
 * token. Sessions live in memory: a restart of the daemon logs everyone out, which is the safe
 * side. Failed logins are rate-limited so the token cannot be guessed at network speed.
 */
import { randomBytes } from "node:crypto";

export const SESSION_COOKIE = "homed_session";
/** How long a console login lasts without use. */
export const SESSION_TTL_MS = 7 * 24 * 3600_000;

export class ConsoleSessions {
  private readonly sessions = new Map<string, number>();

  constructor(private readonly now: () => number = Date.now) {}

  create(): string {
    const id = randomBytes(32).toString("base64url");
    this.sessions.set(id, this.now() + SESSION_TTL_MS);
    return id;
  }

  /** True for a live session, whose lifetime then starts again (sliding expiry). */
  touch(id: string | undefined): boolean {
    if (!id) return false;
    const expires = this.sessions.get(id);
    if (expires === undefined) return false;
    if (expires < this.now()) {
      this.sessions.delete(id);
      return false;
    }
    this.sessions.set(id, this.now() + SESSION_TTL_MS);
    return true;
  }

  revoke(id: string | undefined): void {
    if (id) this.sessions.delete(id);
  }
}

/**
 * Failed logins allowed per window, counted for the whole daemon: it listens on loopback,
 * where every client has the same address, so a per-address count would protect nothing more.
 */
export const LOGIN_FAILURES_PER_WINDOW = 5;
export const LOGIN_WINDOW_MS = 60_000;

export class LoginLimiter {
  private failures: number[] = [];

  constructor(private readonly now: () => number = Date.now) {}

  /** Milliseconds until the next attempt is allowed; 0 when one is allowed now. */
  waitMs(): number {
    const cutoff = this.now() - LOGIN_WINDOW_MS;
    this.failures = this.failures.filter((t) => t > cutoff);
    if (this.failures.length < LOGIN_FAILURES_PER_WINDOW) return 0;
    return this.failures[0]! + LOGIN_WINDOW_MS - this.now();
  }

  fail(): void {
    this.failures.push(this.now());
  }
}

/**
 * Wrong admin tokens and keys cost the guesser time. The token is 256 random bits, so no rate of
 * guessing can find it; a throttle must still keep guessing slow, and must not lock the admin out.
 *
 * - The right credential is always checked first and always accepted at once (issue 14.8: an
 *   earlier limiter refused every login for a minute after five failures, so any local process
 *   could keep the admin out).
 * - Every wrong one takes a token from two buckets — its source's (`SOURCE_GUESSES_PER_S`, a burst
 *   of `FREE_FAILURES` for typos and stale scripts) and everyone's (`GLOBAL_GUESSES_PER_S`) — and
 *   its answer waits until both are out of debt. Concurrent guesses therefore queue: a source's
 *   answers go out at its rate however many connections it opens.
 * - A source already holding `MAX_WAITING_PER_SOURCE` slowed answers (or all sources together
 *   `MAX_WAITING`) is not let in at all: its next request is refused *before its credential is
 *   read*, so the refusal tells nothing about the guess (the earlier limiter checked the token,
 *   then answered an instant 429 — each 429 was an answered guess: 5,800–15,600 a second, issue
 *   31.7). The refusal is held `REFUSAL_HOLD_MS` (at most `MAX_HELD_REFUSALS` at once; beyond,
 *   answered at once with `Connection: close`), so a flooding client waits too.
 *
 * What this bounds: a source gets at most `FREE_FAILURES + SOURCE_GUESSES_PER_S × t` answered
 * guesses in t seconds, all sources together `GLOBAL_BURST + GLOBAL_GUESSES_PER_S × t`; memory is
 * `MAX_WAITING` timers and `MAX_SOURCES` small records. The price: while a source floods, its own
 * right credential is refused with the rest (unread); another address's gets in at once.
 */
import { TokenBucket } from "../plugins/index.ts";

/**
 * Where a request came from: the peer address the runtime's server passes as the app's env
 * (src/runtime/serve.ts). Forwarded-for headers are not trusted: anyone can write them.
 */
export function requestSource(env: unknown): string {
  const address = (env as { remoteAddress?: unknown } | undefined)?.remoteAddress;
  return typeof address === "string" && address !== "" ? address : "unknown";
}

/** Wrong credentials a source may send at full speed (typos, a stale token in a script). */
export const FREE_FAILURES = 3;
/** A source's answered wrong guesses a second, once its free ones are spent. */
export const SOURCE_GUESSES_PER_S = 4;
/** All sources' answered wrong guesses a second (many addresses, one attacker). */
export const GLOBAL_GUESSES_PER_S = 100;
/** Wrong tokens of all sources answered at full speed before the global rate applies. */
export const GLOBAL_BURST = 50;
/** Slowed answers a source may hold open at once: with the rate, a wrong answer waits 4 s at most. */
export const MAX_WAITING_PER_SOURCE = 16;
/** Slowed answers held open at once, all sources together (timers and sockets: bounded memory). */
export const MAX_WAITING = 1024;
/** How long a refused (unread) request waits for its 429, and how many such waits at once. */
export const REFUSAL_HOLD_MS = 1_000;
export const MAX_HELD_REFUSALS = 1024;
/** Sources remembered at most; the least recently failed with nothing waiting are forgotten first. */
const MAX_SOURCES = 4096;

export type ThrottleOptions = {
  /** Milliseconds, monotonic (injected in tests). */
  now?: () => number;
  /** How a slowed answer waits (injected in tests to see the delays without waiting them). */
  sleep?: (ms: number) => Promise<void>;
};

type Source = { bucket: TokenBucket; waiting: number };

/** Whether a request may have its credential checked; when not, how long its 429 is held. */
export type Admission = { admitted: true } | { admitted: false; holdMs: number; retryAfterS: number };

/** The answer to a wrong credential: sent after `waitedMs`. */
export type FailureOutcome = { waitedMs: number };

export class LoginThrottle {
  private readonly sources = new Map<string, Source>();
  private readonly global: TokenBucket;
  private readonly now: () => number;
  private readonly sleep: (ms: number) => Promise<void>;
  private waiting = 0;
  private heldRefusals = 0;

  constructor(options: ThrottleOptions = {}) {
    this.now = options.now ?? (() => performance.now());
    this.sleep = options.sleep ?? ((ms) => new Promise((resolve) => setTimeout(resolve, ms)));
    this.global = new TokenBucket(GLOBAL_GUESSES_PER_S, GLOBAL_BURST, this.now);
  }

  /** Called before a credential is read: a flooding source's requests are refused unread. */
  admit(source: string): Admission {
    const record = this.sources.get(source);
    if ((record?.waiting ?? 0) < MAX_WAITING_PER_SOURCE && this.waiting < MAX_WAITING) return { admitted: true };
    const hold = this.heldRefusals < MAX_HELD_REFUSALS;
    const waitMs = Math.max(record?.bucket.waitMs() ?? 0, this.global.waitMs());
    return { admitted: false, holdMs: hold ? REFUSAL_HOLD_MS : 0, retryAfterS: Math.max(1, Math.ceil(waitMs / 1000)) };
  }

  /** Holds a refused request's answer (`admit`'s `holdMs`), counted so that the holds stay bounded. */
  async holdRefusal(ms: number): Promise<void> {
    if (ms <= 0) return;
    this.heldRefusals += 1;
    try {
      await this.sleep(ms);
    } finally {
      this.heldRefusals -= 1;
    }
  }

  /** Records a wrong credential from `source` and resolves when its answer may be sent. */
  async fail(source: string): Promise<FailureOutcome> {
    const record = this.sources.get(source) ?? { bucket: new TokenBucket(SOURCE_GUESSES_PER_S, FREE_FAILURES, this.now), waiting: 0 };
    // Re-inserted so the map's order is least recently failed first.
    this.sources.delete(source);
    this.sources.set(source, record);
    this.forgetOldest();
    record.bucket.spend(1);
    this.global.spend(1);
    const delay = Math.max(record.bucket.waitMs(), this.global.waitMs());
    if (delay === 0) return { waitedMs: 0 };
    record.waiting += 1;
    this.waiting += 1;
    try {
      await this.sleep(delay);
    } finally {
      record.waiting -= 1;
      this.waiting -= 1;
    }
    return { waitedMs: delay };
  }

  /** Slowed answers `source` holds open now (for tests and the log). */
  waitingFor(source: string): number {
    return this.sources.get(source)?.waiting ?? 0;
  }

  private forgetOldest(): void {
    for (const [source, record] of this.sources) {
      if (this.sources.size <= MAX_SOURCES) return;
      if (record.waiting === 0) this.sources.delete(source);
    }
  }
}

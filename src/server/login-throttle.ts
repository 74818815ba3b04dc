/**
 * Wrong admin tokens, slowed per source. The token is 256 random bits, so no rate of guessing
 * can find it; what a throttle must not do is lock the admin out. The earlier limiter refused
 * every login, right token included, for a minute after five failures counted for the whole
 * daemon — and on loopback every client has the same address, so any local process could keep
 * the admin out (issue 14.8). Now the token is always checked first and a correct one is always
 * accepted; only the answer to a wrong one waits, longer the more that source has failed lately.
 * A source holding too many slowed answers open gets 429 at once, so a flood costs homed a few
 * timers, not a connection per guess.
 */

/**
 * Where a request came from: the peer address the runtime's server passes as the app's env
 * (src/runtime/serve.ts). Forwarded-for headers are not trusted: anyone can write them.
 */
export function requestSource(env: unknown): string {
  const address = (env as { remoteAddress?: unknown } | undefined)?.remoteAddress;
  return typeof address === "string" && address !== "" ? address : "unknown";
}

/** Failures a source may make at full speed (typos, a stale token in a script). */
export const FREE_FAILURES = 3;
/** The first slowed failure waits this long; each further one twice as long, up to the cap. */
export const FIRST_DELAY_MS = 250;
export const MAX_DELAY_MS = 5_000;
/** A source that has not failed for this long starts again at full speed. */
export const FAILURE_MEMORY_MS = 60_000;
/** Slowed answers a source may hold open at once; beyond that, wrong tokens get 429 at once. */
export const MAX_WAITING_PER_SOURCE = 8;
/** Sources remembered at most; the least recently failed are forgotten first. */
const MAX_SOURCES = 4096;

export type ThrottleOptions = {
  now?: () => number;
  /** How a slowed answer waits (injected in tests to see the delays without waiting them). */
  sleep?: (ms: number) => Promise<void>;
};

type Record = { failures: number; lastAt: number; waiting: number };

/** The answer to a wrong token: sent after the wait, or refused at once when the source is flooding. */
export type FailureOutcome = { kind: "slowed"; waitedMs: number } | { kind: "flooding"; retryAfterS: number };

export class LoginThrottle {
  private readonly sources = new Map<string, Record>();
  private readonly now: () => number;
  private readonly sleep: (ms: number) => Promise<void>;

  constructor(options: ThrottleOptions = {}) {
    this.now = options.now ?? Date.now;
    this.sleep = options.sleep ?? ((ms) => new Promise((resolve) => setTimeout(resolve, ms)));
  }

  /** How long the `failures`-th recent failure of a source waits. */
  static delayFor(failures: number): number {
    if (failures <= FREE_FAILURES) return 0;
    return Math.min(MAX_DELAY_MS, FIRST_DELAY_MS * 2 ** (failures - FREE_FAILURES - 1));
  }

  /** Records a wrong token from `source` and resolves when its answer may be sent. */
  async fail(source: string): Promise<FailureOutcome> {
    const now = this.now();
    const record = this.sources.get(source) ?? { failures: 0, lastAt: now, waiting: 0 };
    if (now - record.lastAt > FAILURE_MEMORY_MS) record.failures = 0;
    if (record.waiting >= MAX_WAITING_PER_SOURCE) return { kind: "flooding", retryAfterS: Math.ceil(LoginThrottle.delayFor(record.failures) / 1000) || 1 };
    record.failures += 1;
    record.lastAt = now;
    // Re-inserted so the map's order is least recently failed first.
    this.sources.delete(source);
    this.sources.set(source, record);
    this.forgetOldest();
    const delay = LoginThrottle.delayFor(record.failures);
    if (delay === 0) return { kind: "slowed", waitedMs: 0 };
    record.waiting += 1;
    try {
      await this.sleep(delay);
    } finally {
      record.waiting -= 1;
    }
    return { kind: "slowed", waitedMs: delay };
  }

  /** Recent failures remembered for `source` (for tests and the log). */
  failures(source: string): number {
    const record = this.sources.get(source);
    return record && this.now() - record.lastAt <= FAILURE_MEMORY_MS ? record.failures : 0;
  }

  private forgetOldest(): void {
    for (const [source, record] of this.sources) {
      if (this.sources.size <= MAX_SOURCES) return;
      if (record.waiting === 0) this.sources.delete(source);
    }
  }
}

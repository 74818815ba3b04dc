/**
 * A token bucket (`rate` tokens a second, holding at most `burst`) and `pace`, which holds a
 * readable stream to one or more buckets by pausing it: a paused pipe fills, and the plugin's
 * own writes wait — back-pressure that costs the kernel nothing while the plugin is held.
 */
import type { Readable } from "node:stream";

export class TokenBucket {
  private tokens: number;
  private at: number;

  constructor(
    readonly rate: number,
    readonly burst: number,
    private readonly now: () => number = () => performance.now(),
  ) {
    this.tokens = burst;
    this.at = now();
  }

  /** Takes one token if there is one: false means over the rate. */
  take(): boolean {
    this.refill();
    if (this.tokens < 1) return false;
    this.tokens -= 1;
    return true;
  }

  /** Takes `n` tokens, going into debt if need be (what was read has been read). */
  spend(n: number): void {
    this.refill();
    this.tokens -= n;
  }

  /** Milliseconds until the debt is repaid (0 when there is none). */
  waitMs(): number {
    this.refill();
    return this.tokens >= 0 ? 0 : Math.ceil((-this.tokens / this.rate) * 1000);
  }

  private refill(): void {
    const now = this.now();
    const elapsed = now - this.at;
    // Guarded: 0 ms × an Infinity rate (an unlimited bucket) would be NaN.
    if (elapsed > 0) this.tokens = Math.min(this.burst, this.tokens + (elapsed / 1000) * this.rate);
    this.at = now;
  }
}

export type Meter = { bucket: TokenBucket; cost: (chunk: Buffer | string) => number };

/** Pauses `stream` after any chunk that overdraws a bucket, until every bucket is out of debt. */
export function pace(stream: Readable, meters: readonly Meter[]): void {
  let timer: ReturnType<typeof setTimeout> | undefined;
  stream.on("data", (chunk: Buffer | string) => {
    for (const m of meters) m.bucket.spend(m.cost(chunk));
    const wait = Math.max(...meters.map((m) => m.bucket.waitMs()));
    if (wait === 0 || timer !== undefined) return;
    stream.pause();
    timer = setTimeout(() => {
      timer = undefined;
      stream.resume();
    }, wait);
    // A paused pipe must not keep the kernel alive on its own.
    (timer as { unref?: () => void }).unref?.();
  });
}

/** Newlines in a chunk: the number of lines (frames) it completes, counted without decoding. */
export function countLines(chunk: Buffer | string): number {
  let n = 0;
  if (typeof chunk === "string") {
    for (let i = chunk.indexOf("\n"); i !== -1; i = chunk.indexOf("\n", i + 1)) n++;
    return n;
  }
  for (let i = chunk.indexOf(0x0a); i !== -1; i = chunk.indexOf(0x0a, i + 1)) n++;
  return n;
}

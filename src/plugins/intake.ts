/**
 * What one plugin may send the kernel, per second. A plugin that floods cannot slow the kernel:
 *   - its stdout is read at most `frames` lines and `stdoutBytes` bytes a second, and its stderr
 *     at most `stderrBytes`; beyond that reading pauses, the pipe fills and the plugin's writes
 *     wait (back-pressure);
 *   - of what is read, notifications and requests the plugin starts (answers to the kernel's
 *     own calls are never dropped) beyond `unsolicited` a second, and stderr lines beyond
 *     `logLines` a second, are dropped, counted, and reported in the log once a second.
 * Measured (bench/plugins/flood.ts, a real daemon, /healthz asked back to back, baseline
 * p50 0.1 ms): without limits one plugin flooding valid notifications took p50 to 2.6 s, five
 * misbehaving plugins to 4.5 s; with these limits five floods leave p50 0.1 ms, p95 0.1–0.2 ms,
 * max 15–24 ms. The cost falls on the flooding plugin: its own answers wait behind its flood.
 */
import type { Message, Transport } from "../protocol/index.ts";
import { TokenBucket } from "./token-bucket.ts";

export type IntakeLimits = {
  /** stdout lines a second. A legitimate plugin answers calls: far fewer than this. */
  frames: number;
  /**
   * stdout bytes a second, sustained, after a burst of `stdoutBurstBytes`: one large answer (a
   * 100 MB file as base64) passes at full speed, a stream of them is paced. Bulk belongs in the
   * shared segment; this only bounds what a plugin can make the kernel parse.
   */
  stdoutBytes: number;
  stdoutBurstBytes: number;
  /** Notifications and requests from the plugin a second, kept; the rest dropped. */
  unsolicited: number;
  /** Reports of unreadable frames (not JSON, too long) a second, kept in its log; the rest counted. */
  frameErrors: number;
  /** stderr lines a second kept in the plugin's log; the rest dropped. */
  logLines: number;
  /** stderr bytes a second read. */
  stderrBytes: number;
};

/** The notification a plugin sends when it put events in a ring the kernel had drained. */
export const EVENTS_DOORBELL = "homed/events";

export const DEFAULT_INTAKE_LIMITS: IntakeLimits = {
  frames: 2000,
  stdoutBytes: 64 * 1024 * 1024,
  stdoutBurstBytes: 256 * 1024 * 1024,
  unsolicited: 200,
  frameErrors: 20,
  logLines: 200,
  stderrBytes: 1024 * 1024,
};

/** Counts what was dropped and reports it at most once a second, with the reason. */
export class DropTally {
  private pending = 0;
  private total = 0;
  private timer: ReturnType<typeof setTimeout> | undefined;

  constructor(
    private readonly what: string,
    private readonly reason: string,
    private readonly report: (line: string) => void,
    private readonly intervalMs = 1000,
  ) {}

  add(n = 1): void {
    this.pending += n;
    this.total += n;
    if (this.timer !== undefined) return;
    this.timer = setTimeout(() => this.flush(), this.intervalMs);
    (this.timer as { unref?: () => void }).unref?.();
  }

  /** Reports what is pending now (also called when the plugin exits, so nothing goes unsaid). */
  flush(): void {
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
    if (this.pending === 0) return;
    this.report(`dropped ${this.pending} ${this.what} (${this.total} in all): ${this.reason}`);
    this.pending = 0;
  }

  get count(): number {
    return this.total;
  }
}

/**
 * A transport that drops the plugin's own notifications and requests beyond a rate, and reports
 * of frames it could not read (not JSON, too long) beyond another. The check is on the parsed
 * value before it is classified, so a dropped frame costs one property read.
 */
export class LimitedTransport implements Transport {
  onmessage?: (value: unknown) => void;
  onerror?: (error: Error) => void;
  onclose?: () => void;

  constructor(
    private readonly inner: Transport,
    messages: { perSecond: number; dropped: DropTally },
    errors: { perSecond: number; dropped: DropTally },
  ) {
    const messageBucket = new TokenBucket(messages.perSecond, messages.perSecond);
    const errorBucket = new TokenBucket(errors.perSecond, errors.perSecond);
    inner.onmessage = (value) => {
      if (isUnsolicited(value) && !isDoorbell(value) && !messageBucket.take()) return messages.dropped.add();
      this.onmessage?.(value);
    };
    inner.onerror = (error) => {
      if (!errorBucket.take()) return errors.dropped.add();
      this.onerror?.(error);
    };
    inner.onclose = () => this.onclose?.();
  }

  start(): Promise<void> {
    return this.inner.start();
  }

  send(message: Message): Promise<void> {
    return this.inner.send(message);
  }

  close(): Promise<void> {
    return this.inner.close();
  }
}

const isUnsolicited = (value: unknown) => typeof value === "object" && value !== null && "method" in value;
/**
 * The event ring's doorbell is never dropped: a plugin rings it only when the kernel had caught
 * up, so a lost one leaves events (and the count of dropped ones) in the ring until something
 * else rings — forever, for a plugin that then goes quiet. Answering one costs a drain of an
 * empty ring (two atomic loads), no more than dropping it, and the stdout line limit bounds how
 * many arrive.
 */
const isDoorbell = (value: unknown) => (value as { method?: unknown }).method === EVENTS_DOORBELL;

/**
 * Retries with jittered exponential backoff, only for failures a retry can fix (429, 5xx,
 * network). Hand-written rather than a library because the decision needs the provider's
 * `Retry-After` and our error codes, and the loop is a dozen lines.
 */
import { ProviderError } from "./errors.ts";

export type RetryPolicy = {
  /** Retries after the first attempt. */
  retries: number;
  baseDelayMs: number;
  maxDelayMs: number;
};

export const DEFAULT_RETRY: RetryPolicy = { retries: 3, baseDelayMs: 500, maxDelayMs: 8000 };

export type RetryDeps = {
  random?: () => number;
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
};

export function abortableSleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal!.reason);
    };
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}

/** Delay before retry `n` (0-based): base·2ⁿ capped, times a jitter in [0.5, 1). */
export function backoffDelay(n: number, policy: RetryPolicy, random: () => number = Math.random): number {
  return Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** n) * (0.5 + random() * 0.5);
}

export async function withRetries<T>(attempt: (n: number) => Promise<T>, policy: RetryPolicy, signal: AbortSignal | undefined, deps: RetryDeps = {}): Promise<T> {
  const sleep = deps.sleep ?? abortableSleep;
  for (let n = 0; ; n++) {
    try {
      return await attempt(n);
    } catch (error) {
      if (!(error instanceof ProviderError) || !error.retryable || n >= policy.retries || signal?.aborted) throw error;
      const retryAfterMs = error.retryAfterSeconds === undefined ? 0 : Math.min(error.retryAfterSeconds * 1000, policy.maxDelayMs);
      await sleep(Math.max(retryAfterMs, backoffDelay(n, policy, deps.random)), signal);
    }
  }
}

/**
 * Relevance pruning of L1 (DESIGN §3): history is never truncated blindly. When L1 holds more
 * than 1.25 × the budget, the most recent N events stay (pinned), the rest are scored against
 * the current input, the best are kept while they fit the budget, and the others sink to L2.
 *
 * Hysteresis: pruning starts above 1.25 × budget and cuts down to the budget, so a session
 * does not pay a prune (and lose an event) on every turn once it is near its limit.
 */
import { relevance, type Query, type Vectors } from "./score.ts";

/** Prune when tokens / budget exceeds this. Prevents: pruning every turn near the limit. */
export const OVERFLOW_THRESHOLD = 1.25;
/** Pinned recent events when nothing else bounds it. Prevents: the last turns sinking mid-task. */
export const DEFAULT_PINNED = 10;

export type PrunableEvent = Vectors & { id: string; tokens: number };

export type PrunePlan = {
  ratio: number;
  /** ratio > OVERFLOW_THRESHOLD: the plan sinks every event it does not keep. */
  overflow: boolean;
  pinned: number;
  /** Ids kept in L1, chronological. */
  keep: string[];
  /** Ids to sink to L2, chronological. */
  sink: string[];
};

/**
 * N = min(configured, floor(budget / average event tokens)). Without the second bound, a
 * session of large events (5.8k tokens each, 40k budget) would pin 10 × 5.8k = 58k tokens:
 * more than the whole budget, with nothing left to choose by relevance.
 */
export function pinnedCount(options: { configured?: number; budget: number; avgTokensPerEvent: number }): number {
  const configured = options.configured ?? DEFAULT_PINNED;
  if (options.avgTokensPerEvent <= 0) return configured;
  return Math.max(0, Math.min(configured, Math.floor(options.budget / options.avgTokensPerEvent)));
}

/** The overflow check's log line, exactly as DESIGN §3 gives it. */
export function formatOverflowCheck(k: number, ratio: number, events: number): string {
  return `overflow check #${k}: ratio=${ratio.toFixed(2)} events=${events} (threshold=${OVERFLOW_THRESHOLD})`;
}

/** tokens / budget of a session's L1. */
export function overflowRatio(events: readonly { tokens: number }[], budget: number): number {
  return events.reduce((sum, e) => sum + e.tokens, 0) / budget;
}

export type PruneOptions = {
  budget: number;
  pinned?: number;
  /**
   * Making room (cold turns just moved back into L1): these ids stay whatever their score, and
   * the plan cuts to the budget as soon as it is exceeded, not only above the threshold — the
   * request about to be rendered must hold them, and rendering drops the oldest events first.
   */
  keep?: ReadonlySet<string>;
};

/** Decides what stays in L1 and what sinks; `events` chronological. Pure: nothing moves here. */
export function planPrune(events: readonly PrunableEvent[], query: Query, options: PruneOptions): PrunePlan {
  const ratio = overflowRatio(events, options.budget);
  const all = events.map((e) => e.id);
  const keep = options.keep ?? new Set<string>();
  const threshold = keep.size > 0 ? 1 : OVERFLOW_THRESHOLD;
  if (ratio <= threshold || events.length === 0) return { ratio, overflow: false, pinned: 0, keep: all, sink: [] };
  const kept = new Set<string>(keep);
  const forced = events.filter((e) => keep.has(e.id));
  const rest = events.filter((e) => !keep.has(e.id));
  let used = forced.reduce((sum, e) => sum + e.tokens, 0);
  // The pinned recent events share what the kept ones leave.
  const room = Math.max(0, options.budget - used);
  const avgTokensPerEvent = rest.length === 0 ? 0 : rest.reduce((sum, e) => sum + e.tokens, 0) / rest.length;
  const pinned = Math.min(rest.length, pinnedCount({ configured: options.pinned, budget: room, avgTokensPerEvent }));
  const candidates = rest.slice(0, rest.length - pinned);
  const recent = rest.slice(rest.length - pinned);
  used += recent.reduce((sum, e) => sum + e.tokens, 0);
  // Best first; among equals the newer one, since recency is the better tie-breaker.
  const ranked = candidates.map((event, index) => ({ event, index, score: relevance(query, event) })).sort((a, b) => b.score - a.score || b.index - a.index);
  for (const e of recent) kept.add(e.id);
  for (const { event } of ranked) {
    if (used + event.tokens > options.budget) continue;
    kept.add(event.id);
    used += event.tokens;
  }
  const sink = all.filter((id) => !kept.has(id));
  return { ratio, overflow: true, pinned, keep: all.filter((id) => kept.has(id)), sink };
}

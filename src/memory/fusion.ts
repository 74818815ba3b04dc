/**
 * Reciprocal rank fusion (Cormack et al., 2009): score(d) = Σ over channels 1 / (k + rank_c(d)),
 * rank from 1. It needs no score calibration between channels — BM25 and cosine live on
 * different scales — and k = 60 damps the difference between neighbouring top ranks so that
 * agreement between channels outweighs one channel's strong opinion.
 */
import type { Channel, Ranked } from "./channels.ts";

export const RRF_K = 60;

/** What one channel said about a fused result, for `--explain`. */
export type ChannelHit = { rank: number; score: number; contribution: number };

export type Fused = { id: string; score: number; channels: Partial<Record<Channel, ChannelHit>> };

export function fuseRrf(rankings: Partial<Record<Channel, Ranked>>, k: number = RRF_K): Fused[] {
  const fused = new Map<string, Fused>();
  for (const [channel, ranked] of Object.entries(rankings) as [Channel, Ranked][]) {
    ranked.forEach(({ id, score }, i) => {
      const contribution = 1 / (k + i + 1);
      const entry = fused.get(id) ?? { id, score: 0, channels: {} };
      entry.score += contribution;
      entry.channels[channel] = { rank: i + 1, score, contribution };
      fused.set(id, entry);
    });
  }
  // Ties (same ranks in different channels) keep first-seen order: deterministic output.
  return [...fused.values()].sort((a, b) => b.score - a.score);
}

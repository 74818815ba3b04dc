/**
 * Weighted reciprocal rank fusion (Cormack et al., 2009): score(d) = Σ over channels
 * w_c / (k + rank_c(d)), rank from 1. It needs no score calibration between channels — BM25 and
 * cosine live on different scales — and k = 60 damps the difference between neighbouring top
 * ranks so that agreement between channels outweighs one channel's strong opinion.
 */
import { z } from "zod";
import type { Channel, Ranked } from "./channels.ts";

export const RRF_K = 60;

/** A channel's weight in the fused score; a channel not named weighs 1. */
export type ChannelWeights = Partial<Record<Channel, number>>;

/** Every channel at weight 1: plain RRF. */
export const EQUAL_WEIGHTS: ChannelWeights = {};

/**
 * The vector channel's default weight, chosen by measurement (bench/locomo/fusion-weights.ts:
 * LoCoMo dev, 762 questions, the Universal Sentence Encoder — the one model that can be had
 * here — as the vector channel; evidence recall at k = 5/10/25/50, words+grams .655/.741/.833/.874):
 *   weight 1   .523/.673/.824/.881 (the weak channel costs the top ranks)
 *   weight 0.5 .599/.735/.834/.880
 *   weight 0.2 .650/.743/.840/.880
 *   weight 0.15 .656/.742/.838/.880
 *   weight 0.1 .662/.743/.835/.876 — at or above words+grams at every k (so are 0.05 and 0.15), best at R@5
 * A weight following the channels' agreement per query (share of the vector top 10 that
 * words+grams also rank top 10) lost R@5 in every form tried (e.g. 0.1 + 0.4 × agreement: .651),
 * so the weight is fixed. A strong model may deserve more: set `fusion.weights.vector` in homed.json.
 */
export const VECTOR_WEIGHT = 0.1;
export const DEFAULT_WEIGHTS: ChannelWeights = { vector: VECTOR_WEIGHT };

/** `fusion` in homed.json: per-channel weights (words, grams, vector), each from 0 (off) to 10. */
export const FusionConfigSchema = z.object({
  weights: z
    .object({ words: z.number().min(0).max(10), grams: z.number().min(0).max(10), vector: z.number().min(0).max(10) })
    .partial()
    .strict()
    .default({}),
});

let configured: ChannelWeights = DEFAULT_WEIGHTS;

/**
 * Sets the weights every recall of this process fuses with (injection, memory tools, the
 * console, `homed recall`), from homed.json at start: one setting, not one per call site.
 */
export function configureFusion(config: z.output<typeof FusionConfigSchema>): void {
  configured = { ...DEFAULT_WEIGHTS, ...config.weights };
}

/** What one channel said about a fused result, for `--explain`. */
export type ChannelHit = { rank: number; score: number; contribution: number };

export type Fused = { id: string; score: number; channels: Partial<Record<Channel, ChannelHit>> };

export function fuseRrf(rankings: Partial<Record<Channel, Ranked>>, k: number = RRF_K, weights: ChannelWeights = configured): Fused[] {
  const fused = new Map<string, Fused>();
  for (const [channel, ranked] of Object.entries(rankings) as [Channel, Ranked][]) {
    const weight = weights[channel] ?? 1;
    ranked.forEach(({ id, score }, i) => {
      const contribution = weight / (k + i + 1);
      const entry = fused.get(id) ?? { id, score: 0, channels: {} };
      entry.score += contribution;
      entry.channels[channel] = { rank: i + 1, score, contribution };
      fused.set(id, entry);
    });
  }
  // Ties (same ranks in different channels) keep first-seen order: deterministic output.
  return [...fused.values()].sort((a, b) => b.score - a.score);
}

/**
 * How the channels' rankings (words, grams, vector) become one. Two fusions:
 *
 * - **linear** (selectable: `fusion.method: "linear"`, `homed recall -fusion linear`): a convex combination of per-query normalised channel scores
 *   (Bruch, Gai & Ingber, "An Analysis of Fusion Functions for Hybrid Retrieval", ACM TOIS 2023):
 *   each channel's scores divided by that query's best score in the channel, so its clear winner
 *   keeps its margin, weighted and summed over channels, divided by the weights' sum. A message
 *   only the grams channel finds (an unsegmented name jieba splits differently in the query) with
 *   BM25 15.3 against 6.6 for the next keeps that lead; under RRF it earned 1/61 and lost to
 *   matches ranked ~5th in both channels (2/65).
 * - **rrf** (the default), weighted reciprocal rank fusion (Cormack et al., 2009): Σ w_c / (k + rank_c),
 *   rank from 1, k = 60 — dsh-holo-memory's choice; ranks only, so agreement between channels
 *   outweighs one channel's strong opinion.
 *
 * Why RRF stays the default for now (measured, same machine, dev data, words + grams): linear with
 * equal weights lifts LoCoMo dev R@5/10/25/50 .656/.740/.832/.874 → .672/.748/.833/.874 but lowers
 * MADial dev R@1/3/5/10 .305/.468/.533/.660 → .292/.440/.512/.658, and a default must not fall on
 * either. Its weights are not fitted yet (that needs the open-vocabulary benchmark of issue 26).
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

export const FUSION_METHODS = ["linear", "rrf"] as const;
export type FusionMethod = (typeof FUSION_METHODS)[number];

/** `fusion` in homed.json: the method, and per-channel weights (words, grams, vector), each from 0 (off) to 10. */
export const FusionConfigSchema = z.object({
  method: z.enum(FUSION_METHODS).default("rrf"),
  weights: z
    .object({ words: z.number().min(0).max(10), grams: z.number().min(0).max(10), vector: z.number().min(0).max(10) })
    .partial()
    .strict()
    .default({}),
});

let configured: ChannelWeights = DEFAULT_WEIGHTS;
let configuredMethod: FusionMethod = "rrf";

/**
 * Sets the weights every recall of this process fuses with (injection, memory tools, the
 * console, `homed recall`), from homed.json at start: one setting, not one per call site.
 */
export function configureFusion(config: z.output<typeof FusionConfigSchema>): void {
  configured = { ...DEFAULT_WEIGHTS, ...config.weights };
  configuredMethod = config.method;
}

/** The fusion in force (homed.json's, else rrf). */
export const fusionMethod = (): FusionMethod => configuredMethod;

/**
 * The best fused score a memory can get from the words and grams channels (both ranking it first),
 * for checks of thresholds against it (memory_doctor): 2/(k+1) under RRF; under linear, the two
 * channels' share of the weights (1 with the vector channel off).
 */
export function bestLexicalScore(method: FusionMethod = configuredMethod, weights: ChannelWeights = configured): number {
  if (method === "rrf") return ((weights.words ?? 1) + (weights.grams ?? 1)) / (RRF_K + 1);
  return 1;
}

/** Fuses with the method in force (or the one given). */
export function fuse(rankings: Partial<Record<Channel, Ranked>>, method: FusionMethod = configuredMethod, weights: ChannelWeights = configured): Fused[] {
  return method === "rrf" ? fuseRrf(rankings, RRF_K, weights) : fuseLinear(rankings, weights);
}

/**
 * The linear fusion: Σ_c w_c × score_c / best_c, over the weights' sum of the channels that found
 * anything. Dividing by the best (the theoretical minimum being 0 for BM25 and for cosines above
 * the vector channel's noise floor) rather than min-max keeps a lone match meaningful: min-max would
 * give a channel's only result 1 and its second-best 0 however close they were.
 */
export function fuseLinear(rankings: Partial<Record<Channel, Ranked>>, weights: ChannelWeights = configured): Fused[] {
  const fused = new Map<string, Fused>();
  const present = (Object.entries(rankings) as [Channel, Ranked][]).filter(([, ranked]) => ranked.length > 0);
  const total = present.reduce((sum, [channel]) => sum + (weights[channel] ?? 1), 0);
  if (total === 0) return [];
  for (const [channel, ranked] of present) {
    const weight = (weights[channel] ?? 1) / total;
    const best = Math.max(...ranked.map((r) => r.score));
    ranked.forEach(({ id, score }, i) => {
      const contribution = best > 0 ? (weight * Math.max(0, score)) / best : weight / (i + 1);
      const entry = fused.get(id) ?? { id, score: 0, channels: {} };
      entry.score += contribution;
      entry.channels[channel] = { rank: i + 1, score, contribution };
      fused.set(id, entry);
    });
  }
  return [...fused.values()].sort((a, b) => b.score - a.score);
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

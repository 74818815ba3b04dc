/**
 * How the channels' rankings (words, grams, vector) become one. Three fusions:
 *
 * - **coverage** (the default): weighted reciprocal rank fusion plus a bonus for a match that holds
 *   most of the query: Σ_c w_c × (1/(k + rank_c) + β × coverage_c² / (k + 1)), coverage being the
 *   share of the query the message holds in that channel, the smaller of it by idf (the BM25 score
 *   over the query's ceiling) and by count (src/search/bm25.ts, RankedEvents; capped at 1). A message only the grams channel finds (an unsegmented
 *   name jieba cut differently in the query) holds nearly all of a short exact lookup: it earns up
 *   to 1 + β times a first rank's credit and passes messages ranked ~5th in both channels, which
 *   RRF ranked above it (issue 26). A message that shares a few words of a long, chatty query — the
 *   grams channel's clear winner by raw score in MADial dialogues, mostly wrong there — covers a few
 *   hundredths of it and earns next to nothing extra, so agreement still decides: squaring keeps
 *   partial matches' bonus small (half the query, a quarter of the bonus). Channels that report no
 *   coverage (vectors, facts' FTS5) take part by rank alone.
 * - **rrf**, weighted reciprocal rank fusion (Cormack et al., 2009): Σ w_c / (k + rank_c), rank from
 *   1, k = 60 — dsh-holo-memory's choice; ranks only, so agreement between channels outweighs one
 *   channel's strong opinion, however strong.
 * - **linear**: a convex combination of per-query normalised channel scores (Bruch, Gai & Ingber,
 *   "An Analysis of Fusion Functions for Hybrid Retrieval", ACM TOIS 2023): each channel's scores
 *   over that query's best in the channel, weighted, summed, over the weights' sum.
 *
 * Measured (bench/fusion-probe: homed's own channel rankings, words + grams, fused offline; dev
 * splits; the probe is 10k open-vocabulary messages, 400 lookups of 3–4 rare words of one message):
 *
 *   |                          | LoCoMo dev R@5/10/25/50 | MADial dev R@1/3/5/10   | probe dev hit@1/10, all · in conversation |
 *   | rrf, non-matches ranked  | .656/.740/.832/.874     | .305/.468/.533/.660     | .892/.943 · .940/.978 |
 *   | rrf                      | .656/.740/.832/.874     | .305/.468/.533/.663     | .892/.943 · .940/.978 |
 *   | linear                   | .672/.748/.833/.874     | .292/.440/.512/.658     | .912/.968 · .953/.998 |
 *   | coverage (β 3), by idf   | .663/.743/.832/.876     | .305/.468/.533/.663     | .930/.980 · .968/.998 |
 *   | coverage, idf and count  | .663/.751/.833/.873     | .305/.468/.533/.663     | .960/.985 · .988/1.000 |
 *
 * and on the held-out probe (seed 2) hit@1/10 all .925/.980 → .945/.988 → .978/.993, in
 * conversation .973/.995 → .983/.995 → .993/1.000. Coverage is the smaller of the share of the
 * query by idf and by count (src/search/bm25.ts, RankedEvents); by count since 2026-12-04 (through
 * `homed recall`, LoCoMo .663/.743/.832/.876 → .663/.749/.835/.874, MADial unchanged). β from 1.5 to 6 (and coverage^1.5 or ^3) all keep MADial and LoCoMo at or
 * above RRF; 3 sits in the middle. Linear loses MADial because there one channel's raw-score winner
 * is often a long memory sharing many common characters with the long dialogue (see the tests).
 *
 * Every fusion counts a channel's candidate only if the channel matched it: a score above 0 and
 * at least MATCH_FLOOR of the channel's best. Under a conversation scope the BM25 channels list
 * every event of it that holds a term found in half the store or more (idf floored at a millionth),
 * and RRF gave them 1/(k + rank) like real matches.
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

export const FUSION_METHODS = ["coverage", "rrf", "linear"] as const;
export type FusionMethod = (typeof FUSION_METHODS)[number];

/** `fusion` in homed.json: the method, and per-channel weights (words, grams, vector), each from 0 (off) to 10. */
export const FusionConfigSchema = z.object({
  method: z.enum(FUSION_METHODS).default("coverage"),
  weights: z
    .object({ words: z.number().min(0).max(10), grams: z.number().min(0).max(10), vector: z.number().min(0).max(10) })
    .partial()
    .strict()
    .default({}),
});

let configured: ChannelWeights = DEFAULT_WEIGHTS;
let configuredMethod: FusionMethod = "coverage";

/**
 * Sets the weights every recall of this process fuses with (injection, memory tools, the
 * console, `homed recall`), from homed.json at start: one setting, not one per call site.
 */
export function configureFusion(config: z.output<typeof FusionConfigSchema>): void {
  configured = { ...DEFAULT_WEIGHTS, ...config.weights };
  configuredMethod = config.method;
}

/** The fusion in force (homed.json's, else coverage). */
export const fusionMethod = (): FusionMethod => configuredMethod;

/** The coverage fusion's β: a full match's bonus, in first ranks' credits (see the measurements above). */
export const COVERAGE_WEIGHT = 3;

/**
 * A channel's candidate scoring under this share of the channel's best was not matched: only
 * terms found in half the store or more (BM25's idf floor, a millionth) gave it a score. Relative,
 * so that in a store of a few messages, where every term is that common, they still rank.
 */
export const MATCH_FLOOR = 1e-3;

/** What the channel actually matched: positive scores, at least MATCH_FLOOR of its best. */
export function matchesOf(ranked: Ranked): Ranked {
  const best = ranked.reduce((max, r) => Math.max(max, r.score), 0);
  return ranked.filter((r) => r.score > 0 && r.score >= best * MATCH_FLOOR);
}

/**
 * The best fused score a memory can get from the words and grams channels (both ranking it first),
 * for checks of thresholds against it (memory_doctor): 2/(k+1) under RRF, (1 + β) times that under
 * coverage (both covering the whole query); under linear, the two channels' share of the weights
 * (1 with the vector channel off).
 */
export function bestLexicalScore(method: FusionMethod = configuredMethod, weights: ChannelWeights = configured): number {
  const rrf = ((weights.words ?? 1) + (weights.grams ?? 1)) / (RRF_K + 1);
  if (method === "rrf") return rrf;
  if (method === "coverage") return rrf * (1 + COVERAGE_WEIGHT);
  return 1;
}

/** Fuses with the method in force (or the one given). */
export function fuse(rankings: Partial<Record<Channel, Ranked>>, method: FusionMethod = configuredMethod, weights: ChannelWeights = configured): Fused[] {
  if (method === "rrf") return fuseRrf(rankings, RRF_K, weights);
  if (method === "coverage") return fuseCoverage(rankings, weights);
  return fuseLinear(rankings, weights);
}

/**
 * The linear fusion: Σ_c w_c × score_c / best_c, over the weights' sum of the channels that matched
 * anything. Dividing by the best (the theoretical minimum being 0 for BM25 and for cosines above
 * the vector channel's noise floor) rather than min-max keeps a lone match meaningful: min-max would
 * give a channel's only result 1 and its second-best 0 however close they were.
 */
export function fuseLinear(rankings: Partial<Record<Channel, Ranked>>, weights: ChannelWeights = configured): Fused[] {
  const fused = new Map<string, Fused>();
  const present = (Object.entries(rankings) as [Channel, Ranked][]).map(([channel, ranked]) => [channel, matchesOf(ranked)] as const).filter(([, ranked]) => ranked.length > 0);
  const total = present.reduce((sum, [channel]) => sum + (weights[channel] ?? 1), 0);
  if (total === 0) return [];
  for (const [channel, ranked] of present) {
    const weight = (weights[channel] ?? 1) / total;
    const best = Math.max(...ranked.map((r) => r.score));
    ranked.forEach(({ id, score, coverage }, i) => {
      const contribution = (weight * score) / best;
      const entry = fused.get(id) ?? { id, score: 0, channels: {} };
      entry.score += contribution;
      entry.channels[channel] = channelHit(i + 1, score, contribution, coverage);
      fused.set(id, entry);
    });
  }
  return [...fused.values()].sort((a, b) => b.score - a.score);
}

/** What one channel said about a fused result, for `--explain` (coverage: from the BM25 channels). */
export type ChannelHit = { rank: number; score: number; contribution: number; coverage?: number };

export type Fused = { id: string; score: number; channels: Partial<Record<Channel, ChannelHit>> };

const channelHit = (rank: number, score: number, contribution: number, coverage: number | undefined): ChannelHit => ({ rank, score, contribution, ...(coverage === undefined ? {} : { coverage }) });

export function fuseRrf(rankings: Partial<Record<Channel, Ranked>>, k: number = RRF_K, weights: ChannelWeights = configured): Fused[] {
  return rankFusion(rankings, k, weights, 0);
}

/** The coverage fusion (the default): RRF plus β × coverage² / (k + 1) per channel, weighted. */
export function fuseCoverage(rankings: Partial<Record<Channel, Ranked>>, weights: ChannelWeights = configured, beta: number = COVERAGE_WEIGHT): Fused[] {
  return rankFusion(rankings, RRF_K, weights, beta);
}

/** Σ_c w_c × (1/(k + rank) + beta × min(1, coverage)² / (k + 1)) over the channels' matches. */
function rankFusion(rankings: Partial<Record<Channel, Ranked>>, k: number, weights: ChannelWeights, beta: number): Fused[] {
  const fused = new Map<string, Fused>();
  for (const [channel, all] of Object.entries(rankings) as [Channel, Ranked][]) {
    const weight = weights[channel] ?? 1;
    matchesOf(all).forEach(({ id, score, coverage }, i) => {
      const bonus = coverage === undefined ? 0 : (beta * Math.min(1, coverage) ** 2) / (k + 1);
      const contribution = weight / (k + i + 1) + weight * bonus;
      const entry = fused.get(id) ?? { id, score: 0, channels: {} };
      entry.score += contribution;
      entry.channels[channel] = channelHit(i + 1, score, contribution, coverage);
      fused.set(id, entry);
    });
  }
  // Ties (same ranks in different channels) keep first-seen order: deterministic output.
  return [...fused.values()].sort((a, b) => b.score - a.score);
}

/**
 * The fusions compared by bench/fusion-probe/run.ts: homed's three (src/memory/fusion.ts) and the
 * alternatives tried before choosing coverage, kept so the comparison can be re-run. Every one
 * first drops what a channel did not match (`matchesOf`), as homed's do.
 */
import type { Channel, Ranked } from "../../src/memory/channels.ts";
import { EQUAL_WEIGHTS, fuseCoverage, fuseLinear, fuseRrf, matchesOf, RRF_K, type Fused } from "../../src/memory/fusion.ts";
import type { QueryRankings } from "./rankings.ts";

type Fusion = (rankings: QueryRankings) => Fused[];

const matchedLists = (rankings: QueryRankings): [Channel, Ranked][] => (Object.entries(rankings) as [Channel, Ranked][]).map(([c, ranked]) => [c, matchesOf(ranked)]);

/** Per-candidate sums of `credit(ranked, i)` over channels, best first. */
function summed(rankings: QueryRankings, credit: (ranked: Ranked, i: number) => number, combine: (sum: number, channels: number) => number = (sum) => sum): Fused[] {
  const sums = new Map<string, { sum: number; channels: number }>();
  for (const [, ranked] of matchedLists(rankings)) {
    ranked.forEach(({ id }, i) => {
      const entry = sums.get(id) ?? { sum: 0, channels: 0 };
      entry.sum += credit(ranked, i);
      entry.channels++;
      sums.set(id, entry);
    });
  }
  return [...sums].map(([id, { sum, channels }]) => ({ id, score: combine(sum, channels), channels: {} })).sort((a, b) => b.score - a.score);
}

const rrfCredit = (i: number) => 1 / (RRF_K + i + 1);
const zScore = (ranked: Ranked, i: number) => {
  const mean = ranked.reduce((s, r) => s + r.score, 0) / ranked.length;
  const sd = Math.sqrt(ranked.reduce((s, r) => s + (r.score - mean) ** 2, 0) / ranked.length) || 1;
  return (ranked[i]!.score - mean) / sd;
};
/** The channel top's lead over its runner-up, over its score (1 for a lone match). */
const topGap = (ranked: Ranked) => (ranked.length < 2 ? 1 : (ranked[0]!.score - ranked[1]!.score) / ranked[0]!.score);

export const CANDIDATES: Record<string, Fusion> = {
  rrf: (r) => fuseRrf(r, RRF_K, EQUAL_WEIGHTS),
  "coverage (default)": (r) => fuseCoverage(r, EQUAL_WEIGHTS),
  linear: (r) => fuseLinear(r, EQUAL_WEIGHTS),
  // Linear on z-scores of each channel's list (Montague & Aslam's ZMUV).
  "linear, z-score": (r) => summed(r, zScore),
  // CombMNZ: max-normalised scores summed, times the number of channels that found it.
  combmnz: (r) =>
    summed(
      r,
      (ranked, i) => ranked[i]!.score / ranked[0]!.score,
      (sum, channels) => sum * channels,
    ),
  // RRF plus, for each channel's top only, α × its lead over the runner-up (all leads; leads past 0.3).
  "rrf + top margin 2": (r) => summed(r, (ranked, i) => rrfCredit(i) + (i === 0 ? (2 * topGap(ranked)) / (RRF_K + 1) : 0)),
  "rrf + top margin >.3": (r) => summed(r, (ranked, i) => rrfCredit(i) + (i === 0 ? (4 * Math.max(0, topGap(ranked) - 0.3)) / (RRF_K + 1) : 0)),
  // RRF for ranks, max-normalised score added (a hybrid; small β ≈ ties broken by score).
  "rrf + normalised score": (r) => summed(r, (ranked, i) => rrfCredit(i) + ranked[i]!.score / ranked[0]!.score / (RRF_K + 1)),
  // Linear on coverage (Bruch et al.'s theoretical-max normalisation, the ceiling as the max).
  "linear, coverage": (r) => summed(r, (ranked, i) => Math.min(1, ranked[i]!.coverage ?? 0)),
};

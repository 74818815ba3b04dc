/**
 * Every threshold of recall injection, with the failure it prevents beside it. Validated once at
 * start (zod); a bad value stops start-up with its name rather than degrading recall silently.
 */
import { z } from "zod";
import { fusionMethod } from "./fusion.ts";

const Band = z.object({ items: z.number().int().min(0).max(20), chars: z.number().int().min(0).max(20_000) });

export const InjectionConfigSchema = z.object({
  /** Candidates fetched per layer. Fewer starves the bands; many more only costs time. */
  k: z.number().int().min(1).max(100).default(8),
  /**
   * Fused score below which nothing is injected; unset, the fusion's own (`minScoreOf`). Prevents:
   * a weak one-word match injected into every turn as noise.
   */
  minScore: z.number().min(0).max(1).optional(),
  /**
   * Bands by rank. IMMEDIATE, the best matches in full; WORKING, the next, shorter; BACKGROUND,
   * a glimpse. Per-band item and character caps prevent: one long memory (a pasted log)
   * crowding every other memory out of the prompt.
   */
  bands: z.object({ immediate: Band, working: Band, background: Band }).default({ immediate: { items: 2, chars: 900 }, working: { items: 3, chars: 900 }, background: { items: 3, chars: 450 } }),
  /** Longest single line; longer memories are cut with "…". Prevents: one memory eating a band. */
  lineChars: z.number().int().min(40).max(4000).default(360),
  /**
   * The active window: 1–2 high-importance L3 facts (or L2 events in steady use: `minAccesses`)
   * injected every turn from a reserved budget.
   * Prevents: standing preferences ("answers in Chinese") dropping out whenever the turn's own
   * matches fill the bands. Capped at 2 so they never crowd out the turn.
   */
  activeWindow: z
    .object({
      max: z.number().int().min(0).max(2),
      minImportance: z.number().min(0).max(1),
      chars: z.number().int().min(0).max(4000),
      /**
       * A cold (L2) event used this often (cited or recalled) may hold a place too: 3 is the first
       * count cooling never distills (it takes ≤ 2), so such an event stays verbatim for good.
       * Prevents: a memory the model keeps coming back to dropping out whenever a turn's words
       * miss it, only because it was never distilled into a fact.
       */
      minAccesses: z.number().int().min(1).max(1000).default(3),
    })
    .default({ max: 2, minImportance: 0.7, chars: 400, minAccesses: 3 }),
  /**
   * Inputs this short (or a bare "继续"/"go on") carry nothing to search for. Prevents: random
   * matches for "ok"; such turns get recent + important memories instead.
   */
  shortInputChars: z.number().int().min(0).max(40).default(4),
  /**
   * Weight gained per time a memory was cited (or recalled), capped. Prevents two failures:
   * useful memories never rising, and (by the cap) one popular memory winning every turn.
   */
  citedBoost: z.number().min(0).max(1).default(0.15),
  citedBoostCap: z.number().int().min(0).max(20).default(3),
  /**
   * Weight gained by cold memories of the active scene. Prevents: the same question asked in a
   * work group and in a family chat recalling the other situation's memories first; small, so
   * a strong match from elsewhere still wins.
   */
  sceneBoost: z.number().min(0).max(2).default(0.3),
  /**
   * Weight gained by cold memories of the chat's own conversation. A chat searches all of the
   * user's memory (DESIGN §3 Scopes); this keeps its own conversation first among equal matches.
   * Prevents: a chat with Mia answered from another chat's equally worded memory; small, like
   * the scene's, so the parking line imported under another name still wins on its words.
   */
  conversationBoost: z.number().min(0).max(2).default(0.3),
  /**
   * Peek → confirm → move (DESIGN §3): a cold event of the chat's own session that every recall
   * channel ranks within `maxRank` and that holds `minCoverage` of the query's words goes back
   * into L1 with the rest of its turn, as the original messages, instead of as an injected line
   * (maxRank 0: never). Measured (bench/restore, LoCoMo dev): rank 1 and half the words, 60.1% of
   * such candidates are evidence turns, against 10.9% with no rule and 52.6% by rank alone.
   * Prevents: a weak match (one shared word ranks first among few cold events) displacing live
   * turns. `maxTokens` caps what one turn restores (the kernel also keeps it within a quarter of
   * the request). Prevents: a returning topic sinking the whole recent conversation.
   */
  restore: z
    .object({ maxRank: z.number().int().min(0).max(100), minCoverage: z.number().min(0).max(1), maxTokens: z.number().int().min(0).max(1_000_000) })
    .default({ maxRank: 1, minCoverage: 0.5, maxTokens: 4000 }),
  /**
   * Growth with the model's context window (injection-window.ts). Up to `baseTokens` — or when the
   * window is unknown — the bands are as configured above: a short window keeps its room for the
   * conversation. Above it, band items and characters grow with window / baseTokens (at most
   * `maxScale` times), each line's length with its square root, and so does how many candidates are
   * fetched. Prevents: a 128k-token model given the same ~1.8k characters of memory as an 8k one
   * while relevant memories wait below the cut. `tailRatio`: past the configured bands, a memory
   * goes in only while its score is at least this share of the best one's. Prevents: a large window
   * filled with the long tail of weak matches (the scores' fall-off decides, not the room alone).
   * 0.5 was chosen when fused scores fell off more gently; since coverage counts query terms (a
   * full match's bonus sets it further above the rest) it cut deeper than chosen. bench/evidence-e2e,
   * LoCoMo dev through /v1 at 128k tokens: 0.5 → 87.3 % of questions with evidence in the request,
   * 4.2k characters a request; 0.4 → 88.3 %, 5.3k; 0.3 → 89.0 %, 5.9k — the ~6k characters 0.5
   * gave when it was chosen (88.7 % then). Windows up to baseTokens are not affected.
   */
  window: z
    .object({
      baseTokens: z.number().int().min(1024).max(10_000_000),
      maxScale: z.number().min(1).max(16),
      tailRatio: z.number().min(0).max(1),
    })
    .default({ baseTokens: 32_768, maxScale: 8, tailRatio: 0.3 }),
  /** Audit rows kept. Prevents: the audit growing without bound. */
  auditKeep: z.number().int().min(1).max(100_000).default(1000),
});

export type InjectionConfig = z.output<typeof InjectionConfigSchema>;

/**
 * The score floor in force: the configured one, else the fusion's. RRF and coverage: 1/(60+25), a
 * memory only one channel ranks 25th or worse (under coverage, and holding next to none of the
 * query). Linear: 0.05, a memory one of two channels alone scores at a tenth of its best match
 * (the same "one weak channel" cut on normalised scores).
 */
export const minScoreOf = (config: InjectionConfig): number => config.minScore ?? (fusionMethod() === "linear" ? 0.05 : 1 / 85);

export const DEFAULT_INJECTION: InjectionConfig = InjectionConfigSchema.parse({});

/**
 * The three ranked recall channels (DESIGN §3). Each returns cold events best first, with the
 * channel's own score, and applies the scope before its cut:
 * - words: BM25 over `searchWords` (jieba search mode, Porter stems);
 * - grams: BM25 over character trigrams plus CJK bigrams, for substrings jieba cut differently,
 *   typos and mixed scripts;
 * - vector: cosine distance in the configured embedder's space, never another model's
 *   (`vector-channel.ts`).
 * The two BM25 channels come from one read of the event index (src/search/bm25.ts) and take
 * the query's terms as `shapeQuery` weighs them.
 */
import type { Client } from "@libsql/client";
import { searchColdEvents } from "../store/index.ts";
import type { QueryTerms } from "./query-shape.ts";
import { coldScopeOf, type RecallScope } from "./scope.ts";

export const CHANNELS = ["words", "grams", "vector"] as const;
export type Channel = (typeof CHANNELS)[number];

/**
 * One channel's ranking: event ids best first, with the channel's score (higher is better) and,
 * from the BM25 channels, its coverage: the share of the query the match holds (see
 * `RankedEvents` in src/search/bm25.ts).
 */
export type Ranked = { id: string; score: number; coverage?: number }[];

/**
 * The words and grams rankings of cold events in `scope`, `limit` deep each. Under a conversation
 * scope its events (and the user-wide ones) are listed from indexes first and only they are
 * scored, so the query grows with the conversation rather than the store; otherwise every match
 * is scored. Either way the scope (layer, privacy, time) is checked on the best.
 */
export function bm25Channels(client: Client, terms: QueryTerms, scope: RecallScope, limit: number): Promise<{ words: Ranked; grams: Ranked }> {
  return searchColdEvents(client, { words: terms.words, trigrams: terms.trigrams, bigrams: terms.bigrams }, coldScopeOf(scope), limit);
}

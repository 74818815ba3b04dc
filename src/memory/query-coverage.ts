/**
 * How much of a query a text holds, by words: the restore rule's check (injection.ts) and the
 * coverage facts report to fusion (stable-query.ts), where FTS5's BM25 gives no idf to weigh by.
 */
import { searchWords } from "../text/index.ts";

/** The share of the query's (distinct, stemmed, stop-word-free) words that `text` holds. */
export async function queryCoverage(queryWords: readonly string[], text: string): Promise<number> {
  const wanted = new Set(queryWords);
  if (wanted.size === 0) return 0;
  const held = new Set(await searchWords(text));
  return [...wanted].filter((w) => held.has(w)).length / wanted.size;
}

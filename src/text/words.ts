/**
 * Words for the BM25 channel: jieba search-mode segmentation (long Chinese words also yield
 * their sub-words), lower-cased, punctuation dropped. The same function must process both the
 * stored text and the query, or they will not meet.
 */
import { segmentForSearch } from "./jieba.ts";

const PUNCTUATION_ONLY = /^[\p{P}\p{S}\s]+$/u;

export async function searchWords(text: string): Promise<string[]> {
  const words = await segmentForSearch(text);
  return words.map((w) => w.toLowerCase()).filter((w) => !PUNCTUATION_ONLY.test(w));
}

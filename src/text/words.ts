/**
 * Words for the BM25 channel: jieba search-mode segmentation (long Chinese words also yield
 * their sub-words), lower-cased, punctuation dropped, English words reduced to their Porter
 * stem ("researched" and "research" meet) and function words dropped. The same function must
 * process both the stored text and the query, or they will not meet.
 */
import { stemmer } from "stemmer";
import { eng } from "stopword";
import { segmentForSearch } from "./jieba.ts";

const PUNCTUATION_ONLY = /^[\p{P}\p{S}\s]+$/u;
const LATIN_WORD = /^[a-z]+$/;

/**
 * English function words carry no topic, and a question is full of them ("what did she do
 * when…"): left in, they rank long chatty turns above the one that answers. Chinese function
 * words are not dropped: jieba search mode already keeps content words apart, and the stop
 * list's single characters (年, 等, 做…) are often content in Chinese.
 */
const STOP_WORDS = new Set([...eng, "s", "t", "m", "d", "ll", "re", "ve"]);

export async function searchWords(text: string): Promise<string[]> {
  const words = await segmentForSearch(text);
  const out: string[] = [];
  for (const word of words) {
    const lower = word.toLowerCase();
    if (PUNCTUATION_ONLY.test(lower) || STOP_WORDS.has(lower)) continue;
    out.push(LATIN_WORD.test(lower) ? stemmer(lower) : lower);
  }
  return out;
}

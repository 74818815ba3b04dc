/**
 * Words for the BM25 channel: jieba search-mode segmentation (long Chinese words also yield
 * their sub-words), lower-cased, punctuation dropped, English words reduced to their Porter
 * stem ("researched" and "research" meet) and function words dropped. The same function must
 * process both the stored text and the query, or they will not meet. Only a text's analysed part
 * (its first ANALYSED_CHARS characters, `limits.ts`) yields words: the cost of any text is bounded.
 */
import { stemmer } from "stemmer";
import { eng } from "stopword";
import { segmentForSearch } from "./jieba.ts";
import { analysedPart } from "./limits.ts";
import { LineMemo } from "./line-memo.ts";

const PUNCTUATION_ONLY = /^[\p{P}\p{S}\s]+$/u;
const LATIN_WORD = /^[a-z]+$/;
/**
 * Control characters separate words like a space does. Left in a word, NUL ended the FTS5 MATCH
 * string early: `memory_recall {"query":"a\u0000b"}` answered 500 "SQLITE_ERROR: unterminated
 * string". (Line breaks are kept: they end lines.)
 */
const CONTROL = /[\u0000-\u0009\u000b-\u001f\u007f]/g;

/**
 * English function words carry no topic, and a question is full of them ("what did she do
 * when…"): left in, they rank long chatty turns above the one that answers. Chinese function
 * words are not dropped: jieba search mode already keeps content words apart, and the stop
 * list's single characters (年, 等, 做…) are often content in Chinese.
 */
const STOP_WORDS = new Set([...eng, "s", "t", "m", "d", "ll", "re", "ve"]);

/** Whether a lower-cased word is an English function word (dropped from search words and from a query's content). */
export const isEnglishFunctionWord = (lower: string): boolean => STOP_WORDS.has(lower);

/** Lines whose words are remembered (see LineMemo): a few thousand cover the neighbours of interleaved sessions. */
const remembered = new LineMemo<readonly string[]>(4_096);

async function lineWords(line: string): Promise<readonly string[]> {
  const known = remembered.get(line);
  if (known) return known;
  const words = await segmentForSearch(line.replace(CONTROL, " "));
  const out: string[] = [];
  for (const word of words) {
    const lower = word.toLowerCase();
    if (PUNCTUATION_ONLY.test(lower) || STOP_WORDS.has(lower)) continue;
    out.push(LATIN_WORD.test(lower) ? stemmer(lower) : lower);
  }
  remembered.set(line, out);
  return out;
}

/** Segmentation stops at a line break, so a text's words are its lines' words in order. */
export async function searchWords(text: string): Promise<string[]> {
  const out: string[] = [];
  for (const line of analysedPart(text).split("\n")) out.push(...(await lineWords(line)));
  return out;
}

/**
 * Character n-grams for the character channel. Stored text goes to two FTS5 tables: the
 * trigram table indexes every 3-character substring itself, and the bigram table gets the
 * overlapping bigrams of each CJK run from `cjkBigrams` (a 2-character word is the commonest
 * Chinese word length, and trigram FTS cannot match it). Queries are cut into the same units.
 */

/** Han, kana and Hangul: scripts written without spaces between words. */
const CJK_RUN = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]+/gu;
/** Letters and digits of any script: grams never span spaces or punctuation. */
const WORD_RUN = /[\p{L}\p{N}]+/gu;

function gramsOf(run: string, n: number, into: Set<string>): void {
  const chars = Array.from(run);
  for (let i = 0; i + n <= chars.length; i++) into.add(chars.slice(i, i + n).join(""));
}

/** Overlapping bigrams of every CJK run; a lone CJK character stands for itself. */
export function cjkBigrams(text: string): string[] {
  const out: string[] = [];
  for (const [run] of text.matchAll(CJK_RUN)) {
    const chars = Array.from(run);
    if (chars.length === 1) out.push(run);
    for (let i = 0; i + 2 <= chars.length; i++) out.push(chars[i]! + chars[i + 1]!);
  }
  return out;
}

/** Distinct bigrams of the query's CJK runs, for the bigram table. */
export function queryBigrams(query: string): string[] {
  return [...new Set(cjkBigrams(query))];
}

/**
 * Distinct lower-cased trigrams inside the query's letter/digit runs, for the trigram table. A
 * run with CJK in it gives every trigram (the trigrams are its words); a Latin/digit run only
 * every other one and its last, which still cover every letter: a word's overlapping trigrams
 * say the same thing two or three times, and BM25 added each, so a long word outweighed a short
 * one by its length, and each extra phrase is ranked for every match. Measured (same runs):
 * LoCoMo dev R@5/10/25/50 .649/.731/.826/.869 → .655/.741/.833/.874, MADial unchanged; the
 * trigram channel of a chat turn at 100k 234 → 206 ms p50 (interleaved A/B, loaded machine).
 */
export function queryTrigrams(query: string): string[] {
  const grams = new Set<string>();
  for (const [run] of query.toLowerCase().matchAll(WORD_RUN)) {
    if (HAS_CJK.test(run)) gramsOf(run, 3, grams);
    else everyOtherGram(run, grams);
  }
  return [...grams];
}

/**
 * Every trigram inside the text's lower-cased letter/digit runs, repeats included (their count is
 * the term frequency): what a stored text is indexed by. A query asks for a subset of these
 * (`queryTrigrams`), so the two always meet.
 */
export function documentTrigrams(text: string): string[] {
  const out: string[] = [];
  for (const [run] of text.toLowerCase().matchAll(WORD_RUN)) {
    const chars = Array.from(run);
    for (let i = 0; i + 3 <= chars.length; i++) out.push(chars[i]! + chars[i + 1]! + chars[i + 2]!);
  }
  return out;
}

const HAS_CJK = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u;

/** A run's trigrams at even offsets, and its last: every character is in one. */
function everyOtherGram(run: string, into: Set<string>): void {
  const chars = Array.from(run);
  for (let i = 0; i + 3 <= chars.length; i += 2) into.add(chars.slice(i, i + 3).join(""));
  if (chars.length >= 3) into.add(chars.slice(-3).join(""));
}

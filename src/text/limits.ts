/**
 * How much of one text the analysers read. Cutting into pieces (`pieces.ts`) bounds the cost of
 * each step; these caps bound the total, so that a 15 MB message costs what a long one does
 * (before them, one such message through `/v1` took 46 s and 6.7 GB of memory, most of it word
 * lists, gram sets and hash-embedding arrays of the whole text).
 *
 * The text itself is always stored and shown whole; only what is derived from it for search is
 * cut. Token counts are not cut either: they cover the whole text (see `tokens.ts`).
 */

/**
 * Characters of a stored text that go into its search words, grams, TF-IDF vector and embedding:
 * two or three pages. A pasted document is found by its start; the longest message in LoCoMo or
 * MADial is under 1,000 characters, so no ordinary message is cut. Why not more: the steps after
 * segmentation (TF-IDF weights, the hash embedding, FTS5 inserts) each run in one synchronous
 * stretch, 5–20 ms each on 10,000 random CJK characters (measured), and a health check waits
 * behind the longest stretch.
 */
export const ANALYSED_CHARS = 5_000;

/**
 * Characters of a recall query that are searched for. A query's terms are ORed in FTS5 MATCH
 * expressions whose cost grows with their count: 20,000 random CJK characters made ~15,000 terms
 * a channel and 3.5 s of synchronous SQL on an empty store; 1,000 characters cost 27 ms, 500 about
 * half. The longest LoCoMo question is 131 characters, the longest MADial dialogue query 386.
 */
export const QUERY_CHARS = 500;

/** Of a query over QUERY_CHARS, this share is its start (what it opens with), the rest its end. */
const QUERY_HEAD_SHARE = 0.25;

const isLowSurrogate = (code: number) => code >= 0xdc00 && code <= 0xdfff;

/** `text.slice(start, end)` moved inward so that no surrogate pair is cut in half. */
function sliceWhole(text: string, start: number, end: number): string {
  if (start > 0 && isLowSurrogate(text.charCodeAt(start))) start++;
  if (end < text.length && isLowSurrogate(text.charCodeAt(end))) end--;
  return text.slice(start, end);
}

/** The part of a stored text that search analyses: its first ANALYSED_CHARS characters. */
export function analysedPart(text: string): string {
  return text.length <= ANALYSED_CHARS ? text : sliceWhole(text, 0, ANALYSED_CHARS);
}

/**
 * The part of a recall query that is searched for: all of it up to QUERY_CHARS, else its start
 * and its end on separate lines — a pasted log usually comes with the question before or after it,
 * and `shapeQuery` already weighs a query's last lines most.
 */
export function queryPart(text: string): string {
  if (text.length <= QUERY_CHARS) return text;
  const head = Math.floor(QUERY_CHARS * QUERY_HEAD_SHARE);
  return `${sliceWhole(text, 0, head)}\n${sliceWhole(text, text.length - (QUERY_CHARS - head), text.length)}`;
}

/**
 * From a query to the terms each BM25 channel asks for, weighted. A recall query is often not a
 * question but a stretch of dialogue (a client that sends the last turns, a multi-line message),
 * one utterance a line, and three things about such text matter for ranking:
 *
 * - speaker tags (`<Bart>: "…"`, `<Assistant>:`) are transcript markup, not content: a memory
 *   that names the speaker must not match every line the speaker said;
 * - function words are most of a dialogue's words and say nothing of its topic (`contentText`);
 * - the last lines say what the conversation is about now, so their terms weigh more.
 *
 * Measured on MADial-Bench zh dev (bench/madial): function words out R@1/3/5/10 .243/.391/.517/
 * .668 → .280/.436/.517/.658; the last two lines doubled → .305/.460/.530/.661 (three or four
 * lines, or tripled, were worse). A one- or two-line query gets every term once: LoCoMo's
 * questions rank exactly as before.
 */
import { contentText, queryBigrams, queryTrigrams, searchWords } from "../text/index.ts";

/**
 * The last RECENT_LINES lines (the last exchange) say what the conversation is about now: their
 * terms count RECENT_WEIGHT times, older lines' once. Weights reach FTS5 as repetitions of a term
 * in the MATCH expression — its bm25() sums over the expression's phrases, so a term given twice
 * counts twice.
 */
export const RECENT_LINES = 2;
export const RECENT_WEIGHT = 2;

/** A line that opens with `<name>:` (ASCII or full-width colon): a transcript's speaker tag. */
const SPEAKER_TAG = /^<[^<>\n]{1,64}>\s*[:：]\s*/;

/** Terms per channel, each repeated as often as it weighs. */
export type QueryTerms = { words: string[]; trigrams: string[]; bigrams: string[] };

/** The query's utterances: its non-empty lines, without speaker tags. */
export function utterances(query: string): string[] {
  return query
    .split("\n")
    .map((line) => line.trim().replace(SPEAKER_TAG, "").trim())
    .filter((line) => line.length > 0);
}

/**
 * Each distinct term RECENT_WEIGHT times if it is in one of the last RECENT_LINES lines (a topic
 * still talked about is recent), else once. When every line is recent — a short query — all
 * would weigh the same, so each term is given once: the same ranking for a shorter MATCH.
 */
function weighted(perLine: readonly (readonly string[])[]): string[] {
  const recentFrom = perLine.length > RECENT_LINES ? perLine.length - RECENT_LINES : Infinity;
  const copies = new Map<string, number>();
  perLine.forEach((terms, i) => {
    const weight = i >= recentFrom ? RECENT_WEIGHT : 1;
    for (const term of terms) copies.set(term, Math.max(copies.get(term) ?? 0, weight));
  });
  return [...copies].flatMap(([term, n]) => Array<string>(n).fill(term));
}

async function termsOf(lines: readonly string[]): Promise<QueryTerms> {
  const words = await Promise.all(lines.map(async (line) => [...new Set(await searchWords(line))]));
  return {
    words: weighted(words),
    trigrams: weighted(lines.map(queryTrigrams)),
    bigrams: weighted(lines.map(queryBigrams)),
  };
}

export async function shapeQuery(query: string): Promise<QueryTerms> {
  const said = utterances(query);
  const terms = await termsOf(await Promise.all(said.map((line) => contentText(line))));
  // A query of nothing but function words ("他们呢？") is asked as it is: those words are all
  // the user gave, and finding something is better than finding nothing.
  if (terms.words.length + terms.trigrams.length + terms.bigrams.length > 0) return terms;
  return termsOf(said);
}

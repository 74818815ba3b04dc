/**
 * What the search index holds of one document: its terms per channel, with their weighted
 * frequency, and its length per channel. The same analysis as the queries' (`searchWords`,
 * trigrams and CJK bigrams from src/text), so that a query's terms meet the stored ones.
 */
import { analysedPart, cjkBigrams, documentTrigrams, LineMemo, searchWords, yieldIfLong } from "../text/index.ts";
import { INDEX_CHANNELS, type IndexChannel } from "./postings-codec.ts";

/**
 * What a document is found by: its own text and, for a message, its neighbours' (`context`).
 * Apart so that a term in the neighbours counts CONTEXT_WEIGHT of one in the message itself.
 */
export type SearchText = { own: string; context?: string };

/**
 * How much a term counts in the neighbours' text next to the message's own. Below 1 so that the
 * message that says the words ranks above the neighbours that only carry them: in a three-turn
 * session all three documents hold the same words, and with equal weights they tied. Half, not
 * less: the neighbours are there because an answer rarely repeats its question's words, and that
 * context must still find it. (Postings store twice the weighted frequency, a whole number: own
 * text 2 an occurrence, context 1 — change both together.)
 */
export const CONTEXT_WEIGHT = 0.5;

/** One letter before each term names its channel: one postings table serves all three. */
export const TERM_PREFIX: Record<IndexChannel, string> = { words: "w", trigrams: "t", bigrams: "b" };

export type AnalysedDoc = {
  /** Prefixed term → twice its weighted frequency (own occurrences × 2 + context occurrences). */
  terms: Map<string, number>;
  /** Tokens per channel, own and context together (BM25's document length). */
  lengths: Record<IndexChannel, number>;
};

/**
 * A text's length for the trigram channel: its characters, as FTS5's trigram tokenizer counted
 * it (every window of three, spaces and punctuation included), not only the trigrams indexed —
 * so that length normalisation weighs a message as the FTS5 ranking it replaces did (measured
 * equal or within a point on LoCoMo and MADial, see docs/benchmarks.md, Recall speed).
 */
export const trigramLength = (part: string) => Math.max(0, part.length - 2);

/** A line's terms per channel, prefixed. */
export type LineTerms = Record<IndexChannel, readonly string[]>;

/**
 * Lines whose terms are remembered. Words, trigrams and bigrams never cross a line break, so a
 * text's terms are its lines' terms; a message indexed as its own text and as its neighbours'
 * context (an import: up to five times) is analysed once (its speaker apart: speakerAndRest).
 * Two generations of 1,024 lines cover the neighbours of 100
 * sessions interleaved line by line, and hold a few MB (4,096 held 50 MB more at the peak of an
 * 8k-message import).
 */
const remembered = new LineMemo<LineTerms>(1_024);

/** A line's terms per channel, prefixed: remembered (see above). */
export async function lineTerms(line: string): Promise<LineTerms> {
  const known = remembered.get(line);
  if (known) return known;
  const prefixed = (channel: IndexChannel, tokens: readonly string[]) => tokens.map((t) => TERM_PREFIX[channel] + t);
  const words = prefixed("words", await searchWords(line));
  await yieldIfLong();
  const trigrams = prefixed("trigrams", documentTrigrams(line));
  await yieldIfLong();
  const terms: LineTerms = { words, trigrams, bigrams: prefixed("bigrams", cjkBigrams(line)) };
  remembered.set(line, terms);
  return terms;
}

/**
 * A message's own text starts with its speaker (`Alice: …`, cold-event.ts' searchText), and the
 * rest of that line is the very line its neighbours carry as context. Analysed apart, the rest is
 * found in the memo instead of being segmented a second time (jieba was a third of an import's
 * analysis). Exact, not an approximation: words, trigrams and bigrams all break at ": ", so a
 * line's terms are its two sides' (checked on every line of LoCoMo, MADial and the bench corpus).
 */
function speakerAndRest(line: string): string[] {
  const at = line.indexOf(": ");
  return at < 0 ? [line] : [line.slice(0, at), line.slice(at + 2)];
}

/** Adds each of `prefixed` (terms with their channel's letter) `weight` times to a document's counts. */
export function countTerms(terms: Map<string, number>, prefixed: readonly string[], weight: number): void {
  for (const term of prefixed) terms.set(term, (terms.get(term) ?? 0) + weight);
}

/** A line of a document and how much its terms count: 2 in the document's own text, 1 in its neighbours'. */
export type WeightedLine = { line: string; weight: 1 | 2 };

/**
 * The lines a document is indexed by, and its length for the trigram channel. A document is
 * indexed by the first ANALYSED_CHARS characters of its own text followed by its context, one
 * budget for both (`text/limits.ts`): the reply to a pasted page must not index the page's first
 * ANALYSED_CHARS again, in full.
 */
export function documentLines(text: SearchText): { lines: WeightedLine[]; trigramLength: number } {
  const own = analysedPart(text.own);
  const context = analysedPart(`${own}\n${text.context ?? ""}`).slice(own.length + 1);
  const lines: WeightedLine[] = [];
  let trigrams = 0;
  for (const [part, weight] of [
    [own, 2],
    [context, 1],
  ] as const) {
    if (!part) continue;
    const split = part.split("\n");
    if (weight === 2) split.splice(0, 1, ...speakerAndRest(split[0]!));
    for (const line of split) lines.push({ line, weight });
    trigrams += trigramLength(part);
  }
  return { lines, trigramLength: trigrams };
}

/** Analyses a document (see documentLines): its terms' weighted counts and its length per channel. */
export async function analyseDocument(text: SearchText): Promise<AnalysedDoc> {
  const { lines, trigramLength } = documentLines(text);
  const terms = new Map<string, number>();
  const lengths: Record<IndexChannel, number> = { words: 0, trigrams: trigramLength, bigrams: 0 };
  for (const { line, weight } of lines) {
    const found = await lineTerms(line);
    for (const channel of INDEX_CHANNELS) {
      countTerms(terms, found[channel], weight);
      if (channel !== "trigrams") lengths[channel] += found[channel].length;
    }
    await yieldIfLong();
  }
  return { terms, lengths };
}

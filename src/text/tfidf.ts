/**
 * TF-IDF word vectors: the relevance fallback when an event has no dense vector (DESIGN §3).
 * Sparse vectors are plain `{term: weight}` records so they store as JSON unchanged.
 *
 * Hand-written because it is twenty lines of arithmetic over words jieba already produced;
 * the npm TF-IDF packages bring their own (English-only) tokenizers and stemmers.
 */

export type SparseVector = Record<string, number>;

/** Document frequencies of a set of documents, each given as its words. */
export class TfidfCorpus {
  private readonly df = new Map<string, number>();
  private docs = 0;

  static fromDocuments(documents: Iterable<Iterable<string>>): TfidfCorpus {
    const corpus = new TfidfCorpus();
    for (const words of documents) corpus.add(words);
    return corpus;
  }

  get documents(): number {
    return this.docs;
  }

  add(words: Iterable<string>): void {
    this.docs++;
    for (const term of new Set(words)) this.df.set(term, (this.df.get(term) ?? 0) + 1);
  }

  /**
   * Smoothed inverse document frequency, ln((1 + n) / (1 + df)) + 1: never zero or negative,
   * so a term that appears everywhere still counts a little and an unseen term counts most.
   */
  idf(term: string): number {
    return Math.log((1 + this.docs) / (1 + (this.df.get(term) ?? 0))) + 1;
  }

  /** L2-normalised vector with sublinear term frequency (1 + ln tf), so repetition saturates. */
  vector(words: readonly string[]): SparseVector {
    const tf = new Map<string, number>();
    for (const w of words) tf.set(w, (tf.get(w) ?? 0) + 1);
    const out: SparseVector = {};
    let norm = 0;
    for (const [term, count] of tf) {
      const weight = (1 + Math.log(count)) * this.idf(term);
      out[term] = weight;
      norm += weight * weight;
    }
    norm = Math.sqrt(norm);
    if (norm > 0) for (const term in out) out[term]! /= norm;
    return out;
  }
}

/** Cosine similarity of two sparse vectors (0 when either is empty). */
export function sparseCosine(a: SparseVector, b: SparseVector): number {
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (const term in a) {
    const x = a[term]!;
    na += x * x;
    const y = b[term];
    if (y !== undefined) dot += x * y;
  }
  for (const term in b) nb += b[term]! * b[term]!;
  return na === 0 || nb === 0 ? 0 : dot / Math.sqrt(na * nb);
}

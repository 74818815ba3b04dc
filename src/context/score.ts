/**
 * Relevance of L1 events to the current input: dense cosine when the event and the query
 * carry vectors from the same model, TF-IDF cosine otherwise (an event written before a real
 * embedder was configured, or one whose embedding failed). Vectors of different models live
 * in different spaces and are never compared.
 */
import { cosine } from "../embed/index.ts";
import { sparseCosine, TfidfCorpus, type SparseVector } from "../text/index.ts";

export type Vectors = {
  dense?: { model: string; vector: Float32Array };
  tfidf?: SparseVector;
};

export type Query = Vectors;

export function relevance(query: Query, event: Vectors): number {
  if (query.dense && event.dense && query.dense.model === event.dense.model) {
    return cosine(query.dense.vector, event.dense.vector);
  }
  if (query.tfidf && event.tfidf) return sparseCosine(query.tfidf, event.tfidf);
  return 0;
}

/**
 * The query's TF-IDF vector, weighted by the document frequencies of the events it will be
 * compared with: a word every L1 event shares says little about which one is relevant.
 */
export function queryTfidf(queryWords: readonly string[], events: readonly Vectors[]): SparseVector {
  const corpus = TfidfCorpus.fromDocuments(events.map((e) => Object.keys(e.tfidf ?? {})));
  return corpus.vector(queryWords);
}

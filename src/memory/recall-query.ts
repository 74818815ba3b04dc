/**
 * One recall query, asked of both layers. Every turn's injection and every `memory_recall` ask
 * cold events (`coldcontextQuery`) and facts (`stableQuery`) with the same text, so the work that
 * depends on the text alone is done once and shared: its shaped terms (jieba segmentation and
 * part-of-speech tagging) and its embedding — a model call, a network round trip with an HTTP
 * embedder.
 */
import { embedText, EmbedTimeoutError, type Embedder } from "../embed/index.ts";
import { queryPart } from "../text/index.ts";
import { shapeQuery, type QueryTerms } from "./query-shape.ts";

export type RecallQuery = {
  readonly text: string;
  terms(): Promise<QueryTerms>;
  /** The query's vector as a blob, or undefined when the embedder ran out of its time budget. */
  vector(embedder: Embedder): Promise<Uint8Array | undefined>;
};

async function embedQuery(embedder: Embedder, text: string): Promise<Uint8Array | undefined> {
  try {
    const vector = await embedText(embedder, text, { purpose: "query" });
    return new Uint8Array(vector.buffer, vector.byteOffset, vector.byteLength);
  } catch (error) {
    // A slow embedding service must not hold up recall: this query goes without vectors.
    if (error instanceof EmbedTimeoutError) return undefined;
    throw error;
  }
}

export function recallQuery(text: string): RecallQuery {
  let terms: Promise<QueryTerms> | undefined;
  const vectors = new Map<string, Promise<Uint8Array | undefined>>();
  return {
    text,
    // A query of any length asks for the terms of at most QUERY_CHARS of it (its start and end).
    terms: () => (terms ??= shapeQuery(queryPart(text))),
    vector(embedder) {
      let vector = vectors.get(embedder.modelId);
      if (!vector) vectors.set(embedder.modelId, (vector = embedQuery(embedder, text)));
      return vector;
    },
  };
}

/** A caller with one layer to ask may pass the text itself. */
export const asRecallQuery = (query: string | RecallQuery): RecallQuery => (typeof query === "string" ? recallQuery(query) : query);

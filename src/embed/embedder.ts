/**
 * The embedder interface every driver implements (ONNX Chinese-CLIP, OpenAI-compatible
 * `/embeddings`, the deterministic fallback). Vectors are tagged with `modelId`: vectors from
 * different models live in different spaces and are never compared or indexed together.
 */
import { HomedError } from "../errors/index.ts";
/**
 * Why a vector is wanted. A `query` is on the user's critical path: drivers that can be slow
 * give up after their time budget (throwing `EmbedTimeoutError`) so recall proceeds without
 * the vector channel. A `write` may wait and retry, since a stored record without its vector
 * costs recall quality for as long as it lives.
 */
export type EmbedPurpose = "query" | "write";
export type EmbedOptions = { purpose?: EmbedPurpose };

export interface Embedder {
  /** Identifies the vector space, e.g. `fallback-hash-v1@512` or `chinese-clip-vit-b16@512`. */
  readonly modelId: string;
  /** Width of its vectors; 0 until known (an HTTP model of unstated width learns it from its first answer). */
  readonly dimension: number;
  /** L2-normalised vectors, one per input, in input order. */
  embedTexts(texts: readonly string[], options?: EmbedOptions): Promise<Float32Array[]>;
  /** Images (JPEG/PNG/WebP file bytes) in the same space as text, when the model has an image encoder. */
  embedImages?(images: readonly Uint8Array[], options?: EmbedOptions): Promise<Float32Array[]>;
  /**
   * A second model that embeds images when this one cannot (Chinese-CLIP beside a sentence
   * encoder): image vectors are its own, tagged with its `modelId` — a space apart, never
   * compared with this model's — and a text query reaches them through its text tower.
   */
  readonly images?: Embedder;
  /** Frees model memory; the embedder must not be used afterwards. */
  close?(): Promise<void>;
}

/** The per-query time budget ran out; callers treat the vector channel as absent for this query. */
export class EmbedTimeoutError extends HomedError {
  constructor(modelId: string, budgetMs: number, options?: ErrorOptions) {
    super("embed_timeout", `Cannot embed the query with ${modelId}: no answer within ${budgetMs} ms`, options);
    this.name = "EmbedTimeoutError";
  }
}

/** An embedder failed for a reason other than time (bad answer, model error, refused request). */
export class EmbedError extends HomedError {
  constructor(message: string, options?: ErrorOptions) {
    super("embed", message, options);
    this.name = "EmbedError";
  }
}

/** The model that embeds images for `embedder`'s memory (itself, or the second model beside it), if any. */
export function imageEmbedder(embedder: Embedder): Embedder | undefined {
  if (embedder.embedImages) return embedder;
  return embedder.images?.embedImages ? embedder.images : undefined;
}

/**
 * `text` for text, `images` for images: what select.ts builds when a text-only model (a sentence
 * encoder, an OpenAI-compatible endpoint) is installed beside Chinese-CLIP. Closing it closes both.
 */
export function withImageModel(text: Embedder, images: Embedder): Embedder {
  return {
    modelId: text.modelId,
    get dimension() {
      return text.dimension;
    },
    embedTexts: (texts, options) => text.embedTexts(texts, options),
    images,
    close: async () => {
      await Promise.all([text.close?.(), images.close?.()]);
    },
  };
}

export async function embedText(embedder: Embedder, text: string, options?: EmbedOptions): Promise<Float32Array> {
  const [vector] = await embedder.embedTexts([text], options);
  if (!vector) throw new Error(`Cannot embed text: ${embedder.modelId} returned no vector`);
  return vector;
}

/** Scales a vector to unit length in place (a zero vector stays zero). */
export function normalize(vector: Float32Array): Float32Array {
  let sum = 0;
  for (const v of vector) sum += v * v;
  const norm = Math.sqrt(sum);
  if (norm > 0) for (let i = 0; i < vector.length; i++) vector[i]! /= norm;
  return vector;
}

/** Cosine similarity; both vectors must come from the same model. */
export function cosine(a: Float32Array, b: Float32Array): number {
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (let i = 0; i < a.length; i++) {
    dot += a[i]! * b[i]!;
    na += a[i]! * a[i]!;
    nb += b[i]! * b[i]!;
  }
  return na === 0 || nb === 0 ? 0 : dot / Math.sqrt(na * nb);
}

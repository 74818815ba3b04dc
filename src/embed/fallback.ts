/**
 * The deterministic fallback embedder: feature hashing of character unigrams, bigrams and
 * trigrams (lower-cased, whitespace-collapsed) into a signed 512-dim vector. It needs no model,
 * always answers, and gives lexical similarity only — no meaning. It is what runs until a real
 * model is configured, and it says so through its `modelId`.
 */
import { analysedPart } from "../text/index.ts";
import { VECTOR_DIM } from "../store/vector.ts";
import { normalize, type Embedder } from "./embedder.ts";

/** FNV-1a 32-bit: a fast, stable string hash (stability matters: stored vectors must stay valid). */
function fnv1a(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}

export function hashEmbed(text: string, dimension = VECTOR_DIM): Float32Array {
  const vector = new Float32Array(dimension);
  const chars = Array.from(text.toLowerCase().replace(/\s+/g, " ").trim());
  for (let n = 1; n <= 3; n++) {
    const weight = n === 1 ? 0.5 : 1;
    for (let i = 0; i + n <= chars.length; i++) {
      // Concatenated, not chars.slice().join(): the same gram, three times faster.
      const gram = n === 1 ? chars[i]! : n === 2 ? chars[i]! + chars[i + 1]! : chars[i]! + chars[i + 1]! + chars[i + 2]!;
      if (gram.trim() === "") continue;
      const h = fnv1a(gram);
      vector[h % dimension]! += h & 0x80000000 ? -weight : weight;
    }
  }
  return normalize(vector);
}

export function createFallbackEmbedder(dimension = VECTOR_DIM): Embedder {
  return {
    modelId: `fallback-hash-v1@${dimension}`,
    dimension,
    // Only the analysed part (`text/limits.ts`): hashing the grams of a 15 MB text took gigabytes.
    embedTexts: async (texts) => texts.map((t) => hashEmbed(analysedPart(t), dimension)),
  };
}

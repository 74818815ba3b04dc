/**
 * The vector channel (DESIGN §3): cold events ranked by cosine distance to the query in the
 * configured embedder's space, never another model's. Images live in the same space as text
 * with Chinese-CLIP alone; beside a text-only model they live in CLIP's own space, searched with
 * the query embedded by CLIP's text tower (`mergeByRank`).
 */
import type { Client } from "@libsql/client";
import { imageEmbedder, type Embedder } from "../embed/index.ts";
import type { Ranked } from "./channels.ts";
import type { RecallQuery } from "./recall-query.ts";
import { coldScopeOf, type RecallScope } from "./scope.ts";
import { RRF_K } from "./fusion.ts";
import { aboveNoiseFloor } from "./vector-floor.ts";
import { coldVectorCount, ensureVectorSpace, findVectorSpace, INDEX_FROM_VECTORS, nearestColdEvents, nearestColdImages } from "../store/index.ts";

/**
 * Up to this many events in scope are compared exactly (a scan of their vectors). Beyond it the
 * model's DiskANN index answers (its vector space, src/store/vector-spaces.ts; until that exists
 * the scan answers and the space is built in the background). Why not always the index: `vector_top_k` ranks the whole table before
 * the scope applies, so a small conversation among a million events would get no neighbours.
 * Why not always the scan: it reads every vector in scope (95 ms for 10k measured, vs ~6 ms
 * through the index).
 */
export const EXACT_SCAN_LIMIT = INDEX_FROM_VECTORS;
/**
 * Index neighbours fetched per wanted result. With a conversation scope the index ranks other
 * conversations' events too, so it is asked for more; without one only other models' and L1
 * events are dropped after it, and asking for 10× costs a slower index walk for nothing.
 */
const INDEX_OVERFETCH = { scoped: 10, unscoped: 2 };

/** Spaces being built by this process, per database, so a burst of queries starts one build, not one each. */
const building = new WeakMap<Client, Set<string>>();

/** The model's indexed space, or undefined (then its build starts in the background). */
async function indexedSpace(client: Client, model: string) {
  const space = await findVectorSpace(client, model);
  const started = building.get(client) ?? new Set<string>();
  if (!space && !started.has(model)) {
    building.set(client, started.add(model));
    void ensureVectorSpace(client, model)
      .catch(() => undefined) // the next query that needs the index tries again
      .finally(() => started.delete(model));
  }
  return space;
}

/**
 * Text hits and image hits from two vector spaces as one ranking. Cosines of two models are on
 * different scales (CLIP's text-to-image similarities sit far below a sentence encoder's
 * text-to-text ones), so they are merged by rank as fusion merges channels: Σ 1/(60 + rank),
 * the score reported. The first text hit and the first image hit thus stand side by side, and
 * the channel's weight in fusion (`fusion.weights.vector`) applies to both, as it does when one
 * CLIP space holds text and images.
 */
export function mergeByRank(texts: Ranked, images: Ranked): Ranked {
  const merged = new Map<string, number>();
  for (const ranked of [texts, images]) {
    for (const [i, { id }] of ranked.entries()) merged.set(id, (merged.get(id) ?? 0) + 1 / (RRF_K + i + 1));
  }
  // Ties keep first-seen order (text first): deterministic.
  return [...merged].map(([id, score]) => ({ id, score })).sort((a, b) => b.score - a.score);
}

export async function vectorChannel(client: Client, embedder: Embedder, query: RecallQuery, scope: RecallScope, limit: number, exactScanLimit: number = EXACT_SCAN_LIMIT): Promise<Ranked> {
  const imageModel = imageEmbedder(embedder);
  if (imageModel && imageModel !== embedder) {
    const [texts, pictures] = await Promise.all([
      vectorChannel(client, { ...embedder, images: undefined }, query, scope, limit, exactScanLimit),
      imageChannel(client, imageModel, query, scope, limit),
    ]);
    return mergeByRank(texts, pictures).slice(0, limit);
  }
  const blob = await query.vector(embedder);
  if (!blob) return [];
  const cold = coldScopeOf(scope);
  const asked = { vector: blob, modelId: embedder.modelId };
  // The count only chooses scan or index: counted without the viewer's private-scope test, it
  // stays an index-only count (private memories are few; the search itself applies the test).
  const inScope = await coldVectorCount(client, { ...cold, privateScopes: undefined }, embedder.modelId);
  const space = inScope <= exactScanLimit ? undefined : await indexedSpace(client, embedder.modelId);
  const index = space && { space, candidates: limit * INDEX_OVERFETCH[scope.conversation === undefined ? "unscoped" : "scoped"] };
  const texts = await nearestColdEvents(client, asked, cold, limit, index);
  const images = imageModel ? await nearestColdImages(client, asked, cold, limit) : [];
  // An event's score is its best: its own text's vector or its nearest image.
  const best = new Map<string, number>();
  for (const { id, distance } of [...texts, ...images]) best.set(id, Math.max(best.get(id) ?? -Infinity, 1 - distance));
  return aboveNoiseFloor([...best].map(([id, score]) => ({ id, score })))
    .sort((a, b) => b.score - a.score)
    .slice(0, limit);
}

/** Events whose images are nearest the query in the image model's own space (CLIP beside a text-only model). */
async function imageChannel(client: Client, images: Embedder, query: RecallQuery, scope: RecallScope, limit: number): Promise<Ranked> {
  const blob = await query.vector(images);
  if (!blob) return [];
  const nearest = await nearestColdImages(client, { vector: blob, modelId: images.modelId }, coldScopeOf(scope), limit);
  return aboveNoiseFloor(nearest.map(({ id, distance }) => ({ id, score: 1 - distance })));
}

/**
 * The vector channel (DESIGN §3): cold events ranked by cosine distance to the query in the
 * configured embedder's space, never another model's; images live in the same space as text.
 */
import type { Client } from "@libsql/client";
import type { Embedder } from "../embed/index.ts";
import type { Ranked } from "./channels.ts";
import type { RecallQuery } from "./recall-query.ts";
import { scopeFilter, type RecallScope } from "./scope.ts";
import { aboveNoiseFloor } from "./vector-floor.ts";
import { ensureVectorSpace, findVectorSpace, INDEX_FROM_VECTORS } from "../store/index.ts";

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

/**
 * Events whose image blocks are near the query: images live in the same space as text, so a
 * text query finds the photo. Exact scan: image blocks are few next to text.
 */
async function imageNeighbours(client: Client, blob: Uint8Array, modelId: string, scope: RecallScope, limit: number): Promise<Ranked> {
  const filter = scopeFilter(scope);
  const rows = await client.execute({
    sql: `SELECT b.event_id AS id, min(vector_distance_cos(b.embedding, vector32(?))) AS distance
          FROM blocks b JOIN events e ON e.id = b.event_id
          WHERE b.kind = 'image' AND b.embed_model = ? AND b.embedding IS NOT NULL AND ${filter.sql}
          GROUP BY b.event_id ORDER BY distance LIMIT ?`,
    args: [blob, modelId, ...filter.args, limit],
  });
  return rows.rows.map((r) => ({ id: String(r.id), score: 1 - Number(r.distance) }));
}

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

export async function vectorChannel(client: Client, embedder: Embedder, query: RecallQuery, scope: RecallScope, limit: number, exactScanLimit: number = EXACT_SCAN_LIMIT): Promise<Ranked> {
  const blob = await query.vector(embedder);
  if (!blob) return [];
  const filter = scopeFilter(scope);
  // The count only chooses scan or index: counted without the viewer's private-scope test, it
  // stays an index-only count (private memories are few; the search itself applies the test).
  const counted = scopeFilter({ ...scope, viewer: undefined });
  const inScope = await client.execute({
    sql: `SELECT count(*) AS n FROM events e WHERE ${counted.sql} AND e.embed_model = ?`,
    args: [...counted.args, embedder.modelId],
  });
  const space = Number(inScope.rows[0]?.n ?? 0) <= exactScanLimit ? undefined : await indexedSpace(client, embedder.modelId);
  const exact = space === undefined;
  const from = exact ? "events e" : `vector_top_k('${space.index}', vector32(?), ?) AS k JOIN events e ON e.rowid = k.id`;
  const fromArgs = exact ? [] : [blob, limit * INDEX_OVERFETCH[scope.conversation === undefined ? "unscoped" : "scoped"]];
  const rows = await client.execute({
    sql: `SELECT e.id AS id, vector_distance_cos(e.embedding, vector32(?)) AS distance
          FROM ${from}
          WHERE ${filter.sql} AND e.embed_model = ? AND e.embedding IS NOT NULL
          ORDER BY distance LIMIT ?`,
    args: [blob, ...fromArgs, ...filter.args, embedder.modelId, limit],
  });
  // An event's score is its best: its own text's vector or its nearest image.
  const best = new Map<string, number>();
  const texts = rows.rows.map((r) => ({ id: String(r.id), score: 1 - Number(r.distance) }));
  for (const { id, score } of [...texts, ...(await imageNeighbours(client, blob, embedder.modelId, scope, limit))]) {
    best.set(id, Math.max(best.get(id) ?? -Infinity, score));
  }
  return aboveNoiseFloor([...best].map(([id, score]) => ({ id, score })))
    .sort((a, b) => b.score - a.score)
    .slice(0, limit);
}

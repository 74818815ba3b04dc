/**
 * The vector channel's queries (memory/vector-channel.ts) as typed sql templates: cold events in a
 * scope by cosine distance to a query vector in one model's space — their text's vector, by an
 * exact scan or through the model's DiskANN index (vector-spaces.ts), and their image blocks'.
 */
import { sql, type SQL } from "drizzle-orm";
import { queryDb, type Executor } from "./query-db.ts";
import { coldScopeSql, type ColdScope } from "./cold-scope.ts";
import type { VectorSpace } from "./vector-spaces.ts";

/** An event and its cosine distance to the query vector (0: same direction). */
export type EventDistance = { id: string; distance: number };

/**
 * Cold events in `scope` holding a vector of `modelId`. The caller counts without the viewer's
 * privacy test (`privateScopes` undefined) to keep this an index-only count.
 */
export async function coldVectorCount(client: Executor, scope: ColdScope, modelId: string): Promise<number> {
  const [row] = await queryDb(client).all<{ n: number }>(sql`SELECT count(*) AS n FROM events e WHERE ${coldScopeSql(scope)} AND e.embed_model = ${modelId}`);
  return Number(row?.n ?? 0);
}

/**
 * The `limit` events in `scope` whose text's vector is nearest. Without `index` every vector in
 * scope is compared (exact); with it the model's DiskANN index lists `candidates` neighbours
 * store-wide first and the scope applies to those.
 */
export function nearestColdEvents(
  client: Executor,
  query: { vector: Uint8Array; modelId: string },
  scope: ColdScope,
  limit: number,
  index?: { space: VectorSpace; candidates: number },
): Promise<EventDistance[]> {
  const from: SQL = index ? sql`${sql.raw(`vector_top_k('${index.space.index}'`)}, vector32(${query.vector}), ${index.candidates}) AS k JOIN events e ON e.rowid = k.id` : sql`events e`;
  return queryDb(client).all(
    sql`SELECT e.id AS id, vector_distance_cos(e.embedding, vector32(${query.vector})) AS distance
          FROM ${from}
          WHERE ${coldScopeSql(scope)} AND e.embed_model = ${query.modelId} AND e.embedding IS NOT NULL
          ORDER BY distance LIMIT ${limit}`,
  );
}

/**
 * Events in `scope` whose image blocks are near the query vector, each at its nearest image.
 * Exact scan: image blocks are few next to text.
 */
export function nearestColdImages(client: Executor, query: { vector: Uint8Array; modelId: string }, scope: ColdScope, limit: number): Promise<EventDistance[]> {
  return queryDb(client).all(
    sql`SELECT b.event_id AS id, min(vector_distance_cos(b.embedding, vector32(${query.vector}))) AS distance
          FROM blocks b JOIN events e ON e.id = b.event_id
          WHERE b.kind = 'image' AND b.embed_model = ${query.modelId} AND b.embedding IS NOT NULL AND ${coldScopeSql(scope)}
          GROUP BY b.event_id ORDER BY distance LIMIT ${limit}`,
  );
}

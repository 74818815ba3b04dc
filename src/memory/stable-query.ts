/**
 * Ranked retrieval over L3 facts: BM25 over words and over character trigrams/bigrams of each
 * fact's "subject predicate object" text, fused by RRF like cold context. Scope applies inside
 * the SQL: a conversation sees its own facts and user-wide ones. With an embedder, a vector
 * channel joins: an exact scan over the facts' vectors of that model (L3 is small — distilled —
 * so a scan stays cheap where events need the DiskANN index). Facts have search tables of their
 * own (`SEARCH_TABLES.triple`): however large cold history grows, a facts query reads none of it.
 */
import type { Client, InValue } from "@libsql/client";
import type { Embedder } from "../embed/index.ts";
import { bm25Of, scopedMatch, SEARCH_TABLES, type SearchTable } from "../store/index.ts";
import type { Ranked } from "./channels.ts";
import { fuseRrf } from "./fusion.ts";
import { channelDepth, preferOwn, type Prefer } from "./query.ts";
import { asRecallQuery, type RecallQuery } from "./recall-query.ts";
import { viewerFilter, type SqlFilter, type Viewer } from "./scope.ts";

export type StableCandidate = {
  id: string;
  layer: "L3";
  score: number;
  /** The channels that found it (none for the active window, which is not a search). */
  channels: string[];
  text: string;
  evidence: string;
  importance: number;
  citedCount: number;
  updatedAt: number;
};

/** Which facts a query sees: a conversation filter (tools, benchmarks) and/or a chat's viewer. */
export type FactScope = { conversation?: string; viewer?: Viewer };

/** `AND …` conditions on alias `t` (triples) for a fact scope. */
function factFilter(scope: FactScope): SqlFilter {
  const parts: string[] = [];
  const args: InValue[] = [];
  if (scope.conversation !== undefined) {
    parts.push("AND t.scope IN (?, 'user')");
    args.push(scope.conversation);
  }
  if (scope.viewer !== undefined) {
    const visible = viewerFilter(scope.viewer, "t");
    parts.push(`AND ${visible.sql}`);
    args.push(...visible.args);
  }
  return { sql: parts.join(" "), args };
}

async function factBm25(client: Client, table: SearchTable, terms: readonly string[], scope: FactScope, limit: number): Promise<Ranked> {
  if (terms.length === 0) return [];
  const filter = factFilter(scope);
  const rows = await client.execute({
    sql: `SELECT f.doc_id AS id, ${bm25Of(table)} AS rank FROM ${table} f JOIN triples t ON t.id = f.doc_id
          WHERE ${table} MATCH ? ${filter.sql} ORDER BY rank LIMIT ?`,
    args: [scopedMatch(table, terms, scope.conversation), ...filter.args, limit],
  });
  return rows.rows.map((r) => ({ id: String(r.id), score: -Number(r.rank) }));
}

const SELECT_FACTS = `SELECT t.id, t.evidence, t.importance, t.cited_count, t.updated_at, s.content AS subject, t.predicate, o.content AS object
  FROM triples t JOIN blocks s ON s.id = t.subject_block_id JOIN blocks o ON o.id = t.object_block_id`;

function candidate(row: Record<string, unknown>, score: number, channels: string[]): StableCandidate {
  return {
    id: String(row.id),
    layer: "L3",
    score,
    channels,
    text: `${row.subject} ${row.predicate} ${row.object}`,
    evidence: String(row.evidence),
    importance: Number(row.importance),
    citedCount: Number(row.cited_count),
    updatedAt: Number(row.updated_at),
  };
}

async function factVectors(client: Client, embedder: Embedder, query: RecallQuery, scope: FactScope, limit: number): Promise<Ranked> {
  const blob = await query.vector(embedder);
  if (!blob) return [];
  const filter = factFilter(scope);
  const rows = await client.execute({
    sql: `SELECT t.id, vector_distance_cos(t.embedding, vector32(?)) AS distance FROM triples t
          WHERE t.embed_model = ? AND t.embedding IS NOT NULL ${filter.sql} ORDER BY distance LIMIT ?`,
    args: [blob, embedder.modelId, ...filter.args, limit],
  });
  return rows.rows.map((r) => ({ id: String(r.id), score: 1 - Number(r.distance) }));
}

export async function stableQuery(client: Client, text: string | RecallQuery, options: FactScope & { k: number; embedder?: Embedder; /** A chat's own conversation's facts first. */ prefer?: Prefer }): Promise<StableCandidate[]> {
  const depth = channelDepth(options.k);
  // The same query shaping as cold recall: the injection asks both layers with one text.
  const query = asRecallQuery(text);
  const terms = await query.terms();
  const [words, tri, bi, vector] = await Promise.all([
    factBm25(client, SEARCH_TABLES.triple.words, terms.words, options, depth),
    factBm25(client, SEARCH_TABLES.triple.grams, terms.trigrams, options, depth),
    factBm25(client, SEARCH_TABLES.triple.bigrams, terms.bigrams, options, depth),
    options.embedder ? factVectors(client, options.embedder, query, options, depth) : Promise.resolve(undefined),
  ]);
  const grams = new Map<string, number>();
  for (const { id, score } of [...tri, ...bi]) grams.set(id, (grams.get(id) ?? 0) + score);
  const rankings = { words, grams: [...grams].map(([id, score]) => ({ id, score })).sort((a, b) => b.score - a.score), ...(vector ? { vector } : {}) };
  const fused = (await preferOwn(client, "triples", fuseRrf(rankings), options.prefer)).slice(0, options.k);
  if (fused.length === 0) return [];
  const rows = await client.execute({ sql: `${SELECT_FACTS} WHERE t.id IN (${fused.map(() => "?").join(", ")})`, args: fused.map((f) => f.id) });
  const byId = new Map(rows.rows.map((r) => [String(r.id), r]));
  return fused.flatMap((f) => (byId.has(f.id) ? [candidate(byId.get(f.id)!, f.score, Object.keys(f.channels))] : []));
}

/** The most important facts in scope: the active window that is injected every turn. */
export async function importantFacts(client: Client, options: FactScope & { minImportance: number; limit: number }): Promise<StableCandidate[]> {
  const filter = factFilter(options);
  const rows = await client.execute({
    sql: `${SELECT_FACTS} WHERE t.importance >= ? ${filter.sql} ORDER BY t.importance DESC, t.cited_count DESC, t.updated_at DESC LIMIT ?`,
    args: [options.minImportance, ...filter.args, options.limit],
  });
  return rows.rows.map((r) => candidate(r, 0, []));
}

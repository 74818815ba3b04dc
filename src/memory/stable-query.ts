/**
 * Ranked retrieval over L3 facts: BM25 over words and over character trigrams/bigrams of each
 * fact's "subject predicate object" text, fused like cold context. Scope applies inside
 * the SQL: a conversation sees its own facts and user-wide ones. With an embedder, a vector
 * channel joins: an exact scan over the facts' vectors of that model (L3 is small — distilled —
 * so a scan stays cheap where events need the DiskANN index). Facts have search tables of their
 * own (`SEARCH_TABLES.triple`): however large cold history grows, a facts query reads none of it.
 */
import type { Client } from "@libsql/client";
import type { Embedder } from "../embed/index.ts";
import { factBm25Rows, factListings, factVectorRows, importantFactListings, type FactListing, type FactVisibility } from "../store/index.ts";
import { scopedMatch, SEARCH_TABLES, type SearchTable } from "../search/index.ts";
import type { Ranked } from "./channels.ts";
import { fuse } from "./fusion.ts";
import { channelDepth, preferOwn, type Prefer } from "./query.ts";
import { queryCoverage } from "./query-coverage.ts";
import { asRecallQuery, type RecallQuery } from "./recall-query.ts";
import { visibleScopes, type Viewer } from "./scope.ts";

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

/**
 * Which facts a query sees: a conversation filter (tools, benchmarks) and/or a chat's viewer;
 * `since`/`until` bound when the fact was last written (ms since the epoch, inclusive).
 */
export type FactScope = { conversation?: string; viewer?: Viewer; since?: number; until?: number };

/** The store's form of a fact scope. */
const visibilityOf = (scope: FactScope): FactVisibility => ({ conversation: scope.conversation, privateScopes: scope.viewer && visibleScopes(scope.viewer), since: scope.since, until: scope.until });

async function factBm25(client: Client, table: SearchTable, terms: readonly string[], scope: FactScope, limit: number): Promise<Ranked> {
  if (terms.length === 0) return [];
  const rows = await factBm25Rows(client, table, scopedMatch(table, terms, scope.conversation), visibilityOf(scope), limit);
  return rows.map((r) => ({ id: r.id, score: -r.rank }));
}

const factText = (row: FactListing) => `${row.subject} ${row.predicate} ${row.object}`;

function candidate(row: FactListing, score: number, channels: string[]): StableCandidate {
  return {
    id: row.id,
    layer: "L3",
    score,
    channels,
    text: factText(row),
    evidence: row.evidence,
    importance: row.importance,
    citedCount: row.citedCount,
    updatedAt: row.updatedAt,
  };
}

async function factVectors(client: Client, embedder: Embedder, query: RecallQuery, scope: FactScope, limit: number): Promise<Ranked> {
  const blob = await query.vector(embedder);
  if (!blob) return [];
  const rows = await factVectorRows(client, blob, embedder.modelId, visibilityOf(scope), limit);
  return rows.map((r) => ({ id: r.id, score: 1 - r.distance }));
}

export async function stableQuery(
  client: Client,
  text: string | RecallQuery,
  options: FactScope & { k: number; embedder?: Embedder /** A chat's own conversation's facts first. */; prefer?: Prefer },
): Promise<StableCandidate[]> {
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
  const lexical = { words, grams: [...grams].map(([id, score]) => ({ id, score })).sort((a, b) => b.score - a.score) };
  // Every fact either BM25 channel found is read once: for its coverage here, and for the result.
  const found = new Set([...lexical.words, ...lexical.grams, ...(vector ?? [])].map((r) => r.id));
  const byId = new Map((found.size === 0 ? [] : await factListings(client, [...found])).map((r) => [r.id, r]));
  // FTS5 reports no idf to measure coverage by (search-bm25.ts does for events): a fact's is the
  // share of the query's words it holds, so facts earn the coverage fusion's bonus as events do and
  // the two layers' scores stay comparable where they are merged (injection, memory_recall).
  const coverage = new Map<string, number>();
  for (const id of new Set([...lexical.words, ...lexical.grams].map((r) => r.id))) {
    const row = byId.get(id);
    if (row) coverage.set(id, await queryCoverage(terms.words, factText(row)));
  }
  const withCoverage = (ranked: Ranked): Ranked => ranked.map((r) => ({ ...r, coverage: coverage.get(r.id) ?? 0 }));
  const rankings = { words: withCoverage(lexical.words), grams: withCoverage(lexical.grams), ...(vector ? { vector } : {}) };
  const fused = (await preferOwn(client, "triples", fuse(rankings), options.prefer)).slice(0, options.k);
  if (fused.length === 0) return [];
  return fused.flatMap((f) => (byId.has(f.id) ? [candidate(byId.get(f.id)!, f.score, Object.keys(f.channels))] : []));
}

/** The most important facts in scope: the active window that is injected every turn. */
export async function importantFacts(client: Client, options: FactScope & { minImportance: number; limit: number }): Promise<StableCandidate[]> {
  const rows = await importantFactListings(client, options.minImportance, visibilityOf(options), options.limit);
  return rows.map((r) => candidate(r, 0, []));
}

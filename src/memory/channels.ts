/**
 * The three ranked recall channels (DESIGN §3). Each returns cold events best first, with the
 * channel's own score, and applies the scope inside its SQL:
 * - words: BM25 over `searchWords` (jieba search mode, Porter stems) in `memory_words`;
 * - grams: BM25 over character trigrams (`memory_grams`) plus CJK bigrams (`memory_bigrams`),
 *   for substrings jieba cut differently, typos and mixed scripts;
 * - vector: cosine distance in the configured embedder's space, never another model's
 *   (`vector-channel.ts`).
 * The two BM25 channels take the query's terms as `shapeQuery` weighs them.
 */
import type { Client } from "@libsql/client";
import { bm25Of, scopedMatch, SEARCH_TABLES, type SearchTable } from "../store/index.ts";
import type { QueryTerms } from "./query-shape.ts";
import { scopeFilter, type RecallScope } from "./scope.ts";

export const CHANNELS = ["words", "grams", "vector"] as const;
export type Channel = (typeof CHANNELS)[number];

/** One channel's ranking: event ids best first, with the channel's score (higher is better). */
export type Ranked = { id: string; score: number }[];

/**
 * Matches fetched per wanted result on the unscoped fast path: enough to cover the few events the
 * layer filter drops (live L1 ones); when a time window drops more, the full ranking runs.
 */
const UNSCOPED_OVERFETCH = 4;

/**
 * BM25 ranking of one MATCH over one FTS5 table, joined back to events for the layer and time
 * filters. The conversation scope is in the MATCH (each row's scope key), so FTS5 scores only the
 * scope's matches instead of every match in the table.
 *
 * Unscoped, FTS5 first ranks and cuts the whole table itself (`ORDER BY rank LIMIT` on the FTS
 * table alone, search rows keyed by event rowid) and only the best few are joined to events:
 * 100k messages, ~50k matches a query, words+grams 554 → 224 ms. Each table's `rank` is set to
 * `bm25Of`'s weights (migration 0010). Exact: the best `limit` that pass the filter among the
 * best `fetch` matches are the best `limit` of all that pass — unless fewer pass while more
 * matches remain, and then the full ranking runs.
 * Scoped queries keep the full path: there the scope key already cuts the matches (36 ms vs 42).
 */
async function rankMatches(client: Client, table: SearchTable, match: string, scope: RecallScope, limit: number): Promise<Ranked> {
  const filter = scopeFilter(scope);
  let rows;
  if (scope.conversation === undefined) {
    const fetch = limit * UNSCOPED_OVERFETCH;
    const best = await client.execute({
      sql: `SELECT e.id AS id, f.rank AS rank, (${filter.sql}) AS wanted
            FROM (SELECT rowid, rank FROM ${table} WHERE ${table} MATCH ? ORDER BY rank LIMIT ?) f
            LEFT JOIN events e ON e.rowid = f.rowid
            ORDER BY f.rank`,
      args: [...filter.args, match, fetch],
    });
    const wanted = best.rows.filter((r) => Number(r.wanted) === 1).slice(0, limit);
    if (wanted.length === limit || best.rows.length < fetch) rows = wanted;
  }
  rows ??= (
    await client.execute({
      sql: `SELECT e.id AS id, ${bm25Of(table)} AS rank
            FROM ${table} f JOIN events e ON e.rowid = f.rowid
            WHERE ${table} MATCH ? AND ${filter.sql}
            ORDER BY rank LIMIT ?`,
      args: [match, ...filter.args, limit],
    })
  ).rows;
  // FTS5's bm25() is negated so that ascending order is best first; flip it back.
  return rows.map((r) => ({ id: String(r.id), score: -Number(r.rank) }));
}

/**
 * BM25 over any of `terms`, memories that hold every term first. FTS5 scores every match, and
 * over a large store a few common words match most of it (synthetic corpus, 100k messages: about
 * half a query, ranking them costs ten times counting them). When at least `limit` memories hold
 * every term, only those are ranked: each gets exactly the BM25 the any-term ranking gives it
 * (BM25 sums over the query's terms; AND and OR name the same terms), and a memory missing a term
 * ranks after them. Fewer than `limit` — the usual case for a question of several words in one
 * conversation — and the any-term ranking runs as before.
 */
async function bm25(client: Client, table: SearchTable, terms: readonly string[], scope: RecallScope, limit: number): Promise<Ranked> {
  if (terms.length === 0) return [];
  if (new Set(terms).size > 1) {
    const all = scopedMatch(table, terms, scope.conversation, "all");
    // Counting up to `limit` (no BM25, which first reads each term's whole posting list) tells
    // whether ranking them can fill the list; if not, only the any-term ranking is paid for.
    const enough = await client.execute({ sql: `SELECT count(*) AS n FROM (SELECT 1 FROM ${table} WHERE ${table} MATCH ? LIMIT ?)`, args: [all, limit] });
    if (Number(enough.rows[0]!.n) === limit) {
      const every = await rankMatches(client, table, all, scope, limit);
      if (every.length === limit) return every;
    }
  }
  return rankMatches(client, table, scopedMatch(table, terms, scope.conversation), scope, limit);
}

/** `terms` come from `shapeQuery`: a term given n times weighs n times in the BM25 sum. */
export async function wordChannel(client: Client, terms: QueryTerms["words"], scope: RecallScope, limit: number): Promise<Ranked> {
  return bm25(client, SEARCH_TABLES.event.words, terms, scope, limit);
}

/**
 * Trigram and bigram BM25 added per event: BM25 is a sum over query terms, so the sum of the
 * two tables' scores is (up to length normalisation) BM25 over the union of 2- and 3-grams.
 */
export async function gramChannel(client: Client, terms: Pick<QueryTerms, "trigrams" | "bigrams">, scope: RecallScope, limit: number): Promise<Ranked> {
  const [tri, bi] = await Promise.all([
    bm25(client, SEARCH_TABLES.event.grams, terms.trigrams, scope, limit),
    bm25(client, SEARCH_TABLES.event.bigrams, terms.bigrams, scope, limit),
  ]);
  const sum = new Map<string, number>();
  for (const { id, score } of [...tri, ...bi]) sum.set(id, (sum.get(id) ?? 0) + score);
  return [...sum].map(([id, score]) => ({ id, score })).sort((a, b) => b.score - a.score).slice(0, limit);
}

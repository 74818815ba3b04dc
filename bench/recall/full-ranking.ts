/**
 * The unscoped BM25 SQL recall ran before its fast path, kept here to measure against in the
 * same run: every match of each search table is scored, joined to events and sorted, then cut.
 * (Recall today lets FTS5 rank and cut its own table first; see `bm25` in src/memory/channels.ts.)
 */
import type { Client } from "@libsql/client";
import { bm25Of, scopedMatch, type SearchTable } from "../../src/store/index.ts";
import { queryBigrams, queryTrigrams, searchWords } from "../../src/text/index.ts";

export async function fullRankingUnscoped(client: Client, query: string, depth: number): Promise<void> {
  const tables: [SearchTable, string[]][] = [
    ["memory_words", [...new Set(await searchWords(query))]],
    ["memory_grams", queryTrigrams(query)],
    ["memory_bigrams", queryBigrams(query)],
  ];
  for (const [table, terms] of tables) {
    if (terms.length === 0) continue;
    await client.execute({
      sql: `SELECT f.doc_id AS id, ${bm25Of(table)} AS rank
            FROM ${table} f JOIN events e ON e.id = f.doc_id
            WHERE ${table} MATCH ? AND f.kind = 'event' AND e.layer = 'L2'
            ORDER BY rank LIMIT ?`,
      args: [scopedMatch(table, terms), depth],
    });
  }
}

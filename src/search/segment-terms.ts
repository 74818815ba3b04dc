/**
 * A segment's sorted term list, as `search_segment_terms` keeps it: chunks of TERMS_PER_CHUNK
 * consecutive terms, each a JSON array, chunk c holding the terms at positions c·TERMS_PER_CHUNK
 * onwards (every chunk full but the last). The list is how a segment's postings are found by key
 * (term, segment): a merge reads its sources a range of positions at a time, a delete a chunk at
 * a time. It is kept out of the segment's row (migration 0023): an UPDATE of many segment rows
 * held each updated row whole until the commit, and a row with its list was ~0.8 MB at 65k terms.
 */
import type { InStatement } from "@libsql/client";

/**
 * Terms a chunk holds. 2,048: one chunk is what one delete statement removes (~10 ms of SQLite,
 * segments.ts), and a merge's page of MERGE_PAGE_RECORDS (4,096) is two whole chunks, so neither
 * reads a chunk for a few of its terms. A chunk is ~20 KB of JSON. Migration 0023 wrote chunks of
 * this size: changing it needs a migration that rewrites them.
 */
export const TERMS_PER_CHUNK = 2_048;

/** Statements writing `terms` (a segment's sorted list, or its part from chunk `firstChunk` on) as chunks. */
export function termChunkInserts(segment: number, terms: readonly string[], firstChunk = 0): InStatement[] {
  const statements: InStatement[] = [];
  for (let i = 0; i < terms.length; i += TERMS_PER_CHUNK) {
    statements.push({
      sql: "INSERT INTO search_segment_terms (segment, chunk, terms) VALUES (?, ?, ?)",
      args: [segment, firstChunk + i / TERMS_PER_CHUNK, JSON.stringify(terms.slice(i, i + TERMS_PER_CHUNK))],
    });
  }
  return statements;
}

/**
 * A segment's term list written as it is made, in order (a merge's, a page of terms at a time):
 * each full chunk is written with the page that completes it; `end` writes the last one. Holds
 * less than a chunk of terms.
 */
export class TermChunkWriter {
  #pending: string[] = [];
  #chunk = 0;

  constructor(private readonly segment: number) {}

  /** Statements writing the chunks `terms` completes. */
  add(terms: readonly string[]): InStatement[] {
    this.#pending.push(...terms);
    const full = this.#pending.length - (this.#pending.length % TERMS_PER_CHUNK);
    if (full === 0) return [];
    const statements = termChunkInserts(this.segment, this.#pending.slice(0, full), this.#chunk);
    this.#chunk += full / TERMS_PER_CHUNK;
    this.#pending = this.#pending.slice(full);
    return statements;
  }

  /** The statement writing the last, partial chunk (none when the list ended on a whole one). */
  end(): InStatement[] {
    const statements = termChunkInserts(this.segment, this.#pending, this.#chunk);
    this.#pending = [];
    return statements;
  }
}

/** SQL: how many terms the segment whose id is the SQL expression `segment` lists (0 when none). */
export const termCountSql = (segment: string) =>
  `coalesce((SELECT chunk * ${TERMS_PER_CHUNK} + json_array_length(terms) FROM search_segment_terms WHERE segment = ${segment} ORDER BY chunk DESC LIMIT 1), 0)`;

/**
 * SQL: a subquery of the terms of segment `segment` at positions [`from`, `from` + `count`) (SQL
 * expressions), as rows (position, term): only the chunks holding them are read and parsed. The
 * casts: a driver may bind a JavaScript number as a real, and 100.0 / 2048 is not chunk 0.
 */
export const termRangeSql = (segment: string, from: string, count: string) =>
  `SELECT c.chunk * ${TERMS_PER_CHUNK} + j.key AS position, j.value AS term FROM search_segment_terms AS c, json_each(c.terms) AS j
   WHERE c.segment = ${segment}
     AND c.chunk BETWEEN CAST(${from} AS INTEGER) / ${TERMS_PER_CHUNK} AND CAST(${from} + ${count} - 1 AS INTEGER) / ${TERMS_PER_CHUNK}
     AND c.chunk * ${TERMS_PER_CHUNK} + j.key >= ${from} AND c.chunk * ${TERMS_PER_CHUNK} + j.key < ${from} + ${count}`;

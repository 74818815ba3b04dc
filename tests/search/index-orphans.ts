/** Shared by the search index tests: what the index holds for no segment (a delete that left something behind). */
import type { Client } from "@libsql/client";
import { TERMS_PER_CHUNK } from "../../src/search/segment-terms.ts";

/** Postings records and term-list chunks of segments that no longer exist. */
export async function indexOrphans(client: Pick<Client, "execute">): Promise<{ postings: number; termChunks: number }> {
  const count = async (sql: string) => Number((await client.execute(sql)).rows[0]!.n);
  return {
    postings: await count("SELECT count(*) AS n FROM search_postings WHERE segment NOT IN (SELECT id FROM search_segments)"),
    termChunks: await count("SELECT count(*) AS n FROM search_segment_terms WHERE segment NOT IN (SELECT id FROM search_segments)"),
  };
}

/** Each segment's term list read from its chunks, by segment id; throws unless every chunk but the last is full and they are numbered 0, 1, … */
export async function termLists(client: Pick<Client, "execute">): Promise<Map<number, string[]>> {
  const rows = await client.execute("SELECT segment, chunk, terms FROM search_segment_terms ORDER BY segment, chunk");
  const lists = new Map<number, string[][]>();
  for (const r of rows.rows) {
    const chunks = lists.get(Number(r.segment)) ?? [];
    if (Number(r.chunk) !== chunks.length) throw new Error(`segment ${r.segment}: chunk ${r.chunk} where ${chunks.length} was due`);
    chunks.push(JSON.parse(String(r.terms)) as string[]);
    lists.set(Number(r.segment), chunks);
  }
  for (const [segment, chunks] of lists) {
    if (chunks.slice(0, -1).some((c) => c.length !== TERMS_PER_CHUNK) || chunks.at(-1)!.length === 0) throw new Error(`segment ${segment}: a chunk not full before its last`);
  }
  return new Map([...lists].map(([segment, chunks]) => [segment, chunks.flat()]));
}

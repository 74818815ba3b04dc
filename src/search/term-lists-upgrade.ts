/**
 * The first start after migration 0023: each segment's term list is read from its row
 * (`search_segments.terms`, JSON of its sorted terms) into chunks of `search_segment_terms`
 * (segment-terms.ts), and the column dropped. A segment at a time, so what is held is one list
 * (~0.8 MB of JSON at 65k terms), in its own order. One write transaction: a crash or kill
 * leaves the rows as they were and the next start does it again; two processes opening the store
 * at once take turns, and the second finds it done.
 */
import type { Client } from "@libsql/client";
import { yieldIfLong } from "../text/index.ts";
import { collectGarbage } from "../runtime/index.ts";
import { termChunkInserts } from "./segment-terms.ts";

const hasTermsColumn = async (db: Pick<Client, "execute">) => Number((await db.execute("SELECT count(*) AS n FROM pragma_table_info('search_segments') WHERE name = 'terms'")).rows[0]!.n) > 0;

/** Moves term lists out of segment rows; returns how many segments' lists it moved (0: nothing to do). */
export async function moveTermListsOutOfRows(client: Client, notice: (line: string) => void = () => {}): Promise<number> {
  if (!(await hasTermsColumn(client))) return 0;
  const tx = await client.transaction("write");
  try {
    // Looked again inside the write turn: another process may have done it meanwhile.
    if (!(await hasTermsColumn(tx))) return 0;
    const started = Date.now();
    const ids = (await tx.execute("SELECT id FROM search_segments ORDER BY id")).rows.map((r) => Number(r.id));
    for (const [i, id] of ids.entries()) {
      const row = await tx.execute({ sql: "SELECT terms FROM search_segments WHERE id = ?", args: [id] });
      const terms = JSON.parse(String(row.rows[0]!.terms)) as string[];
      for (const statement of termChunkInserts(id, terms)) await tx.execute(statement);
      // Each list leaves ~5 MB of strings behind: collected now and then, they stayed at one or two.
      if (i % 8 === 7) collectGarbage(true);
      await yieldIfLong();
    }
    await tx.execute("ALTER TABLE search_segments DROP COLUMN terms");
    await tx.commit();
    if (ids.length > 0) notice(`search index: ${ids.length.toLocaleString("en")} segments' term lists moved to their own table (${((Date.now() - started) / 1000).toFixed(1)} s)`);
    return ids.length;
  } finally {
    tx.close();
  }
}

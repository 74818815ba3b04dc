/**
 * What an import reads and writes a chunk at a time (src/memory/import.ts): which of its ids were
 * read before or are stored already, where each session's `seq` goes on, and the chunk's own write
 * transaction — its staged rows, the ids it read and, when the chunk completes one, its search
 * segment. The run itself (reserving rowids, the last visible step, cleanup) is import-staging.ts.
 */
import type { Client, InStatement, InValue } from "@libsql/client";
import type { ImportRun } from "./import-staging.ts";
import { mergeInserts } from "./merge-inserts.ts";
import { writeSealedSegment, type SealedSegment } from "../search/index.ts";

/**
 * Pages of WAL between checkpoints on the import's connections (SQLite's default is 1000: 4 MB,
 * about every commit of an import, each with its own fsyncs; 30k messages spent 1.8 s in
 * commits with it, 1.4 s with 16384). The WAL is truncated when the import ends.
 */
const WAL_PAGES = 16_384;

/**
 * Page cache of the import's connections, in KiB (negative: SQLite's unit for KiB). The default
 * 2 MB makes index inserts into a large store read the disk; 64 MB took ~4% off a 100k import's
 * CPU time (25.1 vs 26.0 s with 16 MB; one run each, noisy). A segment's postings rows fill the
 * cache to its bound at every segment written (its terms land all over the postings index), and
 * the cache stays that full. 8 MB, for the import's memory bound (issue 26: ≤ 500 MiB): with a
 * 12 MiB segment bound (BULK_SEGMENT_BYTES) instead of 16 and 16 MB here, a 100k open-vocabulary
 * import peaked at 420-433 instead of 466-474 MiB, as fast (two runs each, alternating).
 */
const CACHE_KIB = 8 * 1024;

const marks = (n: number) => Array.from({ length: n }, () => "?").join(", ");

async function idsAmong(client: Client, sql: (marks: string) => string, args: InValue[], ids: readonly string[]): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const rows = await client.execute({ sql: sql(marks(ids.length)), args: [...args, ...ids] });
  return new Set(rows.rows.map((r) => String(r.id)));
}

/** Which of `ids` the run has read before (recorded by the chunks it wrote). */
export const readBefore = (client: Client, run: ImportRun, ids: readonly string[]): Promise<Set<string>> =>
  idsAmong(client, (q) => `SELECT id FROM import_seen WHERE run = ? AND id IN (${q})`, [run.id], ids);

/** Which of the event `ids` are stored (visible) already. */
export const storedAmong = (client: Client, ids: readonly string[]): Promise<Set<string>> => idsAmong(client, (q) => `SELECT id FROM events WHERE id IN (${q})`, [], ids);

/** The next free `seq` of each of `sessions`: after what it holds, stored or staged by any import. */
export async function nextSeqsOf(client: Client, sessions: readonly string[]): Promise<Map<string, number>> {
  const next = new Map<string, number>();
  if (sessions.length === 0) return next;
  const rows = await client.execute({
    sql: `SELECT value AS session,
            max(coalesce((SELECT max(seq) FROM events WHERE session_id = value), -1),
                coalesce((SELECT max(seq) FROM import_events WHERE session_id = value), -1)) AS top
          FROM json_each(?)`,
    args: [JSON.stringify(sessions)],
  });
  for (const r of rows.rows) next.set(String(r.session), Number(r.top) + 1);
  return next;
}

export type ImportChunk = {
  run: ImportRun;
  /** Ids the chunk read from the file (the duplicate check of the chunks after it). */
  seen: readonly string[];
  /** Its staged rows (cold-event.ts), merged into multi-row INSERTs. */
  statements: readonly InStatement[];
  /** The search segments the chunk completes, written staged under the run. */
  segments: readonly SealedSegment[];
  /** Whether the connection takes the tuning PRAGMAs (a local file, not a server). */
  tunable: boolean;
};

/** Writes one chunk in one short write transaction; whether the connection still takes the tuning PRAGMAs. */
export async function writeImportChunk(client: Client, chunk: ImportChunk): Promise<boolean> {
  let tunable = chunk.tunable;
  const tx = await client.transaction("write");
  try {
    // Tuning of an embedded file's connection. A libSQL server refuses these PRAGMAs
    // ("unsupported statement") and keeps its own cache and WAL; so does an embedded replica,
    // a file whose writes go to its server: tried once there, then left out.
    if (tunable) {
      try {
        await tx.execute(`PRAGMA cache_size = -${CACHE_KIB}`);
        await tx.execute(`PRAGMA wal_autocheckpoint = ${WAL_PAGES}`);
      } catch {
        tunable = false;
      }
    }
    const seen = chunk.seen.map((id): InStatement => ({ sql: "INSERT INTO import_seen (run, id) VALUES (?, ?)", args: [chunk.run.id, id] }));
    await tx.batch(mergeInserts([...seen, ...chunk.statements]));
    // Staged: no search reads a segment before its import's last step publishes it.
    for (const segment of chunk.segments) await writeSealedSegment(tx, segment, "staged", chunk.run.id);
    await tx.commit();
  } finally {
    tx.close();
  }
  return tunable;
}

/**
 * An import writes as much WAL as it writes data (306 MB left behind by a 100k import); SQLite
 * only reuses the file, never shrinks it. Truncated once the import is done. It is only
 * housekeeping: a reader that holds the WAL (a daemon mid-query) makes it a no-op, and a
 * remote store has no WAL to truncate — neither may fail an import that has succeeded.
 */
export async function truncateWal(client: Client): Promise<void> {
  try {
    await client.execute("PRAGMA wal_checkpoint(TRUNCATE)");
  } catch {
    // See above: nothing to undo, nothing the user must do.
  }
}

/**
 * When the index's segments are merged, and how a merge of large ones stays off the write turn.
 *
 * Segments of one level (⌊log₈ documents⌋) are merged MERGE_FACTOR at a time, the lowest full
 * level first, up to MAX_MERGE_LEVEL (segments.ts). Small ones (chat turns: levels below
 * STAGED_FROM_LEVEL) are merged in one write transaction, as it takes milliseconds. Larger ones
 * (an import's) are merged as a stream (segment-merge.ts) in three steps:
 *
 * 1. the merged segment is written under a state no search reads (`merging:<host>:<pid>:<token>`),
 *    each page of records in a short write transaction of its own, reading the sources outside
 *    any: segments never change, so there is nothing to hold still;
 * 2. one short write transaction publishes it if every source is still live (another process may
 *    have merged them meanwhile), marking the sources 'retired' — or else retires it instead;
 * 3. retired segments' records are deleted PURGE_ROWS a transaction, found by key from each
 *    segment's term list (segment-terms.ts), and their term lists and rows last.
 *
 * A process killed at any point leaves the index correct (searches read 'live' segments only);
 * the daemon's merge job removes what it left, at its start and every MERGE_CHECK_MS: retired
 * segments, and `merging` ones of this host whose process is gone (the last chunk of their term
 * list is written at the end, so their records are found by a scan of the postings table, a rare
 * and read-only pass).
 */
import type { Client, InStatement, Transaction } from "@libsql/client";
import { hostname } from "node:os";
import { randomUUID } from "node:crypto";
import { deleteSegments, MAX_MERGE_LEVEL, MERGE_FACTOR } from "./segments.ts";
import { writeMergedSegment, type MergeOptions } from "./segment-merge.ts";
import { TERMS_PER_CHUNK, termCountSql } from "./segment-terms.ts";

/**
 * Levels from which a merge is staged rather than done in one write transaction: from level 3
 * (512+ documents a source) a merge reads and writes tens of thousands of records.
 */
export const STAGED_FROM_LEVEL = 3;

type Reader = Pick<Client | Transaction, "execute">;

/** Records a purge deletes per transaction: ~0.1 s of SQLite on a loaded machine. */
const PURGE_ROWS = 16_000;

/**
 * Which merges a run does: `staged: false`, only those done in one write transaction (chat
 * turns'). `signal`: stops a run between pages (a daemon stopping); what it staged is left to
 * the next cleanup. `cleanup`: first removes what killed merges left (cleanAbandonedMerges) — the
 * merge job's runs, not the run after each write.
 */
export type MergeRunOptions = MergeOptions & { staged?: boolean; signal?: AbortSignal; cleanup?: boolean };

/** The lowest level below `below` holding MERGE_FACTOR live segments or more. */
async function fullLevel(db: Reader, below: number): Promise<number | undefined> {
  const levels = await db.execute({
    sql: "SELECT level FROM search_segments WHERE state = 'live' AND level < ? GROUP BY level HAVING count(*) >= ? ORDER BY level LIMIT 1",
    args: [below, MERGE_FACTOR],
  });
  return levels.rows[0] === undefined ? undefined : Number(levels.rows[0].level);
}

/**
 * The oldest MERGE_FACTOR live segments of `level`, not all of them: a merge's size stays bounded
 * (a level can hold more when segments are written faster than merged).
 */
async function oldestOfLevel(db: Reader, level: number): Promise<number[]> {
  const rows = await db.execute({ sql: "SELECT id FROM search_segments WHERE state = 'live' AND level = ? ORDER BY id LIMIT ?", args: [level, MERGE_FACTOR] });
  return rows.rows.map((r) => Number(r.id));
}

/**
 * Merges MERGE_FACTOR segments of the lowest full level into one, leaving out documents whose
 * event is gone. Returns whether there was a level to merge (call again until there is not).
 */
export async function mergeOnce(client: Client, options: MergeRunOptions = {}): Promise<boolean> {
  // Looked up first by a plain read: after most turns no level is full, and a write transaction
  // would only wait for the write turn to find that out.
  const level = await fullLevel(client, options.staged === false ? STAGED_FROM_LEVEL : MAX_MERGE_LEVEL);
  if (level === undefined) return false;
  if (level >= STAGED_FROM_LEVEL) await mergeStaged(client, await oldestOfLevel(client, level), options);
  else await mergeInTransaction(client, options);
  return true;
}

async function mergeInTransaction(client: Client, options: MergeOptions): Promise<void> {
  const tx = await client.transaction("write");
  try {
    // Again inside the write turn: another process may have merged meanwhile.
    const level = await fullLevel(tx, STAGED_FROM_LEVEL);
    if (level === undefined) return;
    const ids = await oldestOfLevel(tx, level);
    await writeMergedSegment(tx, ids, (statements) => tx.batch(statements), "live", options);
    await deleteSegments(tx, ids);
    await tx.commit();
  } finally {
    tx.close();
  }
}

/** The state of a segment being merged by this process (see the header). */
const mergingState = () => `merging:${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;

/**
 * Merges segments `ids` in the three steps of the header; returns whether it published. A merge
 * that fails midway drops what it wrote (and, if it cannot, the next run after this process ends does).
 */
export async function mergeStaged(client: Client, ids: readonly number[], options: MergeRunOptions = {}): Promise<boolean> {
  const state = mergingState();
  const write = (statements: InStatement[]) => {
    options.signal?.throwIfAborted();
    return client.batch(statements, "write");
  };
  try {
    const merged = await writeMergedSegment(client, ids, write, state, options);
    // A source went before it was read: another merge took it.
    if (!merged) return false;
    const published = await publish(client, ids, state, merged.id);
    await purgeRetired(client);
    return published;
  } catch (error) {
    if (!options.signal?.aborted) await dropUnfinished(client, state).catch(() => {});
    throw error;
  }
}

/** Step 2: the merged segment replaces its sources if they are all still live; else it is retired. */
async function publish(client: Client, ids: readonly number[], state: string, id: number | undefined): Promise<boolean> {
  const tx = await client.transaction("write");
  try {
    const live = await tx.execute({ sql: "SELECT count(*) AS n FROM search_segments WHERE state = 'live' AND id IN (SELECT value FROM json_each(?))", args: [JSON.stringify(ids)] });
    const sourcesLive = Number(live.rows[0]!.n) === ids.length;
    if (id !== undefined) {
      const updated = await tx.execute({
        sql: "UPDATE search_segments SET state = ? WHERE id = ? AND state = ?",
        args: [sourcesLive ? "live" : "retired", id, state],
      });
      // Taken for abandoned and removed meanwhile: the sources stay.
      if (updated.rowsAffected !== 1) return false;
    }
    if (sourcesLive) await tx.execute({ sql: "UPDATE search_segments SET state = 'retired' WHERE id IN (SELECT value FROM json_each(?))", args: [JSON.stringify(ids)] });
    await tx.commit();
    return sourcesLive;
  } finally {
    tx.close();
  }
}

/**
 * Step 3: deletes retired segments' records, then their term lists and rows. The records of one term in every
 * segment sit side by side (the key is term, segment), so they are deleted together, a range of
 * terms a transaction (~PURGE_ROWS records): segment by segment, each page of the table was
 * written again once per segment — 16 s for eight import-sized segments, against 3 s.
 */
async function purgeRetired(client: Client): Promise<void> {
  const rows = await client.execute(`SELECT id, ${termCountSql("search_segments.id")} AS n FROM search_segments WHERE state = 'retired' ORDER BY n DESC`);
  if (rows.rows.length === 0) return;
  const ids = JSON.stringify(rows.rows.map((r) => Number(r.id)));
  // Range ends: every k-th term of the largest, in SQLite's order (the ranges cover every term
  // whatever the order the lists were sorted in).
  const every = Math.max(1, Math.floor(PURGE_ROWS / rows.rows.length));
  const ends = await client.execute({
    sql: `SELECT j.value FROM search_segment_terms AS c, json_each(c.terms) AS j
          WHERE c.segment = ? AND (c.chunk * ${TERMS_PER_CHUNK} + j.key) % ? = ? ORDER BY j.value`,
    args: [Number(rows.rows[0]!.id), every, every - 1],
  });
  const bounds: (string | null)[] = [null, ...ends.rows.map((r) => String(r.value)), null];
  for (let i = 0; i + 1 < bounds.length; i++) {
    await client.execute({
      sql: `DELETE FROM search_postings WHERE (term, segment) IN
              (SELECT j.value, c.segment FROM search_segment_terms AS c, json_each(c.terms) AS j
               WHERE c.segment IN (SELECT value FROM json_each(?1)) AND (?2 IS NULL OR j.value >= ?2) AND (?3 IS NULL OR j.value < ?3))`,
      args: [ids, bounds[i]!, bounds[i + 1]!],
    });
  }
  await client.batch(
    [
      { sql: "DELETE FROM search_segment_terms WHERE segment IN (SELECT id FROM search_segments WHERE state = 'retired' AND id IN (SELECT value FROM json_each(?)))", args: [ids] },
      { sql: "DELETE FROM search_segments WHERE state = 'retired' AND id IN (SELECT value FROM json_each(?))", args: [ids] },
    ],
    "write",
  );
}

/** Records of a merging segment (its term list not all written yet) read per statement while found by a scan. */
const SCAN_ROWS = 10_000;

/** Removes the segments in `state` (a merge that did not publish), their records and their term lists. */
async function dropUnfinished(client: Client, state: string): Promise<void> {
  const rows = await client.execute({ sql: "SELECT id FROM search_segments WHERE state = ?", args: [state] });
  for (const r of rows.rows) {
    const id = Number(r.id);
    let after = "";
    for (;;) {
      const page = await client.execute({ sql: "SELECT term FROM search_postings WHERE term > ? AND segment = ? ORDER BY term LIMIT ?", args: [after, id, SCAN_ROWS] });
      if (page.rows.length === 0) break;
      const terms = page.rows.map((p) => String(p.term));
      await client.execute({ sql: "DELETE FROM search_postings WHERE segment = ? AND term IN (SELECT value FROM json_each(?))", args: [id, JSON.stringify(terms)] });
      after = terms.at(-1)!;
    }
    await client.batch(
      [
        { sql: "DELETE FROM search_segment_terms WHERE segment = ? AND segment IN (SELECT id FROM search_segments WHERE id = ? AND state = ?)", args: [id, id, state] },
        { sql: "DELETE FROM search_segments WHERE id = ? AND state = ?", args: [id, state] },
      ],
      "write",
    );
  }
}

function processGone(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return false;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code !== "EPERM";
  }
}

/**
 * Removes what merges that were killed left: their unfinished segments (this host's, whose
 * process is gone) and retired segments not yet deleted. Returns how many unfinished ones.
 */
export async function cleanAbandonedMerges(client: Client): Promise<number> {
  const rows = await client.execute("SELECT DISTINCT state FROM search_segments WHERE state LIKE 'merging:%'");
  let cleaned = 0;
  for (const r of rows.rows) {
    const state = String(r.state);
    const [, host, pid] = state.split(":");
    if (host !== hostname() || Number(pid) === process.pid || !processGone(Number(pid))) continue;
    await dropUnfinished(client, state);
    cleaned++;
  }
  await purgeRetired(client);
  return cleaned;
}

const merging = new WeakMap<Client, Promise<void>>();

/**
 * Merges full levels in the background (after a write, after an import, at a daemon's start):
 * the caller need not wait, and each of a merge's writes waits for its write turn like any
 * writer. One chain per client; a call while one runs returns that one — it merges until no
 * level is full, new segments included. A merge that fails leaves the index correct, only less
 * merged, until the next run. With `cleanup` (the merge job's runs) it first removes what killed
 * merges left: two reads of `search_segments` and a purge, which a chat turn's run need not pay.
 */
export function mergeInBackground(client: Client, options: MergeRunOptions = {}): Promise<void> {
  const running = merging.get(client);
  if (running) return running;
  const run = (async () => {
    try {
      if (options.cleanup) await cleanAbandonedMerges(client);
      while (!options.signal?.aborted && (await mergeOnce(client, options)));
    } catch {
      // See above.
    } finally {
      merging.delete(client);
    }
  })();
  merging.set(client, run);
  return run;
}

/** How often a daemon looks for full levels besides after its own writes: an import by `homed import` is another process's write. */
export const MERGE_CHECK_MS = 60_000;

/**
 * Removes what killed merges left and merges, now and every MERGE_CHECK_MS (a daemon's job);
 * `stop` ends it between two pages of a merge. (A run after a write does not clean up: when one
 * is running as the job's comes, the job's is skipped until the next minute.)
 */
export function startMergeJob(client: Client, everyMs = MERGE_CHECK_MS): { stop(): void } {
  const stopping = new AbortController();
  const run = () => void mergeInBackground(client, { signal: stopping.signal, cleanup: true });
  run();
  const timer = setInterval(run, everyMs);
  timer.unref?.();
  return {
    stop() {
      clearInterval(timer);
      stopping.abort();
    },
  };
}

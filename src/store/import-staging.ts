/**
 * Staging of a history import, so that a file of any size is written in short transactions yet
 * appears all at once or not at all.
 *
 * A run reserves a range of event rowids no live event reaches. Each chunk of messages is
 * written, in its own short transaction, as rows of `import_events` (and `import_blocks`, for
 * images; a text block is made from its event at the end) keyed by the rowid each event will have; every BULK_SEGMENT_DOCS messages (src/memory/import.ts) their search segment is
 * written 'staged' under the run, which no search reads. The last step copies the staged events
 * and blocks into `events`/`blocks` and makes the run's segments live, in one transaction (the
 * search analysis, most of an import's cost, is already done by then); then the staging rows
 * are dropped in short transactions.
 *
 * A run that dies before its last step (a crash, kill -9) leaves its staged rows behind; the next
 * start (`cleanAbandonedImports`) removes them, search rows included, for every run whose process
 * is gone.
 */
import { hostname } from "node:os";
import type { Client, InStatement } from "@libsql/client";
import { dropStagedSegments, publishStagedSegments } from "../search/index.ts";

/**
 * Rowids reserved per run: far more messages than one file holds, and far more live events than
 * a daemon writes while an import runs (live events take the next rowid after the highest event,
 * which is below the run's range). 2^32 keeps rowids within JavaScript's exact integers for two
 * million imports.
 */
export const RUN_ROWIDS = 2 ** 32;

/**
 * Rows per cleanup transaction: short, so a daemon's turns write in between (~60 ms each on a
 * loaded machine), yet few, since each commit waits for an fsync: dropping a 100k import's
 * staging rows took 2.1 s in transactions of 2,000 rows, 0.6 s in transactions of 10,000.
 */
const CLEANUP_ROWS = 10_000;

export type ImportRun = { id: number; firstRowid: number };

/** Starts a run: reserves its rowid range above every event and every other run's range. */
export async function beginRun(client: Client, now: number): Promise<ImportRun> {
  const tx = await client.transaction("write");
  try {
    const top = await tx.execute("SELECT max(coalesce((SELECT max(rowid) FROM events), 0), coalesce((SELECT max(first_rowid) FROM import_runs), 0)) AS top");
    const firstRowid = (Math.floor(Number(top.rows[0]!.top) / RUN_ROWIDS) + 1) * RUN_ROWIDS;
    const run = await tx.execute({
      sql: "INSERT INTO import_runs (first_rowid, state, pid, host, started_at) VALUES (?, 'staging', ?, ?, ?)",
      args: [firstRowid, process.pid, hostname(), now],
    });
    await tx.commit();
    return { id: Number(run.lastInsertRowid), firstRowid };
  } finally {
    tx.close();
  }
}

const EVENT_COLUMNS = "id, session_id, conversation, scope, private_to, layer, seq, time, speaker, role, source_id, messages, text, tokens, created_at";
const BLOCK_COLUMNS = "id, event_id, kind, holder, content, created_at";

/**
 * The one step that makes a run's messages visible: its staged events become rows of `events`
 * under their reserved rowids, where their search rows already point; each gets its text block,
 * and the staged image blocks become rows of `blocks`. Vectors
 * are left out here (a vector index insert is the slowest write there is) and attached after, in
 * short transactions, by `attachVectors`.
 */
export async function makeVisible(client: Client, run: ImportRun, lastRowid: number): Promise<void> {
  const range = [run.firstRowid, lastRowid];
  await client.batch(
    [
      { sql: `INSERT INTO events (rowid, ${EVENT_COLUMNS}) SELECT event_rowid, ${EVENT_COLUMNS} FROM import_events WHERE event_rowid BETWEEN ? AND ?`, args: range },
      // Each event's text block, made here from the event row (it is not staged), before the
      // staged image blocks: an event's blocks keep their order.
      { sql: `INSERT INTO blocks (${BLOCK_COLUMNS}) SELECT id || '.0', id, 'text', 'L2', text, created_at FROM import_events WHERE event_rowid BETWEEN ? AND ?`, args: range },
      { sql: `INSERT INTO blocks (${BLOCK_COLUMNS}) SELECT ${BLOCK_COLUMNS} FROM import_blocks WHERE event_rowid BETWEEN ? AND ?`, args: range },
      ...(await publishStagedSegments(client, run.id)),
      { sql: "UPDATE import_runs SET state = 'visible' WHERE id = ?", args: [run.id] },
    ],
    "write",
  );
}

/** Copies the staged vectors onto the now visible events, a chunk a transaction. */
export async function attachVectors(client: Client, run: ImportRun, lastRowid: number, chunk: number): Promise<void> {
  for (let from = run.firstRowid; from <= lastRowid; from += chunk) {
    await client.execute({
      sql: `UPDATE events SET embed_model = s.embed_model, embedding = s.embedding FROM import_events s
            WHERE s.event_rowid BETWEEN ? AND ? AND s.embed_model IS NOT NULL AND events.rowid = s.event_rowid`,
      args: [from, Math.min(lastRowid, from + chunk - 1)],
    });
  }
}

/**
 * Drops a run's staging rows, a chunk a transaction, and the run itself last. `searchRows`: also
 * its staged search segments — for a run that never became visible (aborted or crashed), one
 * segment a transaction. A cleanup that is itself interrupted leaves a consistent remainder for
 * the next one.
 */
export async function dropRun(client: Client, run: ImportRun, options: { searchRows: boolean }): Promise<void> {
  if (options.searchRows) {
    const tx = await client.transaction("write");
    try {
      await dropStagedSegments(tx, run.id);
      await tx.commit();
    } finally {
      tx.close();
    }
  }
  const top = await client.execute({
    sql: "SELECT max(event_rowid) AS top FROM import_events WHERE event_rowid BETWEEN ? AND ?",
    args: [run.firstRowid, run.firstRowid + RUN_ROWIDS - 1],
  });
  const lastRowid = top.rows[0]?.top === null || top.rows[0]?.top === undefined ? run.firstRowid - 1 : Number(top.rows[0].top);
  for (let to = lastRowid; to >= run.firstRowid; to -= CLEANUP_ROWS) {
    const range = [Math.max(run.firstRowid, to - CLEANUP_ROWS + 1), to];
    const statements: InStatement[] = [
      { sql: "DELETE FROM import_blocks WHERE event_rowid BETWEEN ? AND ?", args: range },
      { sql: "DELETE FROM import_events WHERE event_rowid BETWEEN ? AND ?", args: range },
    ];
    await client.batch(statements, "write");
  }
  for (;;) {
    const gone = await client.execute({
      sql: "DELETE FROM import_seen WHERE run = ? AND id IN (SELECT id FROM import_seen WHERE run = ? LIMIT ?)",
      args: [run.id, run.id, CLEANUP_ROWS * 5],
    });
    if (gone.rowsAffected === 0) break;
  }
  await client.execute({ sql: "DELETE FROM import_runs WHERE id = ?", args: [run.id] });
}

function isAlive(pid: number): boolean {
  if (pid === process.pid) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/**
 * Removes what imports that died left behind: every run of this host whose process is gone. A
 * run that never became visible loses its search rows too; one that did only its staging rows.
 * Returns how many runs were removed.
 */
export async function cleanAbandonedImports(client: Client): Promise<number> {
  const runs = await client.execute({ sql: "SELECT id, first_rowid, state, pid FROM import_runs WHERE host = ?", args: [hostname()] });
  let cleaned = 0;
  for (const r of runs.rows) {
    if (isAlive(Number(r.pid))) continue;
    await dropRun(client, { id: Number(r.id), firstRowid: Number(r.first_rowid) }, { searchRows: r.state === "staging" });
    cleaned++;
  }
  return cleaned;
}

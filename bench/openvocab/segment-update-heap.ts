/**
 * What an UPDATE of many segment rows holds until its commit: `bun bench/openvocab/segment-update-heap.ts
 * SEGMENTS MODE [ROW_BLOB_BYTES] [in-row]` writes SEGMENTS segments of 65,000 terms (their lists in
 * search_segment_terms, or with `in-row` in a column of the row as before migration 0023), then in
 * one write transaction marks them: MODE `by-state` (one UPDATE by state, as publishing an import
 * once did), `by-id` (one UPDATE a segment, publishStagedSegments) or `retire` (one UPDATE by a
 * list of ids, a merge retiring its sources). Prints the RSS grown before the commit (what SQLite
 * holds), the peak's growth and the time. ROW_BLOB_BYTES: the size of each of a row's rowids and
 * lengths (a 8,192-message segment's are ~30 KB together or more). Figures: docs/benchmarks.md.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { termChunkInserts } from "../../src/search/segment-terms.ts";
import { openStore } from "../../src/store/index.ts";
import { collectGarbage } from "../../src/runtime/index.ts";
import { tempDir } from "../../tests/support/temp-dir.ts";

const SEGMENTS = Number(process.argv[2] ?? 280);
const mode = process.argv[3] ?? "by-state";
const blobBytes = Number(process.argv[4] ?? 0);
const inRow = process.argv[5] === "in-row";
const rssMiB = () => Number(/^VmRSS:\s+(\d+)/m.exec(readFileSync("/proc/self/status", "utf8"))![1]) / 1024;
const hwmMiB = () => Number(/^VmHWM:\s+(\d+)/m.exec(readFileSync("/proc/self/status", "utf8"))![1]) / 1024;
using dir = tempDir("homed-probe-");
const store = await openStore({ url: `file:${join(dir.path, "homed.db")}` });
const blob = new Uint8Array(blobBytes).map((_, i) => (i * 7919) & 255);
const ids: number[] = [];
if (inRow) await store.client.execute("ALTER TABLE search_segments ADD COLUMN terms TEXT");
for (let i = 0; i < SEGMENTS; i++) {
  const terms = Array.from({ length: 65_000 }, (_, t) => `term-${i}-${t}`);
  const inserted = await store.client.execute({
    sql: "INSERT INTO search_segments (state, import_run, level, docs, tokens_words, tokens_trigrams, tokens_bigrams, rowids, lengths) VALUES (?, 7, 3, 1, 1, 1, 1, ?, ?)",
    args: [mode === "retire" ? "live" : "staged", blob, blob],
  });
  ids.push(Number(inserted.lastInsertRowid));
  if (inRow) await store.client.execute({ sql: "UPDATE search_segments SET terms = ? WHERE id = ?", args: [JSON.stringify(terms), Number(inserted.lastInsertRowid)] });
  else await store.client.batch(termChunkInserts(Number(inserted.lastInsertRowid), terms), "write");
}
await store.client.execute("PRAGMA wal_checkpoint(TRUNCATE)");
collectGarbage(true);
const before = hwmMiB();
const t0 = performance.now();
const rss0 = rssMiB();
const tx = await store.client.transaction("write");
if (mode === "retire") await tx.execute({ sql: "UPDATE search_segments SET state = 'retired' WHERE id IN (SELECT value FROM json_each(?))", args: [JSON.stringify(ids)] });
else if (mode === "by-state") await tx.execute("UPDATE search_segments SET state = 'live', import_run = NULL WHERE state = 'staged' AND import_run = 7");
else for (const id of ids) await tx.execute({ sql: "UPDATE search_segments SET state = 'live', import_run = NULL WHERE id = ? AND state = 'staged' AND import_run = 7", args: [id] });
const heldMiB = rssMiB() - rss0;
await tx.commit();
tx.close();
const ms = performance.now() - t0;
store.close();
console.log(JSON.stringify({ mode, inRow, SEGMENTS, blobBytes, heldBeforeCommitMiB: +heldMiB.toFixed(1), grewMiB: +(hwmMiB() - before).toFixed(1), ms: +ms.toFixed(1) }));

/**
 * `homed import` of files too big to hold (real child processes, real libSQL files): written in
 * short staged transactions yet all or nothing for the user, cleaned after a kill -9, in memory
 * that does not grow with the file, leaving no WAL behind.
 */
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { existsSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { openStore } from "../../src/store/index.ts";
import { SegmentBuilder, analyseDocument } from "../../src/search/index.ts";
import { hostname } from "node:os";
import { evalCommand, run, SOURCE_HOMED, startDaemon } from "../support/process.ts";
import { RUNTIME_BINARIES } from "../support/runtimes.ts";
import { WORKER_FROM } from "../../src/memory/index.ts";
import { tempDir } from "../support/temp-dir.ts";

const WORDS = ["tea", "garden", "train", "parking", "车", "停在", "地下", "二层", "会议", "guitar", "laptop", "西湖", "dinner", "report"];

/** `count` JSON lines: 20 conversations, sessions of 10 turns a minute apart, mixed Chinese and English. */
function historyLines(count: number, over: (i: number) => Record<string, unknown> = () => ({})): string[] {
  return Array.from({ length: count }, (_, i) => {
    const conversation = i % 20;
    const turn = Math.floor(i / 20);
    const text = `${Array.from({ length: 8 }, (_, k) => WORDS[(i * 7 + k * 3) % WORDS.length]).join(" ")} #${i}`;
    const time = new Date(Date.UTC(2024, 0, 1) + Math.floor(turn / 10) * 86_400_000 + (turn % 10) * 60_000).toISOString();
    return JSON.stringify({ conversation: `c${conversation}`, session: `s${Math.floor(turn / 10)}`, time, speaker: "Ann", role: "user", text, id: `m${i}`, ...over(i) });
  });
}

async function counts(data: string, tables: readonly string[]): Promise<Record<string, number>> {
  const store = await openStore({ url: `file:${join(data, "homed.db")}` });
  try {
    return Object.fromEntries(await Promise.all(tables.map(async (t) => [t, Number((await store.client.execute(`SELECT count(*) AS n FROM ${t}`)).rows[0]!.n)])));
  } finally {
    store.close();
  }
}

const VISIBLE = ["events", "blocks"];
const STAGED = ["import_runs", "import_events", "import_blocks", "import_seen"];
const SEARCH = ["search_segments", "search_postings"];

/**
 * Runs `homed import` and returns its peak resident memory (the kernel's account, from wait4).
 * Measured from a fresh process whose only child is the import: inside the full suite, a test
 * process that has started and reaped many children, a 1k-message import was reported at
 * 1.5 GB (250 MB when this file runs alone), so the figure could not be trusted there.
 */
async function importMeasured(data: string, file: string): Promise<{ code: number; stdout: string; stderr: string; peakMiB: number }> {
  const measure = `const r = Bun.spawnSync(JSON.parse(process.env.MEASURED), { stdout: "pipe", stderr: "pipe" });
    console.log(JSON.stringify({ code: r.exitCode, stdout: r.stdout.toString(), stderr: r.stderr.toString(), peak: r.resourceUsage.maxRSS }));`;
  // The measuring process is always Bun (Bun.spawnSync reports the child's peak RSS); the import
  // it measures runs under the runtime running the tests.
  const out = await run([RUNTIME_BINARIES.bun, "-e", measure], { env: { ...process.env, MEASURED: JSON.stringify([...SOURCE_HOMED, "import", "-data", data, file]) } });
  assert.equal(out.code, 0, out.stderr);
  const child = JSON.parse(out.stdout) as { code: number; stdout: string; stderr: string; peak: number };
  return { code: child.code, stdout: child.stdout, stderr: child.stderr, peakMiB: child.peak / 2 ** 20 };
}

describe("homed import of a large file (child processes)", () => {
  test("an id repeated late in a big file aborts it with the line number, leaving nothing visible or staged", async () => {
    using tmp = tempDir("homed-import-");
    const file = join(tmp.path, "history.jsonl");
    // The duplicate is only found while importing (the first pass checks each line alone), after
    // several chunks have been staged.
    writeFileSync(file, `${historyLines(3_000, (i) => (i === 2_899 ? { id: "m19" } : {})).join("\n")}\n`);
    const data = join(tmp.path, "data");
    const failed = await run([...SOURCE_HOMED, "import", "-data", data, file]);
    assert.equal(failed.code, 1, failed.stderr);
    assert.match(failed.stderr, /line 2900: "id": m19 appears twice in conversation c19 \(nothing was imported/);
    assert.deepEqual(await counts(data, [...VISIBLE, ...STAGED, ...SEARCH]), Object.fromEntries([...VISIBLE, ...STAGED, ...SEARCH].map((t) => [t, 0])));
  });

  test("kill -9 in the middle leaves nothing visible; the next start removes what it staged", async () => {
    using tmp = tempDir("homed-import-");
    const big = join(tmp.path, "big.jsonl");
    writeFileSync(big, `${historyLines(20_000).join("\n")}\n`);
    const data = join(tmp.path, "data");
    const child = spawn(SOURCE_HOMED[0]!, [...SOURCE_HOMED.slice(1), "import", "-data", data, big], { stdio: ["ignore", "ignore", "pipe"] });
    let stderr = "";
    child.stderr!.on("data", (d) => (stderr += d));
    let exitCode: number | null | undefined;
    const exited = new Promise((resolve) => child.on("exit", (code) => resolve((exitCode = code))));
    // Killed as soon as the first chunks are staged: seconds before the import could finish.
    // Polled without migrating (the child creates the schema) and through any lock it holds.
    const started = Date.now();
    let staged = 0;
    while (staged < 1_000) {
      assert.equal(exitCode, undefined, `the import ended before it was killed: ${stderr}`);
      assert.ok(Date.now() - started < 90_000, "nothing was staged within 90 s");
      await new Promise((resolve) => setTimeout(resolve, 50));
      if (!existsSync(join(data, "homed.db"))) continue;
      const store = await openStore({ url: `file:${join(data, "homed.db")}`, migrate: false }).catch(() => undefined);
      if (!store) continue;
      staged = await store.client.execute("SELECT count(*) AS n FROM import_events").then(
        (r) => Number(r.rows[0]!.n),
        () => 0,
      );
      store.close();
    }
    child.kill("SIGKILL");
    await exited;
    const killed = await counts(data, [...VISIBLE, ...STAGED]);
    assert.deepEqual([killed.events, killed.blocks], [0, 0], "nothing visible");
    assert.ok(killed.import_events! >= 1_000, `staged rows were left behind: ${JSON.stringify(killed)}`);

    const small = join(tmp.path, "small.jsonl");
    writeFileSync(small, historyLines(3).join("\n"));
    const next = await run([...SOURCE_HOMED, "import", "-data", data, small]);
    assert.equal(next.code, 0, next.stderr);
    assert.match(next.stdout, /3 added, 0 already present/);
    const after = await counts(data, [...VISIBLE, ...STAGED, "search_segments"]);
    assert.deepEqual(after, { events: 3, blocks: 3, import_runs: 0, import_events: 0, import_blocks: 0, import_seen: 0, search_segments: 1 });
  });

  test("peak memory does not grow with the file; the WAL is truncated; re-importing adds nothing", async () => {
    using tmp = tempDir("homed-import-");
    const peaks: number[] = [];
    // Both sizes analyse in the import's worker thread (WORKER_FROM and up): its fixed cost, a
    // second JavaScript heap with its own jieba, is not growth (measured at 8k messages, worker vs
    // none: +11 MiB under Bun, +77 MiB under Deno).
    for (const size of [WORKER_FROM, 4 * WORKER_FROM]) {
      const file = join(tmp.path, `h${size}.jsonl`);
      writeFileSync(file, `${historyLines(size).join("\n")}\n`);
      const data = join(tmp.path, `data${size}`);
      const done = await importMeasured(data, file);
      assert.equal(done.code, 0, done.stderr);
      assert.match(done.stdout, new RegExp(`${size} added, 0 already present`));
      peaks.push(done.peakMiB);
      const wal = join(data, "homed.db-wal");
      assert.equal(existsSync(wal) ? statSync(wal).size : 0, 0, "WAL truncated");
      if (size > WORKER_FROM) {
        const again = await run([...SOURCE_HOMED, "import", "-data", data, file]);
        assert.match(again.stdout, new RegExp(`0 added, ${size} already present, 0 invalid skipped`));
        assert.deepEqual(await counts(data, ["events", ...STAGED]), { events: size, import_runs: 0, import_events: 0, import_blocks: 0, import_seen: 0 });
      }
    }
    // Measured growth from 1k to 8k messages (before the worker thread): ~50 MB; ~220 MB with one
    // transaction for the whole file (before staging), ~200 MB with one chunk for the whole file.
    assert.ok(peaks[1]! - peaks[0]! < 100, `peak RSS grew with the file: ${peaks.map((p) => p.toFixed(0)).join(" → ")} MiB`);
    assert.ok(peaks[1]! < 500, `peak RSS ${peaks[1]!.toFixed(0)} MiB`);
  });

  test("the daemon's start removes what a killed import staged", async () => {
    using tmp = tempDir("homed-import-");
    const data = join(tmp.path, "data");
    const file = join(tmp.path, "history.jsonl");
    writeFileSync(file, historyLines(3).join("\n"));
    assert.equal((await run([...SOURCE_HOMED, "import", "-data", data, file])).code, 0);
    // What a killed import leaves: its run (its process gone), a staged event and its staged search segment.
    const gone = (await run(evalCommand("console.log(process.pid)"))).stdout.trim();
    const store = await openStore({ url: `file:${join(data, "homed.db")}` });
    try {
      const first = 2 ** 40;
      await store.client.execute({ sql: "INSERT INTO import_runs (id, first_rowid, state, pid, host, started_at) VALUES (7, ?, 'staging', ?, ?, 0)", args: [first, Number(gone), hostname()] });
      await store.client.execute({
        sql: "INSERT INTO import_events (event_rowid, id, session_id, conversation, scope, layer, seq, time, messages, text, tokens, created_at) VALUES (?, 'ev_k', 'c/s', 'c', 'conversation', 'L2', 0, 0, '[]', 'killed', 1, 0)",
        args: [first],
      });
      const segment = new SegmentBuilder();
      await segment.add(first, await analyseDocument({ own: "killed" }));
      const tx = await store.client.transaction("write");
      await segment.write(tx, "staged", 7);
      await tx.commit();
    } finally {
      store.close();
    }
    const daemon = await startDaemon([...SOURCE_HOMED, "-data", data, "-addr", "127.0.0.1:0"]);
    try {
      const started = Date.now();
      let left: Record<string, number> = {};
      do {
        await new Promise((resolve) => setTimeout(resolve, 100));
        left = await counts(data, ["import_runs", "import_events", "search_segments", "events"]);
      } while (left.import_runs !== 0 && Date.now() - started < 30_000);
      assert.deepEqual(left, { import_runs: 0, import_events: 0, search_segments: 1, events: 3 });
    } finally {
      await daemon.stop();
    }
  });
});

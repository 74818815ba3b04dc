/**
 * Recall speed: import throughput and query latency at growing sizes, next to MiniSearch (the
 * in-memory BM25 library a user would otherwise pick) and a plain FTS5 trigram table over the
 * message text alone (the engine's floor) on the same synthetic corpus in the same run. `RECALL_SIZES` (default 10000,100000; 1000000 works too) sets the sizes imported with
 * `homed import` as a user would, with the fallback embedder (so no vectors). `RECALL_VECTOR_SIZES`
 * (default 10000) sets the sizes also imported with a stand-in model's vectors, to show what
 * storing a real model's vectors costs. Temporary folders (gigabytes at 1M) are removed at the
 * end of each size and on any exit, failures and Ctrl-C included.
 */
import { closeSync, existsSync, openSync, readFileSync, rmSync, statSync, writeSync } from "node:fs";
import { join } from "node:path";
import { createClient } from "@libsql/client";
import { fileURLToPath } from "node:url";
import MiniSearch from "minisearch";
import { createFallbackEmbedder, type Embedder } from "../../src/embed/index.ts";
import { coldcontextQuery, DEFAULT_INJECTION, importHistory, parseHistory, stableQuery, type Channel } from "../../src/memory/index.ts";
import { openStore, type Store } from "../../src/store/index.ts";
import { queryTrigrams } from "../../src/text/index.ts";
import { tempDir } from "../evidence.ts";
import { syntheticHistory, syntheticQueries, type SyntheticLine } from "./corpus.ts";

const MAIN = fileURLToPath(new URL("../../src/main.ts", import.meta.url));
const sizes = (name: string, fallback: string) => (process.env[name] ?? fallback).split(",").filter(Boolean).map(Number);
const SIZES = sizes("RECALL_SIZES", "10000,100000");
const VECTOR_SIZES = sizes("RECALL_VECTOR_SIZES", "10000");
const QUERIES = 200;
const K = 10;

const dirs = new Set<string>();
function removeDir(dir: string): void {
  rmSync(dir, { recursive: true, force: true });
  dirs.delete(dir);
}
process.on("exit", () => [...dirs].forEach(removeDir));
for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"] as const) process.on(signal, () => process.exit(130));

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
const fmt = (ms: number[]) => {
  const s = [...ms].sort((a, b) => a - b);
  return `p50 ${percentile(s, 50).toFixed(1)} ms  p95 ${percentile(s, 95).toFixed(1)} ms`;
};
const mib = (path: string) => `${(statSync(path).size / 2 ** 20).toFixed(0)} MiB`;

async function time(run: () => Promise<unknown> | unknown): Promise<number> {
  const started = performance.now();
  await run();
  return performance.now() - started;
}

const summary: string[] = [];
function report(size: number, name: string, line: string): void {
  console.log(`${name.padEnd(48)} ${line}`);
  summary.push(`${size}\t${name}\t${line}`);
}

type Query = ReturnType<typeof syntheticQueries>[number];

async function latencies(size: number, name: string, queries: readonly Query[], run: (q: Query) => Promise<unknown> | unknown): Promise<void> {
  const ms: number[] = [];
  for (const q of queries) ms.push(await time(() => run(q)));
  report(size, name, fmt(ms));
}

async function homedLatencies(size: number, store: Store, queries: readonly Query[], label: string, channels: Channel[], embedder?: Embedder): Promise<void> {
  for (const scoped of [false, true]) {
    await latencies(size, `homed ${label}, ${scoped ? "one conversation" : "all memory"}`, queries, (q) =>
      coldcontextQuery(store.client, q.query, { k: K, channels, embedder, conversation: scoped ? q.conversation : undefined }),
    );
  }
  // What a chat runs (DESIGN §3 Scopes): all memory but other partners' private ones, its own
  // conversation boosted. "one conversation" above is what a chat ran before.
  await latencies(size, `homed ${label}, a chat (all, own first)`, queries, (q) =>
    coldcontextQuery(store.client, q.query, { k: K, channels, embedder, viewer: { partner: q.conversation }, prefer: { conversation: q.conversation, boost: DEFAULT_INJECTION.conversationBoost } }),
  );
}

/**
 * `homed import FILE` as a user runs it, with its peak resident memory (the kernel's account, from
 * wait4), started by a small process of its own: a child's peak counts the memory of the process
 * it was forked from until it runs the new program, and this benchmark holds hundreds of MB by
 * then (a 100k import read 626 MiB spawned from here, 415-421 MiB from a small parent).
 */
async function importMeasured(data: string, file: string): Promise<{ seconds: number; peakMiB: number }> {
  const measure = `const started = performance.now();
    const child = Bun.spawnSync(JSON.parse(process.env.MEASURED), { stdout: "ignore", stderr: "pipe" });
    console.log(JSON.stringify({ code: child.exitCode, stderr: child.stderr.toString(), seconds: (performance.now() - started) / 1000, peak: child.resourceUsage.maxRSS }));`;
  const run = Bun.spawn([process.execPath, "-e", measure], {
    stdout: "pipe",
    stderr: "inherit",
    env: { ...process.env, MEASURED: JSON.stringify([process.execPath, MAIN, "import", "-data", data, file]) },
  });
  const out = JSON.parse(await new Response(run.stdout).text()) as { code: number; stderr: string; seconds: number; peak: number };
  if (out.code !== 0) throw new Error(`homed import failed (${out.code}): ${out.stderr}`);
  return { seconds: out.seconds, peakMiB: out.peak / 2 ** 20 };
}

/** `homed import` (the CLI, fallback embedder: no vectors), recall latencies, MiniSearch alongside. */
async function measureSize(size: number, file: string, dir: string, queries: readonly Query[]): Promise<void> {
  const data = join(dir, "data");
  const imported = await importMeasured(data, file);
  report(
    size,
    "homed import (CLI, no vectors)",
    `${(size / imported.seconds).toFixed(0)} messages/s (${imported.seconds.toFixed(1)} s incl. process start; peak RSS ${imported.peakMiB.toFixed(0)} MiB; ` +
      `db ${mib(join(data, "homed.db"))}; WAL left ${existsSync(join(data, "homed.db-wal")) ? mib(join(data, "homed.db-wal")) : "none"})`,
  );

  // Generated again rather than kept from writing the file: at 1M the import needs the memory.
  const lines: SyntheticLine[] = [...syntheticHistory(size)];
  let mini!: MiniSearch<SyntheticLine>;
  const miniMs = await time(() => {
    mini = new MiniSearch<SyntheticLine>({ fields: ["text"], storeFields: ["conversation"], idField: "id" });
    mini.addAll(lines);
  });
  report(
    size,
    "MiniSearch index (memory only)",
    `${(size / (miniMs / 1000)).toFixed(0)} messages/s (${(miniMs / 1000).toFixed(1)} s; nothing persisted; this process's RSS ${(process.memoryUsage().rss / 2 ** 20).toFixed(0)} MiB)`,
  );

  const store = await openStore({ url: `file:${join(data, "homed.db")}` });
  try {
    await homedLatencies(size, store, queries, "words+grams", ["words", "grams"]);
    // No facts in this store: the facts (L3) query must cost next to nothing however many
    // messages there are (it once scored every matching message and threw them away).
    for (const scoped of [false, true]) {
      await latencies(size, `homed facts query (no facts), ${scoped ? "one conversation" : "all memory"}`, queries, (q) =>
        stableQuery(store.client, q.query, { k: K, conversation: scoped ? q.conversation : undefined }),
      );
    }
  } finally {
    store.close();
  }
  for (const scoped of [false, true]) {
    await latencies(size, `MiniSearch BM25, ${scoped ? "one conversation" : "all memory"}`, queries, (q) =>
      mini.search(q.query, scoped ? { filter: (r) => r.conversation === q.conversation } : {}).slice(0, K),
    );
  }
  await plainFts5Floor(size, lines, join(dir, "floor.db"), queries);
}

/**
 * The engine's floor: one FTS5 trigram table over each message's own text and nothing else (no
 * speaker, no neighbours, no words or bigram channel, no fusion), queried with the query's
 * trigrams, ranked by FTS5's BM25 and cut to k — through the same libSQL engine. What homed
 * adds on top of it (more channels, neighbours' text, layers, scopes, fusion) is the difference.
 * The conversation is a token of its own column ('conv_c7z': the 'z' ends it), as homed's scope key.
 */
async function plainFts5Floor(size: number, lines: readonly SyntheticLine[], db: string, queries: readonly Query[]): Promise<void> {
  const client = createClient({ url: `file:${db}` });
  try {
    await client.execute("CREATE VIRTUAL TABLE floor USING fts5(conversation, text, tokenize = 'trigram')");
    for (let i = 0; i < lines.length; i += 10_000) {
      await client.batch(
        lines.slice(i, i + 10_000).map((l) => ({ sql: "INSERT INTO floor (conversation, text) VALUES (?, ?)", args: [`conv_${l.conversation}z`, l.text] })),
        "write",
      );
    }
    const terms = (query: string) =>
      queryTrigrams(query)
        .map((t) => `"${t.replaceAll('"', '""')}"`)
        .join(" OR ");
    // A trigram table cannot match a query of two-character words alone ("月饼 上海"): those are
    // left out of its figures rather than timed as free.
    const askable = queries.filter((q) => terms(q.query) !== "");
    for (const scoped of [false, true]) {
      await latencies(size, `plain FTS5 trigram over text (floor, ${askable.length} of ${queries.length} queries), ${scoped ? "one conversation" : "all memory"}`, askable, (q) =>
        client.execute({
          sql: "SELECT rowid, rank FROM floor WHERE floor MATCH ? ORDER BY rank LIMIT ?",
          args: [scoped ? `conversation : "conv_${q.conversation}z" AND text : (${terms(q.query)})` : `text : (${terms(q.query)})`, K],
        }),
      );
    }
  } finally {
    client.close();
  }
}

/**
 * The same messages imported in-process with a stand-in model's vectors: hash vectors under a
 * model id that is not the fallback's, so they are stored and indexed (DiskANN) as a real
 * model's would be. It measures storing vectors, not computing them: a real model adds its own
 * inference time on top.
 */
async function measureVectors(size: number, file: string, dir: string, queries: readonly Query[]): Promise<void> {
  const { messages } = parseHistory(readFileSync(file, "utf8"));
  const standIn: Embedder = { ...createFallbackEmbedder(), modelId: "bench-stand-in@512" };
  const db = join(dir, "vectors.db");
  const store = await openStore({ url: `file:${db}` });
  try {
    const ms = await time(() => importHistory(store.client, messages, { embedder: standIn }));
    report(size, "homed import (in-process, stand-in model vectors)", `${(size / (ms / 1000)).toFixed(0)} messages/s (${(ms / 1000).toFixed(1)} s; db ${mib(db)})`);
    await homedLatencies(size, store, queries, "vector (stand-in model)", ["vector"], standIn);
  } finally {
    store.close();
  }
}

/** The synthetic history as JSON Lines, written in pieces (1M messages are ~200 MB). */
function writeHistory(file: string, size: number): void {
  const fd = openSync(file, "w");
  try {
    let piece: string[] = [];
    for (const line of syntheticHistory(size)) {
      piece.push(JSON.stringify(line));
      if (piece.length === 10_000) {
        writeSync(fd, `${piece.join("\n")}\n`);
        piece = [];
      }
    }
    if (piece.length > 0) writeSync(fd, `${piece.join("\n")}\n`);
  } finally {
    closeSync(fd);
  }
}

for (const size of [...new Set([...SIZES, ...VECTOR_SIZES])].sort((a, b) => a - b)) {
  const dir = tempDir("homed-recall-bench-");
  dirs.add(dir);
  try {
    const file = join(dir, "history.jsonl");
    writeHistory(file, size);
    const queries = syntheticQueries(QUERIES);
    console.log(`\n--- ${size.toLocaleString("en")} messages ---`);
    if (SIZES.includes(size)) await measureSize(size, file, dir, queries);
    if (VECTOR_SIZES.includes(size)) await measureVectors(size, file, dir, queries);
  } finally {
    removeDir(dir);
  }
}
console.log("\nSummary (size, what, result):");
for (const line of summary) console.log(line);

/**
 * Recall speed: import throughput and query latency at growing sizes, next to MiniSearch (the
 * in-memory BM25 library a user would otherwise pick) on the same synthetic corpus in the same
 * run. Sizes default to 10k and 100k messages; `RECALL_SIZES=10000,100000,1000000` adds 1M
 * (the import alone then takes hours on a small machine, dominated by vector-index inserts).
 */
import { rmSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import MiniSearch from "minisearch";
import { createFallbackEmbedder } from "../../src/embed/index.ts";
import { coldcontextQuery, type Channel } from "../../src/memory/index.ts";
import { openStore } from "../../src/store/index.ts";
import { importInto, tempDir } from "../evidence.ts";
import { syntheticHistory, syntheticQueries, type SyntheticLine } from "./corpus.ts";

const SIZES = (process.env.RECALL_SIZES ?? "10000,100000").split(",").map(Number);
const QUERIES = 200;

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
const fmt = (ms: number[]) => {
  const s = [...ms].sort((a, b) => a - b);
  return `p50 ${percentile(s, 50).toFixed(1)} ms  p95 ${percentile(s, 95).toFixed(1)} ms`;
};

async function time(run: () => Promise<unknown> | unknown): Promise<number> {
  const started = performance.now();
  await run();
  return performance.now() - started;
}

const summary: string[] = [];
for (const size of SIZES) {
  const dir = tempDir("homed-recall-bench-");
  const lines: SyntheticLine[] = [...syntheticHistory(size)];
  const file = join(dir, "history.jsonl");
  writeFileSync(file, lines.map((l) => JSON.stringify(l)).join("\n") + "\n");
  const queries = syntheticQueries(QUERIES);
  console.log(`\n--- ${size.toLocaleString("en")} messages ---`);

  const imported = importInto(join(dir, "data"), file);
  const dbBytes = statSync(join(dir, "data", "homed.db")).size;
  console.log(`homed import: ${(size / imported.seconds).toFixed(0)} messages/s (${imported.seconds.toFixed(1)} s incl. process start, fallback vectors + DiskANN index; db ${(dbBytes / 2 ** 20).toFixed(0)} MiB)`);

  let mini!: MiniSearch<SyntheticLine>;
  const miniMs = await time(() => {
    mini = new MiniSearch<SyntheticLine>({ fields: ["text"], storeFields: ["conversation"], idField: "id" });
    mini.addAll(lines);
  });
  console.log(`MiniSearch index: ${(size / (miniMs / 1000)).toFixed(0)} messages/s (in memory only, nothing persisted)`);

  const store = await openStore({ url: `file:${join(dir, "data", "homed.db")}` });
  const embedder = createFallbackEmbedder();
  const variants: [string, Channel[], boolean][] = [
    ["homed words+grams, all memory", ["words", "grams"], false],
    ["homed words+grams, one conversation", ["words", "grams"], true],
    ["homed vector (fallback), one conversation", ["vector"], true],
    ["homed vector (fallback), all memory", ["vector"], false],
  ];
  for (const [name, channels, scoped] of variants) {
    const ms: number[] = [];
    for (const q of queries) {
      ms.push(await time(() => coldcontextQuery(store.client, q.query, { k: 10, channels, embedder, conversation: scoped ? q.conversation : undefined })));
    }
    console.log(`${name.padEnd(44)} ${fmt(ms)}`);
    summary.push(`${size}\t${name}\t${fmt(ms)}`);
  }
  store.close();
  for (const scoped of [false, true]) {
    const ms: number[] = [];
    for (const q of queries) {
      ms.push(await time(() => mini.search(q.query, scoped ? { filter: (r) => r.conversation === q.conversation } : {}).slice(0, 10)));
    }
    const name = `MiniSearch BM25, ${scoped ? "one conversation" : "all memory"}`;
    console.log(`${name.padEnd(44)} ${fmt(ms)}`);
    summary.push(`${size}\t${name}\t${fmt(ms)}`);
  }
  // 100k messages leave ~2.6 GB behind.
  rmSync(dir, { recursive: true, force: true });
}
console.log("\nSummary (size, what, latency):");
for (const line of summary) console.log(line);

/**
 * Exact lookups on an open vocabulary (issue 26): the seeded corpus of `./corpus.ts` (tens of
 * thousands of Zipfian terms, unsegmented Chinese, invented words and names, codes, typos, mixed
 * lines), queried with 3–4 rare terms of one message, as a person recalls a thing they said.
 * Prints figures, never pass or fail, for three systems in the same run over the same texts:
 * - homed: `homed import FILE` as a user runs it (its speed and peak memory measured from a small
 *   parent process, `./peak-memory.ts`), then `coldcontextQuery` over words + grams (no embedding
 *   model) as bench/recall does, once per fusion method;
 * - MiniSearch (in memory) with a tokenizer that splits Chinese runs into overlapping bigrams and
 *   Latin runs into words — what a user would otherwise build;
 * - a plain FTS5 trigram table over each message's text, queried with the query's trigrams, through
 *   the same libSQL (bench/recall's floor).
 * For each: hit@1 and hit@10 (the target message among the first 1 / 10), latency p50 / p95 and
 * the process's CPU time per query (p50; the whole process's, so a collection's or a worker's
 * time counts too), for the query over all memory, scoped to the target's conversation, and
 * with one typo.
 *
 * `--corpus real` takes LoCoMo and MADial dev texts instead (`./real-corpus.ts`), mixed into generated
 * filler above their ~3,500 messages, queries from the real ones only.
 *
 * `bun bench/openvocab/run.ts [--size 10000,100000] [--queries 200] [--keep DIR] [--corpus generated|real]`; temporary folders
 * are removed at the end of each size and on any exit. `--keep DIR` keeps each size's imported
 * data folder in DIR/<size> (DIR/real-<size> for `--corpus real`) and, when one is there already, queries it without importing again
 * (the corpus is seeded, so it is the same store): for timing queries while changing the engine.
 */
import { appendFileSync, existsSync, rmSync, statSync, writeFileSync } from "node:fs";
import { loadavg } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { fileURLToPath } from "node:url";
import { createClient, type Client } from "@libsql/client";
import MiniSearch from "minisearch";
import { coldcontextQuery, configureFusion, FUSION_METHODS, FusionConfigSchema, type FusionMethod } from "../../src/memory/index.ts";
import { openStore, type Store } from "../../src/store/index.ts";
import { queryTrigrams } from "../../src/text/index.ts";
import { tempDir } from "../evidence.ts";
import { cjkBigramsAndWords } from "./cjk-bigrams-and-words.ts";
import { exactLookups, openVocabCorpus, type ExactLookup, type OpenVocabCorpus, type OpenVocabLine } from "./corpus.ts";
import { realCorpus } from "./real-corpus.ts";

const MAIN = fileURLToPath(new URL("../../src/main.ts", import.meta.url));
const PEAK_MEMORY = fileURLToPath(new URL("./peak-memory.ts", import.meta.url));
const { values: flags } = parseArgs({
  options: { size: { type: "string", default: "10000,100000" }, queries: { type: "string", default: "200" }, keep: { type: "string" }, corpus: { type: "string", default: "generated" } },
});
if (flags.corpus !== "generated" && flags.corpus !== "real") throw new Error(`--corpus generated|real, not "${flags.corpus}"`);
const SIZES = flags.size.split(",").filter(Boolean).map(Number);
const QUERIES = Number(flags.queries);
const K = 10;

const dirs = new Set<string>();
function removeDir(dir: string): void {
  rmSync(dir, { recursive: true, force: true });
  dirs.delete(dir);
}
process.on("exit", () => [...dirs].forEach(removeDir));
for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"] as const) process.on(signal, () => process.exit(130));

const percentile = (sorted: readonly number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
const mib = (path: string) => `${(statSync(path).size / 2 ** 20).toFixed(0)} MiB`;
const rate = (count: number, ms: number) => `${Math.round(count / (ms / 1000)).toLocaleString("en")} msg/s`;

const summary: string[] = [];
function report(size: number, what: string, line: string): void {
  console.log(`${what.padEnd(64)} ${line}`);
  summary.push(`${size}\t${what}\t${line}`);
}

/** The query variants: exact over all memory, exact within the target's conversation, one typo over all memory. */
const VARIANTS = [
  { name: "exact, all memory", text: (q: ExactLookup) => q.query, scoped: false },
  { name: "exact, own conversation", text: (q: ExactLookup) => q.query, scoped: true },
  { name: "one typo, all memory", text: (q: ExactLookup) => q.typo, scoped: false },
] as const;

/** A system answers a query with message ids, best first; `undefined` when it cannot ask it at all. */
type Search = (text: string, conversation: string | undefined) => Promise<string[] | undefined> | string[] | undefined;
/** `prepare` runs before each of its queries, untimed (homed's fusion method is set per process). */
type System = { name: string; search: Search; prepare?: () => void };

/**
 * Every lookup of each variant through every system: hit@1, hit@10, latency (of the queries a
 * system could ask). The systems take turns query by query, so a busy moment of this shared
 * machine falls on all of them alike; each answers one query untimed first (homed loads jieba then).
 */
async function measureSystems(size: number, systems: readonly System[], lookups: readonly ExactLookup[]): Promise<void> {
  for (const system of systems) {
    system.prepare?.();
    await system.search(lookups[0]!.query, undefined);
  }
  const lines = new Map<string, string[]>(systems.map((s) => [s.name, []]));
  for (const variant of VARIANTS) {
    const tallies = systems.map(() => ({ at1: 0, at10: 0, ms: [] as number[], cpu: [] as number[] }));
    for (const q of lookups) {
      for (const [i, system] of systems.entries()) {
        system.prepare?.();
        const cpu = process.cpuUsage();
        const started = performance.now();
        const ids = await system.search(variant.text(q), variant.scoped ? q.conversation : undefined);
        if (ids === undefined) continue;
        const tally = tallies[i]!;
        tally.ms.push(performance.now() - started);
        const used = process.cpuUsage(cpu);
        tally.cpu.push((used.user + used.system) / 1000);
        const rank = ids.indexOf(q.target);
        if (rank === 0) tally.at1++;
        if (rank >= 0 && rank < K) tally.at10++;
      }
    }
    for (const [i, system] of systems.entries()) {
      const { at1, at10, ms, cpu } = tallies[i]!;
      ms.sort((x, y) => x - y);
      cpu.sort((x, y) => x - y);
      const asked = ms.length === lookups.length ? "" : ` (${lookups.length - ms.length} unaskable, counted as misses)`;
      // CPU time besides wall time: on a shared machine a query's wall time is mostly waiting for a core.
      const latency = ms.length === 0 ? "—" : `p50 ${percentile(ms, 50).toFixed(2)} ms  p95 ${percentile(ms, 95).toFixed(1)} ms  cpu p50 ${percentile(cpu, 50).toFixed(2)} ms`;
      lines.get(system.name)!.push(`${variant.name}\t${`hit@1 ${(at1 / lookups.length).toFixed(3)}  hit@10 ${(at10 / lookups.length).toFixed(3)}  ${latency}${asked}`}`);
    }
  }
  for (const [name, results] of lines) {
    for (const result of results) {
      const [variant, line] = result.split("\t");
      report(size, `${name}, ${variant}`, line!);
    }
  }
}

/** `homed import FILE` in a child of `./peak-memory.ts`: wall time (process start included) and the child's VmHWM. */
async function importMeasured(data: string, file: string): Promise<{ seconds: number; peakMiB: number }> {
  const run = Bun.spawn([process.execPath, PEAK_MEMORY, process.execPath, MAIN, "import", "-data", data, file], { stdout: "pipe", stderr: "inherit" });
  const out = JSON.parse(await new Response(run.stdout).text()) as { code: number; seconds: number; peakKiB: number; stderr: string };
  if (out.code !== 0) throw new Error(`homed import failed (${out.code}): ${out.stderr}`);
  return { seconds: out.seconds, peakMiB: out.peakKiB / 1024 };
}

/** homed's engine over the imported store, once per fusion method, the default first (what a user gets). */
function homedSystems(store: Store): System[] {
  const defaultMethod = FusionConfigSchema.parse({}).method;
  return [...FUSION_METHODS]
    .sort((a: FusionMethod, b: FusionMethod) => Number(b === defaultMethod) - Number(a === defaultMethod))
    .map((method) => ({
      name: `homed words+grams, ${method}${method === defaultMethod ? " (default)" : ""}`,
      prepare: () => configureFusion(FusionConfigSchema.parse({ method })),
      search: async (text, conversation) => (await coldcontextQuery(store.client, text, { k: K, channels: ["words", "grams"], conversation })).map((c) => c.sources[0] ?? ""),
    }));
}

function miniSearchSystem(size: number, lines: readonly OpenVocabLine[]): MiniSearch<OpenVocabLine> {
  const started = performance.now();
  const mini = new MiniSearch<OpenVocabLine>({ fields: ["text"], storeFields: ["conversation"], idField: "id", tokenize: cjkBigramsAndWords, processTerm: (t) => t.toLowerCase() });
  mini.addAll(lines);
  report(size, "MiniSearch build (CJK bigrams + words, memory only)", `${rate(lines.length, performance.now() - started)} (nothing persisted)`);
  return mini;
}

/** bench/recall's floor: one FTS5 trigram table over each message's own text, the conversation a token of its own column. */
async function fts5TrigramSystem(size: number, lines: readonly OpenVocabLine[], db: string): Promise<Client> {
  const client = createClient({ url: `file:${db}` });
  const started = performance.now();
  await client.execute("CREATE VIRTUAL TABLE floor USING fts5(conversation, text, tokenize = 'trigram')");
  for (let i = 0; i < lines.length; i += 10_000) {
    await client.batch(
      lines.slice(i, i + 10_000).map((l, j) => ({ sql: "INSERT INTO floor (rowid, conversation, text) VALUES (?, ?, ?)", args: [i + j + 1, `conv_${l.conversation}z`, l.text] })),
      "write",
    );
  }
  report(size, "plain FTS5 trigram build (libSQL, one batch per 10k)", `${rate(lines.length, performance.now() - started)} (db ${mib(db)})`);
  return client;
}

function corpusFigures(size: number, corpus: OpenVocabCorpus, lookups: readonly ExactLookup[]): void {
  const chars = corpus.lines.reduce((sum, l) => sum + l.text.length, 0);
  report(
    size,
    "corpus",
    `${corpus.distinctTerms.toLocaleString("en")} distinct terms; ${(chars / size).toFixed(1)} chars a message; ${lookups.length} lookups, ` +
      `${lookups.filter((q) => q.unique).length} whose terms only their target holds together`,
  );
}

async function measureSize(size: number): Promise<void> {
  const dir = tempDir("homed-openvocab-bench-");
  dirs.add(dir);
  try {
    console.log(`\n--- ${size.toLocaleString("en")} messages (load average ${loadavg()[0]!.toFixed(1)}) ---`);
    const real = flags.corpus === "real" ? realCorpus(size) : undefined;
    const corpus = real ?? openVocabCorpus(size);
    report(
      size,
      `corpus: ${real ? "real (LoCoMo + MADial dev)" : "generated"}`,
      real ? `${real.real} real messages, ${real.filler} generated filler; ${real.realDistinctTerms.toLocaleString("en")} distinct real terms; queries from real messages only` : `${size} messages`,
    );
    const lookups = exactLookups(corpus, QUERIES);
    corpusFigures(size, corpus, lookups);
    const file = join(dir, "history.jsonl");
    writeFileSync(file, "");
    // In pieces: one string of 1M messages would be ~250 MB.
    for (let i = 0; i < size; i += 10_000)
      appendFileSync(
        file,
        `${corpus.lines
          .slice(i, i + 10_000)
          .map((l) => JSON.stringify(l))
          .join("\n")}\n`,
      );

    const data = flags.keep === undefined ? join(dir, "data") : join(flags.keep, flags.corpus === "real" ? `real-${size}` : String(size));
    if (flags.keep !== undefined && existsSync(join(data, "homed.db"))) report(size, "homed import (CLI, no vectors)", `not run: the store kept in ${data} is queried`);
    else {
      const imported = await importMeasured(data, file);
      const wal = join(data, "homed.db-wal");
      report(
        size,
        "homed import (CLI, no vectors)",
        `${rate(size, imported.seconds * 1000)} (${imported.seconds.toFixed(1)} s incl. process start; peak RSS ${imported.peakMiB.toFixed(0)} MiB; ` +
          `db ${mib(join(data, "homed.db"))}; WAL left ${existsSync(wal) ? mib(wal) : "none"})`,
      );
    }
    const mini = miniSearchSystem(size, corpus.lines);
    const fts5 = await fts5TrigramSystem(size, corpus.lines, join(dir, "floor.db"));

    const store = await openStore({ url: `file:${join(data, "homed.db")}` });
    try {
      await measureSystems(
        size,
        [
          ...homedSystems(store),
          {
            name: "MiniSearch BM25, CJK bigrams + words",
            search: (text, conversation) =>
              mini
                .search(text, conversation === undefined ? {} : { filter: (r) => r.conversation === conversation })
                .slice(0, K)
                .map((r) => r.id as string),
          },
          {
            name: "plain FTS5 trigram over text",
            search: async (text, conversation) => {
              const terms = queryTrigrams(text)
                .map((t) => `"${t.replaceAll('"', '""')}"`)
                .join(" OR ");
              // Words of one or two characters give no trigram: a query of them alone cannot be asked.
              if (terms === "") return undefined;
              const rows = await fts5.execute({
                sql: "SELECT rowid FROM floor WHERE floor MATCH ? ORDER BY rank LIMIT ?",
                args: [conversation === undefined ? `text : (${terms})` : `conversation : "conv_${conversation}z" AND text : (${terms})`, K],
              });
              return rows.rows.map((r) => corpus.lines[Number(r.rowid) - 1]!.id);
            },
          },
        ],
        lookups,
      );
    } finally {
      configureFusion(FusionConfigSchema.parse({}));
      store.close();
      fts5.close();
    }
  } finally {
    removeDir(dir);
  }
}

for (const size of SIZES) await measureSize(size);
console.log("\nSummary (size, what, result):");
for (const line of summary) console.log(line);

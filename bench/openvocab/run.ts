/**
 * Exact lookups on an open vocabulary (issue 26): the seeded corpus of `./corpus.ts` (tens of
 * thousands of Zipfian terms, unsegmented Chinese, invented words and names, codes, typos, mixed
 * lines), queried with 3–4 rare terms of one message, as a person recalls a thing they said.
 * Prints figures, never pass or fail, for three systems in the same run over the same texts
 * (`./systems.ts`): homed (`homed import FILE` as a user runs it, its speed and peak memory measured
 * from a small parent process, `./peak-memory.ts`; then the merge of its segments a daemon runs
 * after an import, `./merge-kept.ts`; then words + grams, one system per fusion method), MiniSearch with Chinese bigrams and Latin words, and a plain FTS5 trigram table. Each
 * system runs in a child process of its own (`./system-child.ts`, one per homed fusion method), so
 * no system's collections fall on another's queries; this process sends them the queries one at a
 * time, in turns (`./measure-in-turns.ts`), and judges their answers. (Taking turns among five
 * processes has a cost of its own: docs/benchmarks.md, "Each system in a process of its own".)
 * For each: hit@1 and hit@10 (the target message among the first 1 / 10), latency p50 / p95 and
 * the CPU time per query of the system's child (p50; the whole child's, so a collection's or a
 * worker's time counts too), for the query over all memory, scoped to the target's conversation, and
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
import { appendFileSync, existsSync, rmSync, writeFileSync } from "node:fs";
import { loadavg } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { fileURLToPath } from "node:url";
import { FUSION_METHODS, FusionConfigSchema, type FusionMethod } from "../../src/memory/index.ts";
import { tempDir } from "../evidence.ts";
import { exactLookups, openVocabCorpus, type ExactLookup, type OpenVocabCorpus } from "./corpus.ts";
import { measureInTurns } from "./measure-in-turns.ts";
import { realCorpus } from "./real-corpus.ts";
import { startSystem, type SystemProcess } from "./system-process.ts";
import type { SystemSpec } from "./system-protocol.ts";
import { mib, rate } from "./systems.ts";

const MAIN = fileURLToPath(new URL("../../src/main.ts", import.meta.url));
const PEAK_MEMORY = fileURLToPath(new URL("./peak-memory.ts", import.meta.url));
const MERGE_KEPT = fileURLToPath(new URL("./merge-kept.ts", import.meta.url));
const { values: flags } = parseArgs({
  options: { size: { type: "string", default: "10000,100000" }, queries: { type: "string", default: "200" }, keep: { type: "string" }, corpus: { type: "string", default: "generated" } },
});
if (flags.corpus !== "generated" && flags.corpus !== "real") throw new Error(`--corpus generated|real, not "${flags.corpus}"`);
const SIZES = flags.size.split(",").filter(Boolean).map(Number);
const QUERIES = Number(flags.queries);
/** Lookups each system answers untimed first (see measureInTurns). */
const WARM_UP = 50;

const dirs = new Set<string>();
function removeDir(dir: string): void {
  rmSync(dir, { recursive: true, force: true });
  dirs.delete(dir);
}
const children = new Set<SystemProcess>();
process.on("exit", () => {
  for (const child of children) child.kill();
  [...dirs].forEach(removeDir);
});
for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"] as const) process.on(signal, () => process.exit(130));

const summary: string[] = [];
function report(size: number, what: string, line: string): void {
  console.log(`${what.padEnd(64)} ${line}`);
  summary.push(`${size}\t${what}\t${line}`);
}

/** `homed import FILE` in a child of `./peak-memory.ts`: wall time (process start included) and the child's VmHWM. */
async function importMeasured(data: string, file: string): Promise<{ seconds: number; peakMiB: number }> {
  const run = Bun.spawn([process.execPath, PEAK_MEMORY, process.execPath, MAIN, "import", "-data", data, file], { stdout: "pipe", stderr: "inherit" });
  const out = JSON.parse(await new Response(run.stdout).text()) as { code: number; seconds: number; peakKiB: number; stderr: string };
  if (out.code !== 0) throw new Error(`homed import failed (${out.code}): ${out.stderr}`);
  return { seconds: out.seconds, peakMiB: out.peakKiB / 1024 };
}

/**
 * The merge a daemon runs after an import (`homed import` leaves its segments to it), in a process
 * of its own (`./merge-kept.ts`): the store is queried as a user's daemon would have it a minute
 * later. Its lines (segments before and after, time, peak RSS) as one.
 */
async function mergedAsADaemonWould(data: string): Promise<string> {
  const run = Bun.spawn([process.execPath, MERGE_KEPT, join(data, "homed.db")], { stdout: "pipe", stderr: "inherit" });
  const out = await new Response(run.stdout).text();
  if ((await run.exited) !== 0) throw new Error(`merging the imported store failed: ${out}`);
  return out.trim().split("\n").join("; ");
}

/** homed's fusion methods, the default first (what a user gets), each a system of its own. */
function homedMethods(): { name: string; method: FusionMethod }[] {
  const defaultMethod = FusionConfigSchema.parse({}).method;
  return [...FUSION_METHODS]
    .sort((a: FusionMethod, b: FusionMethod) => Number(b === defaultMethod) - Number(a === defaultMethod))
    .map((method) => ({ name: `homed words+grams, ${method}${method === defaultMethod ? " (default)" : ""}`, method }));
}

/** Starts a system's child, one at a time (a build's rate is its own), and reports its build's figure if it has one. */
async function started(size: number, name: string, spec: SystemSpec, buildLabel?: string): Promise<SystemProcess> {
  const system = await startSystem(name, spec);
  children.add(system);
  if (buildLabel !== undefined) report(size, buildLabel, system.build ?? "—");
  return system;
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
    // Untimed, before the measured lookups: other messages' (another seed, none of the targets).
    const targets = new Set(lookups.map((q) => q.target));
    const warmUp = exactLookups(corpus, WARM_UP, 8).filter((q) => !targets.has(q.target));
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
    report(size, "homed merge after the import (what a daemon does)", await mergedAsADaemonWould(data));
    try {
      const mini = await started(size, "MiniSearch BM25, CJK bigrams + words", { kind: "minisearch", history: file }, "MiniSearch build (CJK bigrams + words, memory only)");
      const fts5 = await started(size, "plain FTS5 trigram over text", { kind: "fts5", history: file, db: join(dir, "floor.db") }, "plain FTS5 trigram build (libSQL, one batch per 10k)");
      const homed: SystemProcess[] = [];
      for (const { name, method } of homedMethods()) homed.push(await started(size, name, { kind: "homed", data, method }));
      for (const result of await measureInTurns([...homed, mini, fts5], lookups, warmUp)) report(size, `${result.system}, ${result.variant}`, result.line);
    } finally {
      for (const child of [...children]) {
        await child.close();
        children.delete(child);
      }
    }
  } finally {
    removeDir(dir);
  }
}

console.log("Each system runs in a child process of its own (bench/openvocab/system-child.ts), answering in turns query by query and timing its own search.");
for (const size of SIZES) await measureSize(size);
console.log("\nSummary (size, what, result):");
for (const line of summary) console.log(line);

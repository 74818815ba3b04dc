/**
 * Shared by the retrieval evaluations: run homed's CLI exactly as a user (or the held-out
 * check) would — `homed import FILE`, then `homed recall --queries FILE` — and score rankings.
 */
import { spawn, spawnSync } from "node:child_process";
import { createInterface } from "node:readline";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const MAIN = fileURLToPath(new URL("../src/main.ts", import.meta.url));

export type RecallLine = { id: string; results: { sources: string[] }[] };

function homed(args: string[]): string {
  const run = spawnSync(process.execPath, [MAIN, ...args], { encoding: "utf8", maxBuffer: 1 << 30 });
  if (run.status !== 0) throw new Error(`homed ${args.join(" ")} failed (${run.status}): ${run.stderr}`);
  return run.stdout;
}

export function tempDir(prefix: string): string {
  return mkdtempSync(join(tmpdir(), prefix));
}

export function writeJsonl(path: string, rows: readonly unknown[]): void {
  writeFileSync(path, `${rows.map((r) => JSON.stringify(r)).join("\n")}\n`);
}

/** Imports a JSONL history into a fresh data folder; returns the summary line and seconds taken. */
export function importInto(dataDir: string, file: string, flags: readonly string[] = []): { summary: string; seconds: number } {
  const started = performance.now();
  const summary = homed(["import", "-data", dataDir, ...flags, file]).trim();
  return { summary, seconds: (performance.now() - started) / 1000 };
}

/** Runs a batch recall; returns each query's ranked list of source ids (one list per result). */
export function batchRecall(dataDir: string, queriesFile: string, k: number, channels?: string, flags: readonly string[] = []): Map<string, string[][]> {
  const args = ["recall", "-data", dataDir, ...flags, "--queries", queriesFile, "-k", String(k)];
  if (channels) args.push("--channels", channels);
  const out = homed(args);
  const byId = new Map<string, string[][]>();
  for (const line of out.split("\n")) {
    if (!line.trim()) continue;
    const parsed = JSON.parse(line) as RecallLine;
    byId.set(
      String(parsed.id),
      parsed.results.map((r) => r.sources),
    );
  }
  return byId;
}

/**
 * Starts bench/embedding-server.ts (a real English embedding model behind an OpenAI-compatible
 * `/v1/embeddings`) and returns the homed flags that use it, and how to stop it.
 */
export async function startEmbeddingServer(): Promise<{ flags: string[]; stop: () => void }> {
  const child = spawn(process.execPath, [fileURLToPath(new URL("./embedding-server.ts", import.meta.url))], { stdio: ["ignore", "pipe", "inherit"] });
  const port = await new Promise<number>((resolve, reject) => {
    child.once("exit", (code) => reject(new Error(`Cannot start the embedding server: it exited with ${code}`)));
    createInterface({ input: child.stdout! }).on("line", (line) => {
      const match = /^listening (\d+)$/.exec(line);
      if (match) resolve(Number(match[1]));
    });
  });
  return {
    flags: ["-embed-url", `http://127.0.0.1:${port}/v1`, "-embed-model", "universal-sentence-encoder"],
    stop: () => child.kill(),
  };
}

/**
 * Fraction of `gold` found among the sources of the first k results, averaged over questions.
 * A question without gold (LoCoMo has two) has no recall to measure and is left out.
 */
export function evidenceRecall(questions: readonly { id: string; gold: readonly string[] }[], ranked: (id: string) => string[][], ks: readonly number[]): number[] {
  const scored = questions.filter((q) => q.gold.length > 0);
  return ks.map((k) => {
    let sum = 0;
    for (const q of scored) {
      const found = new Set(ranked(q.id).slice(0, k).flat());
      sum += q.gold.filter((g) => found.has(g)).length / q.gold.length;
    }
    return sum / scored.length;
  });
}

export function formatRow(name: string, ks: readonly number[], values: readonly number[], width = 34, metric = "R"): string {
  return `${name.padEnd(width)} ${ks.map((k, i) => `${metric}@${k} ${values[i]!.toFixed(3)}`).join("  ")}`;
}

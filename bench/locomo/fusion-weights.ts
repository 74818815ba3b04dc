/**
 * LoCoMo dev: how much weight the vector channel should have in the fusion, measured. Imports
 * the five dev conversations with the Universal Sentence Encoder (bench/embedding-server.ts, the
 * one model that can be had here), asks every category 1–4 question once per channel alone
 * (`homed recall --channels X -k 100`: a channel alone ranks as it does inside the fusion, to
 * the fusion's depth of 100 at k = 50), then fuses those rankings with src/memory/fusion.ts at
 * each vector weight and prints evidence recall@5/10/25/50 beside words+grams (the baseline,
 * same run) and a real three-channel `homed recall` at the default weights (to check the
 * offline fusion matches homed's own). Also a weight that follows agreement: the share of the
 * vector channel's top 10 that words+grams also rank in their top 10, per query.
 * FUSION_CACHE=FILE keeps the rankings, so a second run re-fuses without importing again.
 */
import { existsSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fuseRrf, RRF_K, type ChannelWeights } from "../../src/memory/fusion.ts";
import type { Channel, Ranked } from "../../src/memory/channels.ts";
import { batchRecall, evidenceRecall, formatRow, importInto, startEmbeddingServer, tempDir, writeJsonl } from "../evidence.ts";
import { convertLocomo } from "./convert.ts";

const DATA = process.env.LOCOMO_FILE ?? "/work/shared/data/locomo/locomo-dev.json";
const KS = [5, 10, 25, 50] as const;
const WEIGHTS = (process.env.FUSION_WEIGHTS ?? "0,0.1,0.2,0.3,0.4,0.5,0.7,1").split(",").map(Number);

const { lines, questions } = convertLocomo(DATA);
const gold = questions.map((q) => ({ id: q.id, gold: q.evidence }));
const dir = tempDir("homed-fusion-");
const historyFile = join(dir, "history.jsonl");
const queriesFile = join(dir, "queries.jsonl");
writeJsonl(historyFile, lines);
writeJsonl(
  queriesFile,
  questions.map((q) => ({ id: q.id, query: q.query, conversation: q.conversation })),
);

type Rankings = { alone: Record<"words" | "grams" | "vector", Map<string, string[][]>>; real: Map<string, string[][]> };

function measure(): Rankings {
  const data = join(dir, "data");
  const imported = importInto(data, historyFile, embedding.flags);
  console.log(`LoCoMo: ${questions.length} questions; ${imported.summary}`);
  // Each channel alone, to the fusion's depth; a result is keyed by its sources (one turn each).
  const alone = Object.fromEntries((["words", "grams", "vector"] as const).map((c) => [c, batchRecall(data, queriesFile, 100, c, embedding.flags)])) as Rankings["alone"];
  return { alone, real: batchRecall(data, queriesFile, 50, "words,grams,vector", embedding.flags) };
}

const CACHE = process.env.FUSION_CACHE;
const embedding = await startEmbeddingServer();
try {
  let rankings: Rankings;
  if (CACHE && existsSync(CACHE)) {
    const raw = JSON.parse(readFileSync(CACHE, "utf8")) as { alone: Record<string, [string, string[][]][]>; real: [string, string[][]][] };
    rankings = { alone: Object.fromEntries(Object.entries(raw.alone).map(([c, m]) => [c, new Map(m)])) as Rankings["alone"], real: new Map(raw.real) };
    console.log(`LoCoMo: ${questions.length} questions; rankings from ${CACHE}`);
  } else {
    rankings = measure();
    if (CACHE) writeFileSync(CACHE, JSON.stringify({ alone: Object.fromEntries(Object.entries(rankings.alone).map(([c, m]) => [c, [...m]])), real: [...rankings.real] }));
  }
  const { alone, real } = rankings;
  const ranked = (id: string, channels: readonly Channel[]) => {
    const out: Partial<Record<Channel, Ranked>> = {};
    // Ranks only (RRF reads nothing else), as positive scores: fusion drops what scores 0, a non-match.
    for (const c of channels) {
      const list = alone[c as keyof Rankings["alone"]].get(id) ?? [];
      out[c] = list.map((sources, i) => ({ id: JSON.stringify(sources), score: list.length - i }));
    }
    return out;
  };
  const fused = (id: string, channels: readonly Channel[], weights: ChannelWeights): string[][] =>
    fuseRrf(ranked(id, channels), RRF_K, weights)
      .slice(0, 50)
      .map((f) => JSON.parse(f.id) as string[]);
  /** Share of the vector channel's top 10 that words+grams also put in their top 10. */
  const agreement = (id: string) => {
    const lexical = new Set(
      fuseRrf(ranked(id, ["words", "grams"]), RRF_K, {})
        .slice(0, 10)
        .map((f) => f.id),
    );
    const vector = (ranked(id, ["vector"]).vector ?? []).slice(0, 10);
    return vector.length === 0 ? 0 : vector.filter((v) => lexical.has(v.id)).length / vector.length;
  };
  const row = (name: string, rank: (id: string) => string[][]) => {
    const values = evidenceRecall(gold, rank, KS);
    console.log(formatRow(name, KS, values, 44));
    return values;
  };
  console.log("\nEvidence recall, categories 1-4 (USE as the vector channel):");
  const base = row("words+grams (baseline, offline fusion)", (id) => fused(id, ["words", "grams"], {}));
  row("homed recall words,grams,vector (default weights)", (id) => real.get(id) ?? []);
  for (const w of WEIGHTS) {
    const values = row(`words+grams+vector, vector weight ${w}`, (id) => fused(id, ["words", "grams", "vector"], { vector: w }));
    console.log(`${"".padEnd(44)} vs baseline: ${values.map((v, i) => `${v - base[i]! >= 0 ? "+" : ""}${(v - base[i]!).toFixed(3)}`).join("  ")}`);
  }
  for (const [name, weightOf] of [
    ["0.1 + 0.9 × agreement", (a: number) => 0.1 + 0.9 * a],
    ["0.05 + agreement", (a: number) => 0.05 + a],
    ["agreement", (a: number) => a],
    ["0.1 + 0.4 × agreement", (a: number) => 0.1 + 0.4 * a],
  ] as const) {
    const values = row(`vector weight ${name}`, (id) => fused(id, ["words", "grams", "vector"], { vector: weightOf(agreement(id)) }));
    console.log(`${"".padEnd(44)} vs baseline: ${values.map((v, i) => `${v - base[i]! >= 0 ? "+" : ""}${(v - base[i]!).toFixed(3)}`).join("  ")}`);
  }
  row("vector alone", (id) => alone.vector!.get(id)?.slice(0, 50) ?? []);
} finally {
  embedding.stop();
  rmSync(dir, { recursive: true, force: true });
}

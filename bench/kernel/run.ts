/**
 * Kernel overhead per turn — everything but the model call: storing events, the overflow
 * check and pruning, recall at pre_action, rendering, the stages — against a zero-latency
 * scripted provider, at 1k and 100k stored memories. The baseline, measured in the same run, is
 * a bare model call to the same provider through the same client.
 *
 * Each turn is also cut into its steps (p50 of each beside the bare call), timed from the real
 * turn by wrapping the context engine and the model client: append the input, the overflow check,
 * pre_action (recall and injection: everything between the check and rendering), render, the
 * model call, append the answer, after_output (citations, scenes: everything after). pre_action is
 * then broken down by calling its parts directly on the same store, with the same input and scope.
 * With `HOMED_BENCH_KERNEL_DB=<file>` the 100k store is imported there once and reused.
 */

import { existsSync } from "node:fs";
import { join } from "node:path";
import { Kernel } from "../../src/kernel/index.ts";
import { ChatClient, httpChatModel } from "../../src/llm/index.ts";
import { activeScene, auditInjection, buildInjection, coldcontextQuery, DEFAULT_INJECTION, importHistory, recallQuery, stableQuery } from "../../src/memory/index.ts";
import { createFallbackEmbedder } from "../../src/embed/index.ts";
import { openStore, SecretBox } from "../../src/store/index.ts";
import { searchWords } from "../../src/text/index.ts";
import { startScriptedProvider } from "../../tests/support/scripted-provider.ts";
import { syntheticHistory } from "../synthetic-corpus.ts";
import { scratchDir } from "../scratch.ts";

const TURNS = 40;
const quantile = (xs: number[], q: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(q * xs.length))]!;
const p50 = (xs: number[]) => quantile(xs, 0.5);

const provider = await startScriptedProvider(() => ({ content: "ok, noted." }));
const client = new ChatClient({ baseUrl: provider.url });
const bare: number[] = [];
for (let i = 0; i < TURNS; i++) {
  const t = performance.now();
  await client.stream({ model: "m", messages: [{ role: "user", content: "hello" }] });
  bare.push(performance.now() - t);
}
const bareP50 = p50(bare);
console.log(`bare model call (baseline): p50 ${bareP50.toFixed(2)} ms, p95 ${quantile(bare, 0.95).toFixed(2)} ms`);

/** Times of one turn's steps, in ms, filled in by the wrappers below. */
type Marks = { start: number; appends: [number, number][]; prune?: [number, number]; render?: [number, number]; model?: [number, number] };

const input = (i: number) => `Can you remind me about the quarterly budget review and 周末去西湖散步? (${i})`;

for (const memories of [1_000, 100_000]) {
  const reuse = memories === 100_000 ? process.env.HOMED_BENCH_KERNEL_DB : undefined;
  const file = reuse ?? join(scratchDir("homed-bench-kernel-"), "homed.db");
  const fresh = !existsSync(file);
  const store = await openStore({ url: `file:${file}` });
  const importStart = performance.now();
  if (fresh) await importHistory(store.client, syntheticHistory(memories));
  const importS = (performance.now() - importStart) / 1000;
  let marks: Marks = { start: 0, appends: [] };
  const timed =
    <A extends unknown[], R>(f: (...a: A) => Promise<R>, put: (span: [number, number]) => void) =>
    async (...a: A) => {
      const t = performance.now();
      try {
        return await f(...a);
      } finally {
        put([t, performance.now()]);
      }
    };
  const kernel = new Kernel({
    client: store.client,
    secrets: SecretBox.ephemeral(),
    log: { info: () => {}, warn: () => {} },
    env: { HOMED_BASE_URL: provider.url, HOMED_MODEL: "m" },
    budget: 4000,
    chatModel: (options) => {
      const model = httpChatModel(options);
      return { complete: model.complete.bind(model), stream: timed(model.stream.bind(model), (s) => (marks.model = s)) };
    },
  });
  const engine = kernel.engine as { -readonly [K in keyof typeof kernel.engine]: (typeof kernel.engine)[K] };
  engine.append = timed(engine.append.bind(engine), (s) => marks.appends.push(s));
  engine.prune = timed(engine.prune.bind(engine), (s) => (marks.prune = s));
  engine.render = timed(engine.render.bind(engine), (s) => (marks.render = s));
  const session = await kernel.sessions.open("bench", "user-3");
  const turns: number[] = [];
  const beforeModel: number[] = [];
  const steps: Record<string, number[]> = { "append input": [], "overflow check": [], pre_action: [], render: [], model: [], "append answer": [], after_output: [] };
  for (let i = 0; i < TURNS; i++) {
    marks = { start: performance.now(), appends: [] };
    await kernel.turn({ session, input: input(i) });
    const end = performance.now();
    turns.push(end - marks.start);
    const [inputAppend, answerAppend] = marks.appends as [[number, number], [number, number]];
    beforeModel.push(marks.model![0] - marks.start);
    steps["append input"]!.push(inputAppend[1] - inputAppend[0]);
    steps["overflow check"]!.push(marks.prune![1] - marks.prune![0]);
    steps.pre_action!.push(marks.render![0] - marks.prune![1]);
    steps.render!.push(marks.render![1] - marks.render![0]);
    steps.model!.push(marks.model![1] - marks.model![0]);
    steps["append answer"]!.push(answerAppend[1] - answerAppend[0]);
    steps.after_output!.push(end - answerAppend[1]);
  }
  // pre_action's parts, called directly in the order the memory participant calls them.
  const embedder = createFallbackEmbedder();
  const parts: Record<string, number[]> = { "topic words": [], "active scene": [], "query terms": [], "cold recall": [], "facts recall": [], "whole injection": [], audit: [] };
  const recall: number[] = [];
  const time = async <R>(name: string, f: () => Promise<R>) => {
    const t = performance.now();
    const r = await f();
    parts[name]!.push(performance.now() - t);
    return r;
  };
  for (let i = 0; i < TURNS; i++) {
    const text = input(i);
    const topic = await time("topic words", async () => [...new Set(await searchWords(text))].slice(0, 8));
    const sceneId = await time("active scene", () => activeScene(store.client, { channel: "bench", partner: "user-3", topic, timeOfDay: "morning" }));
    const asked = recallQuery(text);
    await time("query terms", () => asked.terms());
    // As a chat asks (the memory participant): all the user's memory, its own conversation first.
    const viewer = { partner: "user-3" };
    const prefer = { conversation: "user-3", boost: DEFAULT_INJECTION.conversationBoost };
    await time("cold recall", () => coldcontextQuery(store.client, asked, { k: DEFAULT_INJECTION.k, viewer, prefer }));
    await time("facts recall", () => stableQuery(store.client, asked, { k: DEFAULT_INJECTION.k, viewer }));
    const injection = await time("whole injection", () => buildInjection(store.client, text, { viewer, prefer: "user-3", config: DEFAULT_INJECTION, sceneId }));
    await time("audit", () => auditInjection(store.client, session.id, injection, DEFAULT_INJECTION.auditKeep));
    const t = performance.now();
    await coldcontextQuery(store.client, text, { k: 5, viewer, prefer, embedder });
    recall.push(performance.now() - t);
  }
  const turnP50 = p50(turns);
  console.log(
    `${memories.toLocaleString("en")} memories (${fresh ? `imported in ${importS.toFixed(1)} s` : `reused ${file}`}): turn p50 ${turnP50.toFixed(1)} ms, p95 ${quantile(turns, 0.95).toFixed(1)} ms; ` +
      `before the model call p50 ${p50(beforeModel).toFixed(1)} ms; kernel overhead p50 ${(turnP50 - bareP50).toFixed(1)} ms = ${(turnP50 / bareP50).toFixed(1)}x a bare model call, ` +
      `of which recall alone (k 5, with vectors) p50 ${p50(recall).toFixed(1)} ms`,
  );
  const share = (xs: number[]) => `${p50(xs).toFixed(1).padStart(7)} ms  ${((100 * p50(xs)) / turnP50).toFixed(0).padStart(3)} %`;
  console.log(`  steps of a turn (p50; % of the turn's p50; bare model call ${bareP50.toFixed(2)} ms):`);
  for (const [name, xs] of Object.entries(steps)) console.log(`    ${name.padEnd(16)}${share(xs)}`);
  console.log(`  pre_action's parts, called directly (p50; "whole injection" includes query terms, cold and facts recall):`);
  for (const [name, xs] of Object.entries(parts)) console.log(`    ${name.padEnd(16)}${share(xs)}`);
  store.close();
}
await provider.close();

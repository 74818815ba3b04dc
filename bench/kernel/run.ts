/**
 * Kernel overhead per turn — everything but the model call: storing events, the overflow
 * check and pruning, recall at pre_action, rendering, the stages — against a zero-latency
 * scripted provider, at 1k and 100k stored memories. The baseline, measured in the same run, is
 * a bare model call to the same provider through the same client.
 */

import { join } from "node:path";
import { Kernel } from "../../src/kernel/index.ts";
import { ChatClient } from "../../src/llm/index.ts";
import { coldcontextQuery, importHistory } from "../../src/memory/index.ts";
import { createFallbackEmbedder } from "../../src/embed/index.ts";
import { openStore, SecretBox } from "../../src/store/index.ts";
import { startScriptedProvider } from "../../tests/support/scripted-provider.ts";
import { syntheticHistory } from "../synthetic-corpus.ts";
import { scratchDir } from "../scratch.ts";

const TURNS = 40;
const quantile = (xs: number[], q: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(q * xs.length))]!;

const provider = await startScriptedProvider(() => ({ content: "ok, noted." }));
const client = new ChatClient({ baseUrl: provider.url });
const bare: number[] = [];
for (let i = 0; i < TURNS; i++) {
  const t = performance.now();
  await client.stream({ model: "m", messages: [{ role: "user", content: "hello" }] });
  bare.push(performance.now() - t);
}
const bareP50 = quantile(bare, 0.5);
console.log(`bare model call (baseline): p50 ${bareP50.toFixed(2)} ms, p95 ${quantile(bare, 0.95).toFixed(2)} ms`);

for (const memories of [1_000, 100_000]) {
  const store = await openStore({ url: `file:${join(scratchDir("homed-bench-kernel-"), "homed.db")}` });
  const importStart = performance.now();
  await importHistory(store.client, syntheticHistory(memories));
  const importS = (performance.now() - importStart) / 1000;
  const kernel = new Kernel({ client: store.client, secrets: SecretBox.ephemeral(), log: { info: () => {}, warn: () => {} }, env: { HOMED_BASE_URL: provider.url, HOMED_MODEL: "m" }, budget: 4000 });
  const session = await kernel.sessions.open("bench", "user-3");
  const turns: number[] = [];
  for (let i = 0; i < TURNS; i++) {
    const t = performance.now();
    await kernel.turn({ session, input: `Can you remind me about the quarterly budget review and 周末去西湖散步? (${i})` });
    turns.push(performance.now() - t);
  }
  const recall: number[] = [];
  const embedder = createFallbackEmbedder();
  for (let i = 0; i < TURNS; i++) {
    const t = performance.now();
    await coldcontextQuery(store.client, `Can you remind me about the quarterly budget review and 周末去西湖散步? (${i})`, { k: 5, conversation: "user-3", embedder });
    recall.push(performance.now() - t);
  }
  const p50 = quantile(turns, 0.5);
  console.log(
    `${memories.toLocaleString("en")} memories (imported in ${importS.toFixed(1)} s): turn p50 ${p50.toFixed(1)} ms, p95 ${quantile(turns, 0.95).toFixed(1)} ms; ` +
      `kernel overhead p50 ${(p50 - bareP50).toFixed(1)} ms = ${(p50 / bareP50).toFixed(1)}x a bare model call, of which recall alone p50 ${quantile(recall, 0.5).toFixed(1)} ms`,
  );
  store.close();
}
await provider.close();

/**
 * Bounded work for any input: a real daemon from source with a scripted provider; `/healthz`
 * asked back to back while one long message is stored and answered, beside the same checks on
 * the idle daemon (the baseline, same run). Prints the turn's time, /healthz p50/p99/max and the
 * daemon's peak RSS for each shape: 200,000 unbroken random CJK characters and Latin letters
 * through `/api/sessions/:id/messages`, and 15 MB of Latin letters through `/v1/chat/completions`.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { startApiDaemon } from "../../tests/support/api-daemon.ts";
import { startScriptedProvider } from "../../tests/support/scripted-provider.ts";
import { scratchDir } from "../scratch.ts";

function generated(n: number, char: (r: number) => string, seed: number): string {
  const out: string[] = [];
  for (let i = 0; i < n; i++) {
    seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
    out.push(char(seed >>> 8));
  }
  return out.join("");
}
const cjk = (n: number, seed: number) => generated(n, (r) => String.fromCodePoint(0x4e00 + (r % 20000)), seed);
const latin = (n: number, seed: number) => generated(n, (r) => String.fromCharCode(97 + (r % 26)), seed);

const provider = await startScriptedProvider(() => ({ content: "ok" }));
const daemon = await startApiDaemon(join(scratchDir("homed-bench-bounded-"), "data"), provider.url);
const rssMB = () => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${daemon.child.pid}/status`, "utf8"))![1]) / 1024;

/** /healthz latencies (ms) asked back to back until `until` settles, and the peak RSS meanwhile. */
async function sample(until: Promise<unknown>): Promise<{ latencies: number[]; peakMB: number }> {
  let settled = false;
  void until.finally(() => (settled = true));
  const latencies: number[] = [];
  let peakMB = rssMB();
  while (!settled) {
    const started = performance.now();
    await (await fetch(`${daemon.url}/healthz`)).text();
    latencies.push(performance.now() - started);
    peakMB = Math.max(peakMB, rssMB());
  }
  return { latencies, peakMB };
}

function report(label: string, ms: number, { latencies, peakMB }: { latencies: number[]; peakMB: number }) {
  const sorted = [...latencies].sort((a, b) => a - b);
  const at = (p: number) => sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))]!.toFixed(1);
  console.log(
    `${label.padEnd(34)} ${String(Math.round(ms)).padStart(6)} ms   /healthz p50 ${at(0.5).padStart(6)}  p99 ${at(0.99).padStart(6)}  max ${sorted.at(-1)!.toFixed(1).padStart(6)} ms (${sorted.length} checks)   peak RSS ${Math.round(peakMB)} MB`,
  );
}

// Start-up work (tokenizer table, jieba dictionaries) happens on the first turn: done first.
await daemon.send(await daemon.openSession("warm-up"), "先热个身 warm up");

const idleFor = new Promise((resolve) => setTimeout(resolve, 2000));
report("idle daemon (baseline, 2 s)", 2000, await sample(idleFor));

for (const [label, text] of [
  ["200,000 CJK, no spaces (/api)", cjk(200_000, 1)],
  ["200,000 Latin, no spaces (/api)", latin(200_000, 2)],
] as const) {
  const session = await daemon.openSession(label);
  const started = performance.now();
  const turn = daemon.send(session, text);
  const sampled = await sample(turn);
  report(label, performance.now() - started, sampled);
}

const big = latin(15_000_000, 3);
const started = performance.now();
const completion = fetch(`${daemon.url}/v1/chat/completions`, {
  method: "POST",
  headers: daemon.headers,
  body: JSON.stringify({ model: "homed", user: "bench-15mb", messages: [{ role: "user", content: big }] }),
}).then((r) => r.text());
const sampled = await sample(completion);
report("15 MB Latin, no spaces (/v1)", performance.now() - started, sampled);

await daemon.stop();
await provider.close();

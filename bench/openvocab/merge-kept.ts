/**
 * Merges a kept store's search segments (what a daemon or `homed import` does after an import)
 * and reports what it took: `bun bench/openvocab/merge-kept.ts DB [--page N]` prints the
 * segments before and after, the merge's wall time, this process's peak RSS (VmHWM: it does
 * nothing but open the store and merge) and the longest a write waited meanwhile — a probe
 * takes the write turn every 20 ms, so its worst wait is about the longest a merge held the turn.
 * It writes to DB: run it on a copy.
 */
import { readFileSync } from "node:fs";
import { parseArgs } from "node:util";
import { mergeInBackground } from "../../src/search/index.ts";
import { openStore } from "../../src/store/index.ts";

const { values: flags, positionals } = parseArgs({ options: { page: { type: "string" } }, allowPositionals: true });
const file = positionals[0];
if (!file) throw new Error("usage: merge-kept.ts DB [--page N]");
const store = await openStore({ url: `file:${file}` });
const client = store.client;

const segments = async () => {
  const rows = await client.execute("SELECT level, count(*) AS n, sum(docs) AS docs FROM search_segments WHERE state = 'live' GROUP BY level ORDER BY level");
  return rows.rows.map((r) => `L${r.level}: ${r.n} (${r.docs} docs)`).join(", ");
};
const vmHwmMiB = () => Number(/^VmHWM:\s+(\d+) kB/m.exec(readFileSync("/proc/self/status", "utf8"))![1]) / 1024;

console.log(`before: ${await segments()}; RSS ${vmHwmMiB().toFixed(0)} MiB`);
let done = false;
let worstWaitMs = 0;
const probe = (async () => {
  while (!done) {
    const start = performance.now();
    const tx = await client.transaction("write");
    tx.close();
    worstWaitMs = Math.max(worstWaitMs, performance.now() - start);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
})();
let heapMiB = 0;
const heapSampler = setInterval(() => {
  heapMiB = Math.max(heapMiB, process.memoryUsage().heapUsed / 2 ** 20);
}, 100);
const started = performance.now();
await mergeInBackground(client, flags.page === undefined ? {} : { pageRecords: Number(flags.page) });
const seconds = (performance.now() - started) / 1000;
done = true;
clearInterval(heapSampler);
await probe;
console.log(`after: ${await segments()}`);
console.log(`merge ${seconds.toFixed(1)} s; peak RSS ${vmHwmMiB().toFixed(0)} MiB (JS heap at most ${heapMiB.toFixed(0)} MiB); longest wait for the write turn ${worstWaitMs.toFixed(0)} ms`);
const left = await client.execute("SELECT count(*) AS n FROM search_segments WHERE state <> 'live'");
console.log(`segments not live left: ${left.rows[0]!.n}`);
store.close();

/**
 * Queries kept stores of the same corpus side by side: `bun bench/openvocab/query-kept.ts --size
 * 100000 --queries 100 DB…` asks each store the exact lookups of run.ts (all memory, the default
 * fusion), the stores taking turns query by query so a busy moment of a shared machine falls on
 * all alike, and prints each one's live segments, hit@10 and latency. For comparing one import's
 * store before and after merging its segments (bench/openvocab/merge-kept.ts writes the after).
 */
import { parseArgs } from "node:util";
import { coldcontextQuery } from "../../src/memory/index.ts";
import { openStore } from "../../src/store/index.ts";
import { exactLookups, openVocabCorpus } from "./corpus.ts";

const { values: flags, positionals: files } = parseArgs({ options: { size: { type: "string" }, queries: { type: "string", default: "100" } }, allowPositionals: true });
if (!flags.size || files.length === 0) throw new Error("usage: query-kept.ts --size N [--queries Q] DB…");
const lookups = exactLookups(openVocabCorpus(Number(flags.size)), Number(flags.queries));
const stores = await Promise.all(files.map((file) => openStore({ url: `file:${file}` })));
const ask = (i: number, text: string) => coldcontextQuery(stores[i]!.client, text, { k: 10, channels: ["words", "grams"] });
for (const [i] of stores.entries()) await ask(i, lookups[0]!.query);
const tallies = stores.map(() => ({ hits: 0, ms: [] as number[] }));
for (const q of lookups) {
  for (const [i, tally] of tallies.entries()) {
    const started = performance.now();
    const found = await ask(i, q.query);
    tally.ms.push(performance.now() - started);
    if (found.slice(0, 10).some((c) => c.sources[0] === q.target)) tally.hits++;
  }
}
const at = (sorted: readonly number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
for (const [i, { hits, ms }] of tallies.entries()) {
  ms.sort((a, b) => a - b);
  const live = await stores[i]!.client.execute("SELECT count(*) AS n FROM search_segments WHERE state = 'live'");
  console.log(`${files[i]}: ${live.rows[0]!.n} live segments; hit@10 ${(hits / lookups.length).toFixed(3)}; p50 ${at(ms, 50).toFixed(2)} ms, p95 ${at(ms, 95).toFixed(1)} ms`);
}
for (const store of stores) store.close();

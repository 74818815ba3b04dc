/**
 * Several daemons, one memory (issue 21.4): daemons with their own data folders on one libSQL
 * server (a real sqld on loopback) share memory, and run cooling and a backfill once between them.
 */
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { importHistory, startCoolingJob } from "../../src/memory/index.ts";
import { openStore } from "../../src/store/index.ts";
import { message, phraseEmbedder } from "../memory/fixture.ts";
import { countStale, leasedBackfill, type Embedder } from "../../src/embed/index.ts";
import { askProvider } from "../stable/support.ts";
import { SOURCE_HOMED, startDaemon } from "../support/process.ts";
import { startScriptedProvider } from "../support/scripted-provider.ts";
import { SQLD_SKIP, startSqld } from "../support/sqld.ts";
import { tempDir } from "../support/temp-dir.ts";

const FACT = JSON.stringify({ triples: [{ subject: "Ann", predicate: "said", object: "something", kind: "event", scope: "user", confidence: 0.9, importance: 0.5 }] });

describe("several daemons, one libSQL server", { skip: SQLD_SKIP }, () => {
  test("two cooling jobs on one server (two daemons' stores): each event is distilled once, by the lease holder", async () => {
    await using server = await startSqld();
    // Slow answers: without the lease both jobs would pick the same candidates meanwhile. The
    // lease lasts 3 intervals (450 ms), less than the run (6 calls of 100 ms+): renewed per event.
    const provider = await startScriptedProvider(() => ({ content: FACT, delayMs: 100 }));
    const stores = [await openStore({ url: server.url, authToken: server.authToken }), await openStore({ url: server.url, authToken: server.authToken })];
    try {
      await importHistory(
        stores[0]!.client,
        ["one", "two", "three", "four", "five", "six"].map((text) => message(text)),
        { now: 0 },
      );
      const logs: string[][] = [[], []];
      const jobs = stores.map((store, i) =>
        startCoolingJob({ client: store.client, ask: askProvider(provider.url), intervalMs: 150, idleMs: 0, lease: { holder: `daemon-${i}` }, log: (line) => logs[i]!.push(line) }),
      );
      const cooled = async () => Number((await stores[1]!.client.execute("SELECT count(*) FROM events WHERE layer = 'L3'")).rows[0]![0]);
      for (let waited = 0; (await cooled()) < 6 && waited < 10_000; waited += 50) await new Promise((resolve) => setTimeout(resolve, 50));
      await Promise.all(jobs.map((job) => job.stop()));
      assert.equal(await cooled(), 6);
      assert.equal(provider.requests.length, 6, "one model call per event across both jobs");
      assert.equal(logs.filter((lines) => lines.some((line) => line.startsWith("cooling: distilled"))).length, 1, "one job did the work");
      assert.equal(Number((await stores[0]!.client.execute("SELECT count(*) FROM job_leases")).rows[0]![0]), 0, "released on stop");
    } finally {
      for (const store of stores) store.close();
      await provider.close();
    }
  });

  test("two backfills on one server (two daemons after a switch of model): the records are embedded once, by the lease holder", async () => {
    await using server = await startSqld();
    const stores = [await openStore({ url: server.url, authToken: server.authToken }), await openStore({ url: server.url, authToken: server.authToken })];
    try {
      await importHistory(
        stores[0]!.client,
        Array.from({ length: 24 }, (_, i) => message(`note ${i}`)),
      );
      const stale = await countStale(stores[0]!.client, "test-phrases@512");
      let embedded = 0;
      const model = phraseEmbedder({});
      // Slow enough that both would be mid-way through the same pages without the lease.
      const slow: Embedder = { ...model, embedTexts: async (texts, options) => ((embedded += texts.length), await new Promise((r) => setTimeout(r, 20)), model.embedTexts(texts, options)) };
      const [a, b] = await Promise.all(stores.map((store, i) => leasedBackfill(store.client, slow, `daemon-${i}`, { batchSize: 4 })));
      assert.equal([a, b].filter((report) => report === undefined).length, 1, "one daemon left it to the other");
      const report = (a ?? b)!;
      assert.deepEqual([report.events.done, report.blocks.done], [stale.events, stale.blocks]);
      assert.equal(embedded, stale.events + stale.blocks, "each record embedded once across both");
      assert.deepEqual(await countStale(stores[1]!.client, model.modelId), { events: 0, blocks: 0 });
      assert.equal(Number((await stores[0]!.client.execute("SELECT count(*) FROM job_leases")).rows[0]![0]), 0, "released at the end");
    } finally {
      for (const store of stores) store.close();
    }
  });

  test("two daemons, two data folders: a fact noted through one is recalled through the other; a turn on one is in the other's context", async () => {
    await using server = await startSqld();
    using dataA = tempDir();
    using dataB = tempDir();
    const provider = await startScriptedProvider(() => ({ content: "Noted." }));
    await using _provider = { [Symbol.asyncDispose]: () => provider.close() };
    const env = { ...process.env, HOMED_DB: server.url, HOMED_DB_AUTH_TOKEN: server.authToken, HOMED_BASE_URL: provider.url, HOMED_MODEL: "scripted" };
    const start = (data: string) => startDaemon([...SOURCE_HOMED, "-data", data, "-addr", "127.0.0.1:0"], { env });
    const [a, b] = await Promise.all([start(dataA.path), start(dataB.path)]);
    try {
      const call = (daemon: typeof a, data: string, tool: string, body: unknown) =>
        fetch(`${daemon.url}/api/memory/tools/${tool}`, {
          method: "POST",
          headers: { authorization: `Bearer ${readFileSync(join(data, "admin.token"), "utf8").trim()}`, "content-type": "application/json" },
          body: JSON.stringify(body),
        }).then((r) => r.json() as Promise<any>);
      const noted = await call(a, dataA.path, "memory_note", { subject: "Mia", predicate: "parks at", object: "level 3, spot 42" });
      assert.equal(noted.action, "created");
      const recalled = await call(b, dataB.path, "memory_recall", { query: "where does Mia park" });
      assert.equal(recalled.results[0]?.id, noted.id, JSON.stringify(recalled));
      // A kernel turn on A: its messages are stored on the server (hot, L1), and B's context of
      // that session holds them.
      const headersA = { authorization: `Bearer ${readFileSync(join(dataA.path, "admin.token"), "utf8").trim()}`, "content-type": "application/json" };
      const session = ((await (await fetch(`${a.url}/api/sessions`, { method: "POST", headers: headersA, body: JSON.stringify({ partner: "Mia" }) })).json()) as { id: string }).id;
      const reply = await (await fetch(`${a.url}/api/sessions/${session}/messages`, { method: "POST", headers: headersA, body: JSON.stringify({ content: "My locker code is 4417" }) })).text();
      assert.match(reply, /event: done/);
      const headersB = { authorization: `Bearer ${readFileSync(join(dataB.path, "admin.token"), "utf8").trim()}` };
      const context = await fetch(`${b.url}/api/sessions/${session}/context`, { headers: headersB });
      assert.equal(context.status, 200);
      const dump = await context.text();
      assert.ok(dump.includes("My locker code is 4417") && dump.includes("Noted."), dump.slice(0, 500));
      assert.match(b.stderr(), new RegExp(`db ${server.url.replace(/[.]/g, "\\.")}`));
    } finally {
      await Promise.all([a.stop(), b.stop()]);
    }
  });
});

/**
 * The one write path (src/store/serial-writes.ts, write-lock.ts): writers of one process take
 * turns, homed processes take turns through the lock file without blocking the event loop, and a
 * process that is not homed holding SQLite's lock is waited for without breaking the pool.
 */
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { createClient } from "@libsql/client";
import { openStore } from "../../src/store/index.ts";
import { isReadOnly } from "../../src/store/serial-writes.ts";
import { ROOT, scriptCommand } from "../support/process.ts";
import { testDir } from "../support/temp-dir.ts";

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function scratchStore(options: { busyTimeoutMs?: number; onWait?: (message: string) => void } = {}) {
  const dir = testDir("homed-write-path-");
  const url = `file:${join(dir, "homed.db")}`;
  const store = await openStore({ url, ...options });
  await store.client.execute("CREATE TABLE t (flow INTEGER, step INTEGER)");
  return { dir, url, store };
}

const rows = async (client: { execute(sql: string): Promise<{ rows: Record<string, unknown>[] }> }) => Number((await client.execute("SELECT count(*) AS n FROM t")).rows[0]!.n);

describe("the write path", () => {
  test("write transactions of one process take turns: 20 that wait mid-transaction all commit, quickly", async () => {
    const { store } = await scratchStore();
    try {
      const started = performance.now();
      await Promise.all(
        Array.from({ length: 20 }, async (_, flow) => {
          const tx = await store.client.transaction("write");
          try {
            await tx.execute({ sql: "INSERT INTO t VALUES (?, 0)", args: [flow] });
            await sleep(5); // a real wait (an embedding, a model call): other flows run meanwhile
            await tx.execute({ sql: "INSERT INTO t VALUES (?, 1)", args: [flow] });
            await tx.commit();
          } finally {
            tx.close();
          }
          // Statements and batches outside transactions take their turn too.
          await store.client.execute({ sql: "INSERT INTO t VALUES (?, 2)", args: [flow] });
          await store.client.batch([{ sql: "INSERT INTO t VALUES (?, 3)", args: [flow] }]);
        }),
      );
      assert.equal(await rows(store.client), 80);
      // Writers that met inside SQLite would each block the thread for the whole busy timeout (5 s).
      assert.ok(performance.now() - started < 2000, `took ${Math.round(performance.now() - started)} ms`);
    } finally {
      store.close();
    }
  });

  test("another homed process writing: the write waits for its turn without blocking the event loop, then commits", async () => {
    const waits: string[] = [];
    const { dir, url, store } = await scratchStore({ onWait: (message) => waits.push(message) });
    const script = join(dir, "hold.ts");
    writeFileSync(
      script,
      `import { openStore } from ${JSON.stringify(join(ROOT, "src/store/index.ts"))};
       const store = await openStore({ url: ${JSON.stringify(url)} });
       const tx = await store.client.transaction("write");
       await tx.execute("INSERT INTO t VALUES (-1, 0)");
       console.log("holding");
       await new Promise((resolve) => setTimeout(resolve, 600));
       await tx.commit();
       store.close();`,
    );
    const [command, ...args] = scriptCommand(script);
    const child = spawn(command!, args, { stdio: ["ignore", "pipe", "inherit"] });
    const exited = new Promise((resolve) => child.on("exit", resolve));
    try {
      await new Promise<void>((resolve) => child.stdout.on("data", (d) => String(d).includes("holding") && resolve()));
      let ticks = 0;
      const ticker = setInterval(() => ticks++, 10);
      const started = performance.now();
      await store.client.execute("INSERT INTO t VALUES (1, 0)");
      const waited = performance.now() - started;
      clearInterval(ticker);
      assert.ok(waited > 300, `the write waited ${Math.round(waited)} ms for the other process's transaction`);
      // A wait inside SQLite's busy handler would freeze the thread: no tick at all.
      assert.ok(ticks >= waited / 10 / 3, `${ticks} ticks of 10 ms in ${Math.round(waited)} ms`);
      assert.deepEqual(waits, ["waiting for another process to finish writing to the database"]);
      assert.equal(await rows(store.client), 2);
    } finally {
      await exited;
      store.close();
    }
  });

  test("a process that is not homed holding SQLite's lock past the busy timeout: the write waits, and the pool stays usable", async () => {
    const { url, store } = await scratchStore({ busyTimeoutMs: 50 });
    const foreign = createClient({ url });
    try {
      const tx = await foreign.transaction("write");
      await tx.execute("INSERT INTO t VALUES (-1, 0)");
      const released = sleep(300).then(() => tx.commit());
      await store.client.execute("INSERT INTO t VALUES (1, 0)");
      await released;
      // The statement that met the lock must not stay behind on a pooled connection: later
      // transactions commit, and reads see every row.
      for (let i = 0; i < 5; i++) {
        const later = await store.client.transaction("write");
        await later.execute({ sql: "INSERT INTO t VALUES (2, ?)", args: [i] });
        await later.commit();
      }
      assert.equal(await rows(store.client), 7);
    } finally {
      foreign.close();
      store.close();
    }
  });

  test("only plain queries skip the queue", () => {
    for (const sql of ["SELECT 1", "  select * from t", "-- note\nSELECT 1", "/* x */ WITH a AS (SELECT 1) SELECT * FROM a", "VALUES (1)", "EXPLAIN QUERY PLAN SELECT 1"])
      assert.equal(isReadOnly(sql), true, sql);
    for (const sql of [
      "INSERT INTO t VALUES (1)",
      "WITH a AS (SELECT 1) INSERT INTO t SELECT * FROM a",
      "PRAGMA journal_mode = WAL",
      "DELETE FROM t",
      "BEGIN",
      "CREATE TABLE x (y)",
      "REPLACE INTO t VALUES (1)",
    ])
      assert.equal(isReadOnly(sql), false, sql);
  });
});

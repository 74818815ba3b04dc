/**
 * Everything that writes, at once, on one data folder: a real daemon serving 10 clients through
 * `/v1/chat/completions` over 10 partners, a `homed import` child process, a console import, notes
 * through the memory tools, and from a third process a cooling pass and a backfill of vectors with
 * another embedding model. Nothing may fail and nothing may be lost. Before the one write path,
 * 9–60 of 60 such turns failed with SQLITE_BUSY.
 */
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { startApiDaemon } from "../support/api-daemon.ts";
import { run, SOURCE_HOMED } from "../support/process.ts";
import { startScriptedProvider } from "../support/scripted-provider.ts";
import { openStore } from "../../src/store/index.ts";
import { coolOnce } from "../../src/memory/index.ts";
import { backfillEmbeddings, createClipEmbedder, readClipFolder } from "../../src/embed/index.ts";
import { tinyClipCopy } from "../embed/tiny-clip.ts";
import { testDir } from "../support/temp-dir.ts";

const CLIENTS = 10;
/** 60 turns in all, as in the probe that found the failures (10 clients, 60 turns, 10 partners). */
const TURNS_PER_CLIENT = 6;
const PARTNERS = 10;
const DAY = 86_400_000;

function historyFile(dir: string, name: string, conversation: string, count: number, start: number): string {
  const lines = Array.from({ length: count }, (_, i) =>
    JSON.stringify({
      conversation,
      session: `s${Math.floor(i / 50)}`,
      time: new Date(start + i * 60_000).toISOString(),
      speaker: i % 2 ? "bot" : "ana",
      role: i % 2 ? "assistant" : "user",
      text: `${conversation} line ${i} about the garden shed and the blue bicycle`,
      id: `m${i}`,
    }),
  );
  const path = join(dir, name);
  writeFileSync(path, `${lines.join("\n")}\n`);
  return path;
}

describe("concurrent writers on one data folder", () => {
  test(`${CLIENTS} clients × ${TURNS_PER_CLIENT} turns, a CLI import, a console import, notes, cooling and backfill at once: 0 failures, all stored`, async () => {
    const dir = testDir("homed-concurrent-");
    const data = join(dir, "data");
    // Cold history to cool, imported before the daemon starts.
    const seeded = await run([...SOURCE_HOMED, "import", "-data", data, historyFile(dir, "old.jsonl", "old", 120, Date.now() - 30 * DAY)]);
    assert.equal(seeded.code, 0, seeded.stderr);
    const provider = await startScriptedProvider((_request, n) => ({ content: `reply ${n}` }));
    const daemon = await startApiDaemon(data, provider.url);
    try {
      const cliFile = historyFile(dir, "cli.jsonl", "cli", 1500, Date.now() - 2 * DAY);
      const consoleFile = historyFile(dir, "console.jsonl", "console", 400, Date.now() - 2 * DAY);

      const failures: string[] = [];
      const turn = async (client: number, i: number) => {
        const partner = `p${(client + i) % PARTNERS}`;
        const response = await fetch(`${daemon.url}/v1/chat/completions`, {
          method: "POST",
          headers: daemon.headers,
          body: JSON.stringify({ model: "homed", user: partner, messages: [{ role: "user", content: `client ${client} turn ${i} to ${partner}` }] }),
        });
        const body = await response.text();
        if (response.status !== 200) failures.push(`client ${client} turn ${i}: ${response.status} ${body.slice(0, 200)}`);
      };
      const clients = Array.from({ length: CLIENTS }, async (_, client) => {
        for (let i = 0; i < TURNS_PER_CLIENT; i++) await turn(client, i);
      });
      const notes = (async () => {
        for (let i = 0; i < 20; i++) {
          const response = await fetch(`${daemon.url}/api/memory/tools/memory_note`, {
            method: "POST",
            headers: daemon.headers,
            body: JSON.stringify({ text: `note ${i}: the shed key is under the pot` }),
          });
          if (response.status !== 200) failures.push(`note ${i}: ${response.status} ${(await response.text()).slice(0, 200)}`);
        }
      })();
      const consoleImport = (async () => {
        const response = await fetch(`${daemon.url}/api/memory/import`, { method: "POST", headers: daemon.headers, body: readFileSync(consoleFile, "utf8") });
        const body = await response.text();
        if (!/event: done/.test(body)) failures.push(`console import: ${response.status} ${body.slice(-300)}`);
      })();
      const cliImport = run([...SOURCE_HOMED, "import", "-data", data, cliFile]);
      // From a third process: cooling, as if its interval came due three days later, and a backfill
      // of vectors after a switch of embedder.
      const clip = await createClipEmbedder(readClipFolder(tinyClipCopy("fp32")));
      const thirdProcess = (async () => {
        const store = await openStore({ url: `file:${join(data, "homed.db")}` });
        try {
          return await Promise.all([coolOnce({ client: store.client, batch: 40, now: () => Date.now() + 4 * DAY }), backfillEmbeddings(store.client, clip, { batchSize: 16 })]);
        } finally {
          store.close();
        }
      })();

      const [cli, [cooled, backfilled]] = await Promise.all([cliImport, thirdProcess, notes, consoleImport, ...clients]);
      assert.deepEqual(failures, []);
      assert.equal(cli.code, 0, cli.stderr);
      assert.match(cli.stderr, new RegExp(`homed \\(pid ${daemon.child.pid}\\) is serving ${data}; this command's writes take turns with it`));
      assert.equal(cooled.distilled, 40, JSON.stringify(cooled));
      assert.ok(backfilled.events.done >= 120, JSON.stringify(backfilled));

      const store = await openStore({ url: `file:${join(data, "homed.db")}` });
      try {
        const count = async (sql: string) => Number((await store.client.execute(sql)).rows[0]!.n);
        // Every turn keeps its user message and its reply, whichever layer they are in now.
        assert.equal(await count("SELECT count(*) AS n FROM events WHERE session_id IN (SELECT id FROM sessions WHERE channel = 'openai') AND role = 'user'"), CLIENTS * TURNS_PER_CLIENT);
        assert.equal(await count("SELECT count(*) AS n FROM events WHERE session_id IN (SELECT id FROM sessions WHERE channel = 'openai') AND role = 'assistant'"), CLIENTS * TURNS_PER_CLIENT);
        assert.equal(await count("SELECT count(*) AS n FROM events WHERE conversation = 'cli'"), 1500);
        assert.equal(await count("SELECT count(*) AS n FROM events WHERE conversation = 'console'"), 400);
        assert.equal(await count("SELECT count(*) AS n FROM events WHERE conversation = 'old' AND layer = 'L3'"), 40);
        assert.equal(await count(`SELECT count(*) AS n FROM events WHERE conversation = 'old' AND embed_model = '${clip.modelId}'`), 120);
        assert.equal(await count("SELECT count(*) AS n FROM triples WHERE evidence = 'manual'"), 20);
      } finally {
        store.close();
      }
    } finally {
      await daemon.stop();
      await provider.close();
    }
  });
});

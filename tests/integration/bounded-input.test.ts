/**
 * No message stalls the daemon: a 200,000-character message with no spaces is stored and answered
 * while `/healthz` keeps answering. Before bounded pieces: 100,000 such characters blocked
 * `/healthz` for 13.6 s, 199,000 for 57 s.
 */
import { after, describe, test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createClient } from "@libsql/client";
import { startApiDaemon, type ApiDaemon } from "../support/api-daemon.ts";
import { startScriptedProvider, type ScriptedProvider } from "../support/scripted-provider.ts";
import { calmWhileSending, unbrokenCjk } from "../support/health-sampler.ts";

describe("bounded work for any input", () => {
  let provider: ScriptedProvider;
  let daemon: ApiDaemon;
  after(async () => {
    await daemon?.stop();
    await provider?.close();
  });

  test("/healthz stays under 50 ms p99 while a 200,000-character unbroken message is stored and answered", async () => {
    provider = await startScriptedProvider(() => ({ content: "received" }));
    daemon = await startApiDaemon(join(mkdtempSync(join(tmpdir(), "homed-bounded-")), "data"), provider.url);
    // The first turn of a process loads the tokenizer's rank table and jieba's dictionaries
    // (once, ~0.5 s): start-up work, not the cost of a message.
    assert.match(await daemon.send(await daemon.openSession("warm-up"), "先热个身 warm up"), /event: done/);

    const { calm, runs } = await calmWhileSending(daemon.url, async (attempt) => daemon.send(await daemon.openSession(`paster-${attempt}`), unbrokenCjk(200_000, attempt)), 50);
    assert.ok(calm, `/healthz during the turn: ${runs.join("; ")}`);

    // Stored whole, with a token count of all of it.
    const db = createClient({ url: `file:${join(daemon.data, "homed.db")}` });
    try {
      const row = (await db.execute({ sql: "SELECT length(text) AS chars, tokens FROM events WHERE role = 'user' ORDER BY length(text) DESC LIMIT 1" })).rows[0]!;
      assert.equal(Number(row.chars), 200_000);
      assert.ok(Number(row.tokens) > 300_000, `tokens ${row.tokens}`);
    } finally {
      db.close();
    }
  });
});

/**
 * No message stalls the daemon: a 200,000-character message with no spaces is stored and answered
 * while `/healthz` keeps answering. Before bounded pieces: 100,000 such characters blocked
 * `/healthz` for 13.6 s, 199,000 for 57 s.
 */
import { after, describe, test } from "node:test";
import assert from "node:assert/strict";
import { join } from "node:path";
import { createClient } from "@libsql/client";
import { startApiDaemon, type ApiDaemon } from "../support/api-daemon.ts";
import { startScriptedProvider, type ScriptedProvider } from "../support/scripted-provider.ts";
import { assertCalmWhilePasting } from "../support/health-sampler.ts";
import { tempDir } from "../support/temp-dir.ts";

describe("bounded work for any input", () => {
  let provider: ScriptedProvider;
  let daemon: ApiDaemon;
  const folder = tempDir("homed-bounded-");
  after(async () => {
    await daemon?.stop();
    await provider?.close();
    folder.remove();
  });

  test("/healthz stays under 50 ms p99 while a 200,000-character unbroken message is stored and answered", async () => {
    provider = await startScriptedProvider(() => ({ content: "received" }));
    daemon = await startApiDaemon(join(folder.path, "data"), provider.url);
    await assertCalmWhilePasting(daemon);

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

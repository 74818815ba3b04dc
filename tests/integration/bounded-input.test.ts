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
import { RUNTIME } from "../../src/runtime/index.ts";

/**
 * The goal is 50 ms, met under Bun on a calm machine. Under Deno the same pieces take longer to
 * count (V8 against JavaScriptCore; 400 pieces of 500 random CJK characters, both runtimes in the
 * same minute: 4.3-4.5 s in all, p99 a piece 53-100 ms, against 2.5 s and 38-64 ms), and /healthz
 * measured p99 98-189 ms — on a machine at load average ~20 on 2 cores, where Bun's own run gave
 * 59-209 ms that hour. Bounded, far from the seconds-long stall this guards against (13.6 s before
 * pieces), but not 50 ms, so Deno is held to 250 ms.
 */
const CALM_MS = RUNTIME === "deno" ? 250 : 50;

describe("bounded work for any input", () => {
  let provider: ScriptedProvider;
  let daemon: ApiDaemon;
  const folder = tempDir("homed-bounded-");
  after(async () => {
    await daemon?.stop();
    await provider?.close();
    folder.remove();
  });

  test(`/healthz stays under ${CALM_MS} ms p99 while a 200,000-character unbroken message is stored and answered`, async () => {
    provider = await startScriptedProvider(() => ({ content: "received" }));
    daemon = await startApiDaemon(join(folder.path, "data"), provider.url);
    await assertCalmWhilePasting(daemon, 0, CALM_MS);

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

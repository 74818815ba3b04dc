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

/** 200,000 pseudo-random CJK characters: one unbroken pre-token for the tokenizer, ~2 tokens each. */
function unbrokenCjk(n: number, seed: number): string {
  const out: string[] = [];
  for (let i = 0; i < n; i++) {
    seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
    out.push(String.fromCodePoint(0x4e00 + ((seed >>> 8) % 20000)));
  }
  return out.join("");
}

/** `/healthz` asked back to back until `until` settles; the latency of each answer, in ms. */
async function sampleHealth(url: string, until: Promise<unknown>): Promise<number[]> {
  let settled = false;
  void until.finally(() => (settled = true));
  const latencies: number[] = [];
  while (!settled) {
    const started = performance.now();
    const response = await fetch(`${url}/healthz`);
    assert.equal(response.status, 200);
    await response.text();
    latencies.push(performance.now() - started);
  }
  return latencies;
}

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))]!;

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

    // Best of three: on a machine shared with other work (CI, six agents on two cores) the OS
    // scheduler alone sometimes delays a check by 50 ms or more. A daemon that stalls fails all
    // three (before bounded pieces: a 57 s stall at this size).
    const runs: string[] = [];
    let calm = false;
    for (let attempt = 1; attempt <= 3 && !calm; attempt++) {
      // A new text each time (the tokenizer caches what it has already seen), each a first turn.
      const turn = daemon.send(await daemon.openSession(`paster-${attempt}`), unbrokenCjk(200_000, attempt));
      const latencies = (await sampleHealth(daemon.url, turn)).sort((a, b) => a - b);
      assert.match(await turn, /event: done\ndata: \{"text":"received"/);
      assert.ok(latencies.length >= 10, `only ${latencies.length} health checks ran during the turn`);
      const p99 = percentile(latencies, 0.99);
      runs.push(`p99 ${p99.toFixed(1)} ms (max ${latencies.at(-1)!.toFixed(1)} ms, ${latencies.length} checks)`);
      calm = p99 < 50;
    }
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

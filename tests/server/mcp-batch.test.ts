/**
 * `/mcp` batches are bounded (src/server/mcp-http.ts): at most MAX_BATCH messages, and once the
 * answers hold MAX_BATCH_ANSWER_BYTES the rest answer an error instead of running. A real daemon,
 * an mcp-only app key, raw JSON-RPC over fetch (what a hostile client sends).
 */
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { MAX_BATCH, MAX_BATCH_ANSWER_BYTES } from "../../src/server/mcp-http.ts";
import { startApiDaemon, type ApiDaemon } from "../support/api-daemon.ts";
import { tempDir, type TempDir } from "../support/temp-dir.ts";

describe("/mcp batches", () => {
  let dir: TempDir;
  let daemon: ApiDaemon;
  let key = "";
  const post = (body: unknown) =>
    fetch(`${daemon.url}/mcp`, {
      method: "POST",
      headers: { authorization: `Bearer ${key}`, "content-type": "application/json", accept: "application/json, text/event-stream" },
      body: JSON.stringify(body),
    });
  const call = (id: number, name: string, args: object) => ({ jsonrpc: "2.0", id, method: "tools/call", params: { name, arguments: args } });

  before(async () => {
    dir = tempDir("homed-mcp-batch-");
    daemon = await startApiDaemon(dir.path);
    const made = await fetch(`${daemon.url}/api/keys`, { method: "POST", headers: daemon.headers, body: JSON.stringify({ name: "batcher", scopes: ["mcp"] }) });
    key = ((await made.json()) as { key: string }).key;
    // 200 long facts: one memory_list of them answers ~400 KB.
    for (let i = 0; i < 200; i++) {
      const noted = await fetch(`${daemon.url}/api/memory/tools/memory_note`, { method: "POST", headers: daemon.headers, body: JSON.stringify({ text: `note ${i} ${"x".repeat(1990)}` }) });
      assert.equal(noted.status, 200);
    }
  });
  after(async () => {
    await daemon?.stop();
    dir?.remove();
  });

  test("a batch over the count answers one clear JSON-RPC error and runs nothing", async () => {
    const started = performance.now();
    const response = await post(Array.from({ length: 369 }, (_, i) => call(i, "memory_recall", { query: "note", limit: 50 })));
    const ms = performance.now() - started;
    assert.equal(response.status, 400);
    const body = (await response.json()) as any;
    assert.equal(body.id, null);
    assert.equal(body.error.code, -32600);
    assert.match(body.error.message, new RegExp(`at most ${MAX_BATCH} messages; this one holds 369`));
    assert.ok(ms < 2000, `answered in ${ms.toFixed(0)} ms`);
  });

  test("a batch within the count runs every item; past the answer budget the rest answer an error, not a result", async () => {
    const small = (await (await post([call(1, "memory_stats", {}), call(2, "memory_list", { layer: "L3", limit: 1 })])).json()) as any[];
    assert.deepEqual(
      small.map((a) => [a.id, a.error === undefined]),
      [
        [1, true],
        [2, true],
      ],
    );
    const response = await post(Array.from({ length: MAX_BATCH }, (_, i) => call(i, "memory_list", { layer: "L3", limit: 200 })));
    assert.equal(response.status, 200);
    const text = await response.text();
    const answers = JSON.parse(text) as any[];
    assert.equal(answers.length, MAX_BATCH, "every item is answered");
    const ran = answers.filter((a) => a.result !== undefined);
    const refused = answers.filter((a) => a.error !== undefined);
    assert.ok(ran.length >= 1 && refused.length >= 1, `${ran.length} ran, ${refused.length} refused`);
    assert.match(refused[0].error.message, /the batch's answers reached/);
    assert.ok(text.length < MAX_BATCH_ANSWER_BYTES + 1_000_000, `answer ${text.length} bytes`);
    // In order: the ones that ran come first, the refused after.
    assert.deepEqual(
      answers.map((a) => a.id),
      Array.from({ length: MAX_BATCH }, (_, i) => i),
    );
  });
});

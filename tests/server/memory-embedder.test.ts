/**
 * The console's embedder card and setup form (issue 16.5): stats name the embedder, its width
 * and its coverage (memories with its vectors, which grows as backfill runs); the probe embeds
 * one sentence with a candidate OpenAI-compatible endpoint and reports dimension and latency.
 */
import { afterEach, describe, test } from "node:test";
import assert from "node:assert/strict";
import { backfillEmbeddings, createHttpEmbedder } from "../../src/embed/index.ts";
import { importHistory } from "../../src/memory/index.ts";
import { createLogger } from "../../src/log/index.ts";
import { createApp } from "../../src/server/index.ts";
import { answer, startScriptedServer, status, type ScriptedServer } from "../embed/scripted-server.ts";
import { message } from "../memory/fixture.ts";
import { kernelHarness, type Harness } from "../kernel/support.ts";

const TOKEN = "k".repeat(40);
const bearer = { authorization: `Bearer ${TOKEN}`, "content-type": "application/json" };

let h: Harness | undefined;
let server: ScriptedServer | undefined;
afterEach(async () => {
  await h?.close();
  await server?.close();
  h = server = undefined;
});

const appFor = (harness: Harness) =>
  createApp({ version: "0.0.0-test", store: harness.store, log: createLogger({ level: "warn", stderr: () => {} }), kernel: harness.kernel, adminToken: TOKEN, adminTokenPath: "/data/admin.token" });

describe("console: the embedder", () => {
  test("stats: model, width and coverage, which backfill raises", async () => {
    server = await startScriptedServer([answer(768)]);
    const embedder = createHttpEmbedder({ baseUrl: server.baseUrl, model: "m768" });
    h = await kernelHarness([], { embedder, vectorRecall: true });
    await importHistory(h.store.client, [message("first"), message("second"), message("third")]);
    const app = appFor(h);
    const before = ((await (await app.request("/api/memory/stats", { headers: bearer })).json()) as any).embedder;
    assert.deepEqual([before.modelId, before.vectors, before.embedded, before.events], ["openai:m768", true, 0, 3]);
    await backfillEmbeddings(h.store.client, embedder);
    const after = ((await (await app.request("/api/memory/stats", { headers: bearer })).json()) as any).embedder;
    assert.deepEqual([after.dimension, after.embedded, after.events], [768, 3, 3]);
  });

  test("stats with the fallback: no vectors searched, said plainly", async () => {
    h = await kernelHarness([]);
    const stats = ((await (await appFor(h).request("/api/memory/stats", { headers: bearer })).json()) as any).embedder;
    assert.equal(stats.vectors, false);
    assert.match(stats.modelId, /^fallback-hash-v1@/);
  });

  test("probe: dimension and latency of a working endpoint; the reason for one that refuses; bad input is a 400", async () => {
    server = await startScriptedServer([answer(1024), status(401, "bad key")]);
    h = await kernelHarness([]);
    const app = appFor(h);
    const probe = (body: object) => app.request("/api/memory/embedder/probe", { method: "POST", headers: bearer, body: JSON.stringify(body) });
    const ok = (await (await probe({ baseUrl: server.baseUrl, model: "bge-m3", apiKey: "sk-1" })).json()) as any;
    assert.equal(ok.ok, true);
    assert.equal(ok.dimension, 1024);
    assert.equal(ok.modelId, "openai:bge-m3");
    assert.ok(ok.ms >= 0);
    assert.equal(server.requests[0]!.headers.authorization, "Bearer sk-1");
    const refused = (await (await probe({ baseUrl: server.baseUrl, model: "bge-m3" })).json()) as any;
    assert.deepEqual([refused.ok, /HTTP 401 .*bad key/.test(refused.error)], [false, true]);
    assert.equal((await probe({ baseUrl: "ftp://x", model: "m" })).status, 400);
  });
});

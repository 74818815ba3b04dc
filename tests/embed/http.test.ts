/** The OpenAI-compatible driver against a scripted `/embeddings` server on loopback. */
import { after, describe, test } from "node:test";
import assert from "node:assert/strict";
import { cosine, createHttpEmbedder, EmbedError, EmbedTimeoutError, hashEmbed } from "../../src/embed/index.ts";
import { answer, hold, startScriptedServer, status, type ScriptedServer } from "./scripted-server.ts";

const servers: ScriptedServer[] = [];
after(() => Promise.all(servers.map((s) => s.close())));

async function scripted(...script: Parameters<typeof startScriptedServer>[0]) {
  const server = await startScriptedServer(script);
  servers.push(server);
  return server;
}

const embedderFor = (server: ScriptedServer, extra: Partial<Parameters<typeof createHttpEmbedder>[0]> = {}) =>
  createHttpEmbedder({ baseUrl: server.baseUrl, model: "bge-test", dimension: 512, backoffMs: 1, ...extra });

describe("OpenAI-compatible embedder", () => {
  test("success: POST /v1/embeddings with model, input and bearer key; vectors normalised and put back in order", async () => {
    const server = await scripted(answer(512, { reverse: true, scale: 7 }));
    const embedder = embedderFor(server, { apiKey: "sk-test" });
    const vectors = await embedder.embedTexts(["北京", "cats"]);
    assert.equal(server.requests.length, 1);
    const [request] = server.requests;
    assert.equal(request!.path, "/v1/embeddings");
    assert.equal(request!.headers.authorization, "Bearer sk-test");
    // A stated dimension is asked for with OpenAI's `dimensions` parameter.
    assert.deepEqual(request!.body, { model: "bge-test", input: ["北京", "cats"], dimensions: 512 });
    assert.ok(cosine(vectors[0]!, hashEmbed("北京")) > 0.9999);
    assert.ok(cosine(vectors[1]!, hashEmbed("cats")) > 0.9999);
    assert.ok(Math.abs(Math.hypot(...vectors[0]!) - 1) < 1e-5);
    assert.equal(embedder.modelId, "openai:bge-test@512");
  });

  test("large inputs go in batches of maxBatch", async () => {
    const server = await scripted(answer());
    const vectors = await embedderFor(server, { maxBatch: 2 }).embedTexts(["a", "b", "c", "d", "e"]);
    assert.equal(vectors.length, 5);
    assert.deepEqual(
      server.requests.map((r) => r.body.input),
      [["a", "b"], ["c", "d"], ["e"]],
    );
    assert.ok(cosine(vectors[4]!, hashEmbed("e")) > 0.9999);
  });

  test("slow: a query gives up after the default 1200 ms budget with EmbedTimeoutError", async () => {
    const server = await scripted(hold(answer()));
    const started = performance.now();
    await assert.rejects(embedderFor(server).embedTexts(["slow"], { purpose: "query" }), (error: unknown) => {
      assert.ok(error instanceof EmbedTimeoutError);
      assert.match(error.message, /no answer within 1200 ms/);
      return true;
    });
    const elapsed = performance.now() - started;
    assert.ok(elapsed >= 1150 && elapsed < 4000, `gave up after ${elapsed} ms`);
    assert.equal(server.requests.length, 1);
    server.releaseAll();
  });

  test("slow: a write waits out one stalled attempt and retries", async () => {
    const server = await scripted(hold(answer()), answer());
    const [v] = await embedderFor(server, { writeTimeoutMs: 100 }).embedTexts(["later"], { purpose: "write" });
    assert.ok(cosine(v!, hashEmbed("later")) > 0.9999);
    assert.equal(server.requests.length, 2);
    server.releaseAll();
  });

  test("500: writes retry with backoff until it answers; queries do not retry", async () => {
    const server = await scripted(status(500), status(503), answer());
    const [v] = await embedderFor(server).embedTexts(["重试"]);
    assert.ok(cosine(v!, hashEmbed("重试")) > 0.9999);
    assert.equal(server.requests.length, 3);

    const failing = await scripted(status(500));
    await assert.rejects(embedderFor(failing).embedTexts(["q"], { purpose: "query" }), /HTTP 500/);
    assert.equal(failing.requests.length, 1);
    await assert.rejects(embedderFor(failing, { writeAttempts: 3 }).embedTexts(["w"]), /Cannot embed with .*: HTTP 500/);
    assert.equal(failing.requests.length, 4);
  });

  test("a 4xx is not retried (the request itself is wrong)", async () => {
    const server = await scripted(status(401, "bad key"));
    await assert.rejects(embedderFor(server).embedTexts(["x"]), /HTTP 401 .*bad key/);
    assert.equal(server.requests.length, 1);
  });

  test("wrong dimension: refused with both numbers, not retried", async () => {
    const server = await scripted(answer(384));
    await assert.rejects(embedderFor(server).embedTexts(["x"]), (error: unknown) => {
      assert.ok(error instanceof EmbedError);
      assert.match(error.message, /model bge-test returned 384 dimensions, expected 512/);
      return true;
    });
    assert.equal(server.requests.length, 1);
  });

  test("no stated dimension: nothing asked, the model's own width learnt from its first answer and held to", async () => {
    const server = await scripted(answer(1024), answer(768));
    const embedder = embedderFor(server, { dimension: undefined });
    assert.equal(embedder.modelId, "openai:bge-test");
    assert.equal(embedder.dimension, 0);
    const [v] = await embedder.embedTexts(["北京"]);
    assert.equal(v!.length, 1024);
    assert.equal(embedder.dimension, 1024);
    assert.deepEqual(server.requests[0]!.body, { model: "bge-test", input: ["北京"] });
    await assert.rejects(embedder.embedTexts(["x"]), /returned 768 dimensions, expected 1024$/);
  });

  test("a server that ignores `dimensions` is refused with what to do", async () => {
    const server = await scripted(answer(1024));
    await assert.rejects(
      embedderFor(server, { dimension: 256 }).embedTexts(["x"]),
      /returned 1024 dimensions, expected 256 \(the server does not shorten vectors with `dimensions`: leave -embed-dim unset/,
    );
  });

  test("an answer that is not an embeddings response, or has the wrong count, is refused", async () => {
    const garbage = await scripted((_req, res) => void res.end("<html>proxy error</html>"));
    await assert.rejects(embedderFor(garbage).embedTexts(["x"]), /not an OpenAI embeddings response/);
    const short = await scripted((req, res) => answer()({ ...req, body: { ...req.body, input: req.body.input.slice(1) } }, res, short));
    await assert.rejects(embedderFor(short).embedTexts(["a", "b"]), /sent 2 inputs, got 1 vectors/);
  });

  test("an unreachable endpoint is a clear error after the retries", async () => {
    const server = await scripted(answer());
    const baseUrl = server.baseUrl;
    await server.close();
    await assert.rejects(createHttpEmbedder({ baseUrl, model: "m", dimension: 512, backoffMs: 1, writeAttempts: 2 }).embedTexts(["x"]), /Cannot reach http:\/\/127\.0\.0\.1:\d+\/v1\/embeddings/);
  });
});

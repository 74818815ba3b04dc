/** Which embedder runs, and the sentence that says why: never a crash, never silence. */
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { hashEmbed, openEmbedder, type HttpEmbedSettings } from "../../src/embed/index.ts";
import { answer, startScriptedServer } from "./scripted-server.ts";
import { tinyClipCopy } from "./tiny-clip.ts";
import { testDir } from "../support/temp-dir.ts";

const http = (extra: Partial<HttpEmbedSettings> = {}): HttpEmbedSettings => ({
  baseUrl: "http://127.0.0.1:9/v1",
  model: "m",
  dimension: 512,
  queryBudgetMs: 1200,
  ...extra,
});

describe("choosing the embedder", () => {
  test("no model folder: the fallback, said plainly, not degraded (a fresh install)", async () => {
    const modelsDir = testDir("homed-models-");
    const active = await openEmbedder({ modelsDir, threads: 1 });
    assert.equal(active.kind, "fallback");
    assert.equal(active.degraded, false);
    assert.equal(active.embedder.modelId, "fallback-hash-v1@512");
    assert.match(active.reason, /no Chinese-CLIP model in .*chinese-clip-vit-b16-onnx; using the fallback embedder \(.*lexical similarity only/);
    const [v] = await active.embedder.embedTexts(["猫"]);
    assert.deepEqual(Array.from(v!), Array.from(hashEmbed("猫")));
  });

  test("a sound model folder under -models: Chinese-CLIP, with what was loaded", async () => {
    const dir = tinyClipCopy("fp16");
    const active = await openEmbedder({ modelsDir: dirname(dir), threads: 1 });
    assert.equal(active.kind, "chinese-clip");
    assert.equal(active.embedder.modelId, "chinese-clip-vit-b16@512");
    assert.match(active.reason, /Chinese-CLIP ViT-B\/16 from .*chinese-clip-vit-b16-onnx \(text fp16, image fp16; recorded 5 files/);
    await active.embedder.close?.();
  });

  test("-models pointing straight at the export folder works too", async () => {
    const active = await openEmbedder({ modelsDir: tinyClipCopy("fp32"), threads: 1 });
    assert.equal(active.kind, "chinese-clip");
    await active.embedder.close?.();
  });

  test("a corrupt model: the fallback, degraded, naming the file", async () => {
    const dir = tinyClipCopy("fp32");
    await (await openEmbedder({ modelsDir: dir, threads: 1 })).embedder.close?.();
    const file = join(dir, "vit-b-16.img.fp32.onnx");
    const bytes = readFileSync(file);
    bytes[bytes.length - 10]! ^= 1;
    writeFileSync(file, bytes);
    const active = await openEmbedder({ modelsDir: dir, threads: 1 });
    assert.equal(active.kind, "fallback");
    assert.equal(active.degraded, true);
    assert.match(active.reason, /the Chinese-CLIP model in .* is unusable: vit-b-16\.img\.fp32\.onnx changed since first load .*; using the fallback embedder/);
  });

  test("a configured endpoint wins over a model folder", async () => {
    const active = await openEmbedder({ modelsDir: tinyClipCopy("fp32"), threads: 1, http: http() });
    assert.equal(active.kind, "openai");
    assert.equal(active.embedder.modelId, "openai:m@512");
    assert.match(active.reason, /OpenAI-compatible http:\/\/127\.0\.0\.1:9\/v1 model m/);
  });

  test("an endpoint of any width is used: its vector space is named with the width asked for, or none", async () => {
    assert.equal((await openEmbedder({ modelsDir: "/nonexistent", threads: 1, http: http({ dimension: 1024 }) })).embedder.modelId, "openai:m@1024");
    assert.equal((await openEmbedder({ modelsDir: "/nonexistent", threads: 1, http: http({ dimension: undefined }) })).embedder.modelId, "openai:m");
  });

  test("the API key comes from the key file (trimmed) or else from the environment setting", async () => {
    const server = await startScriptedServer([answer()]);
    try {
      const keyFile = join(testDir("homed-key-"), "key");
      writeFileSync(keyFile, "sk-from-file\n");
      const fromFile = await openEmbedder({ modelsDir: "/x", threads: 1, http: http({ baseUrl: server.baseUrl, keyFile, apiKey: "sk-env" }) });
      await fromFile.embedder.embedTexts(["a"]);
      const fromEnv = await openEmbedder({ modelsDir: "/x", threads: 1, http: http({ baseUrl: server.baseUrl, apiKey: "sk-env" }) });
      await fromEnv.embedder.embedTexts(["b"]);
      assert.deepEqual(
        server.requests.map((r) => r.headers.authorization),
        ["Bearer sk-from-file", "Bearer sk-env"],
      );
    } finally {
      await server.close();
    }
  });

  test("more than one ONNX thread is refused at start-up instead of crashing in a worker", async () => {
    await assert.rejects(openEmbedder({ modelsDir: tinyClipCopy("fp32"), threads: 2 }), /Cannot use -embed-threads 2: ONNX Runtime's WASM threads cannot start/);
  });

  test("an unreadable or empty key file is refused at start-up", async () => {
    await assert.rejects(openEmbedder({ modelsDir: "/x", threads: 1, http: http({ keyFile: "/nonexistent/key" }) }), /Cannot read the embeddings API key from \/nonexistent\/key: ENOENT/);
    const empty = join(testDir("homed-key-"), "key");
    writeFileSync(empty, "\n");
    await assert.rejects(openEmbedder({ modelsDir: "/x", threads: 1, http: http({ keyFile: empty }) }), /the file is empty/);
  });
});

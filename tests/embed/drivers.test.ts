/**
 * One contract, every driver: the fallback, Chinese-CLIP (fp32 and fp16 tiny models) and the
 * OpenAI-compatible driver against a scripted server. What recall and storage rely on is
 * checked the same way for all of them.
 */
import { after, describe, test } from "node:test";
import assert from "node:assert/strict";
import { createClipEmbedder, createFallbackEmbedder, createHttpEmbedder, readClipFolder, type Embedder } from "../../src/embed/index.ts";
import { pngFile } from "./images.ts";
import { answer, startScriptedServer } from "./scripted-server.ts";
import { tinyClipCopy } from "./tiny-clip.ts";

const server = await startScriptedServer([answer()]);
after(() => server.close());

const DRIVERS: [string, () => Promise<Embedder>][] = [
  ["fallback", async () => createFallbackEmbedder()],
  ["chinese-clip fp32", async () => createClipEmbedder(readClipFolder(tinyClipCopy("fp32")))],
  ["chinese-clip fp16", async () => createClipEmbedder(readClipFolder(tinyClipCopy("fp16")))],
  ["openai-compatible", async () => createHttpEmbedder({ baseUrl: server.baseUrl, model: "scripted", dimension: 512 })],
];

const norm = (v: Float32Array) => Math.sqrt(v.reduce((s, x) => s + x * x, 0));
const same = (a: Float32Array, b: Float32Array) => a.length === b.length && a.every((x, i) => Math.abs(x - b[i]!) < 1e-6);

for (const [name, make] of DRIVERS) {
  // Awaited set-up at the top level, not in an async describe: Deno's node:test does not wait
  // for an async describe body, so the tests it registers after an await would never run.
  const embedder = await make();
  describe(`embedder contract: ${name}`, () => {
    after(() => embedder.close?.());

    test("names its vector space with the dimension, 512 like the store", () => {
      assert.equal(embedder.dimension, 512);
      assert.match(embedder.modelId, /^[\w:.-]+@512$/);
    });

    test("one unit-length vector per input, in input order, in a batch or alone", async () => {
      const texts = ["我爱北京天安门", "hello world", "the cat 猫"];
      const batch = await embedder.embedTexts(texts);
      assert.equal(batch.length, 3);
      for (const [i, v] of batch.entries()) {
        assert.equal(v.length, 512);
        assert.ok(Math.abs(norm(v) - 1) < 1e-4, `norm ${norm(v)}`);
        const [alone] = await embedder.embedTexts([texts[i]!]);
        assert.ok(same(v, alone!), `vector ${i} differs alone vs in a batch`);
      }
      assert.ok(!same(batch[0]!, batch[1]!));
      assert.deepEqual(await embedder.embedTexts([]), []);
    });

    test("deterministic: the same text gives the same vector, for queries and writes alike", async () => {
      const [a] = await embedder.embedTexts(["记得周五开会"], { purpose: "write" });
      const [b] = await embedder.embedTexts(["记得周五开会"], { purpose: "query" });
      assert.ok(same(a!, b!));
    });

    test("images, when supported, land in the same 512-dim unit space", async () => {
      if (!embedder.embedImages) return;
      const [v] = await embedder.embedImages([pngFile(40, 30, (x, y) => [x * 6, y * 8, 90])]);
      assert.equal(v!.length, 512);
      assert.ok(Math.abs(norm(v!) - 1) < 1e-4);
    });
  });
}

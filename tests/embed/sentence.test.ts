/**
 * In-process BERT-family sentence encoders (issue 16.2): a tiny generated model of the published
 * shape (`input_ids`, `attention_mask`, `token_type_ids` → `last_hidden_state`), its vectors
 * checked against rows worked out by hand from the fixture's weights, for CLS and mean pooling.
 */
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { createSentenceEmbedder, openEmbedder, readSentenceFolder } from "../../src/embed/index.ts";
import { tinyVocab } from "../fixtures/make-tiny-clip.ts";
import { expectedRow, SENTENCE_HIDDEN } from "../fixtures/make-tiny-sentence.ts";
import { tinySentenceFolder } from "./sentence-support.ts";
import { testDir } from "../support/temp-dir.ts";

const id = (token: string) => tinyVocab().indexOf(token);
const unit = (v: number[]) => {
  const n = Math.hypot(...v);
  return v.map((x) => x / n);
};
const close = (actual: Float32Array, expected: number[]) => {
  assert.equal(actual.length, expected.length);
  expected.forEach((x, j) => {
    assert.ok(Math.abs(actual[j]! - x) < 1e-5, `[${j}] ${actual[j]} != ${x}`);
  });
};
/** [CLS] hello world [SEP] */
const HELLO_WORLD = [id("[CLS]"), id("hello"), id("world"), id("[SEP]")];
const mean = (ids: number[]) => Array.from({ length: SENTENCE_HIDDEN }, (_, j) => ids.reduce((s, t) => s + expectedRow(t)[j]!, 0) / ids.length);

describe("sentence encoder (BERT-family ONNX)", () => {
  test("CLS pooling: the [CLS] row, normalised", async () => {
    const embedder = await createSentenceEmbedder(readSentenceFolder(tinySentenceFolder({ pooling: "cls" })));
    try {
      assert.equal(embedder.modelId, `tiny-sentence@${SENTENCE_HIDDEN}`);
      const [v] = await embedder.embedTexts(["Hello world"]);
      close(v!, unit(expectedRow(id("[CLS]"))));
    } finally {
      await embedder.close();
    }
  });

  test("mean pooling over every token, normalised; the vocabulary may come from tokenizer.json", async () => {
    for (const vocab of ["vocab.txt", "tokenizer.json"] as const) {
      const embedder = await createSentenceEmbedder(readSentenceFolder(tinySentenceFolder({ pooling: "mean" }, { vocab })));
      try {
        const [v, w] = await embedder.embedTexts(["Hello world", "我爱北京"]);
        close(v!, unit(mean(HELLO_WORLD)));
        close(w!, unit(mean([id("[CLS]"), id("我"), id("爱"), id("北"), id("京"), id("[SEP]")])));
      } finally {
        await embedder.close();
      }
    }
  });

  test("normalize false keeps the raw pooled vector; maxTokens truncates before [SEP]", async () => {
    const embedder = await createSentenceEmbedder(readSentenceFolder(tinySentenceFolder({ pooling: "mean", normalize: false, maxTokens: 3 })));
    try {
      const [v] = await embedder.embedTexts(["hello world"]);
      close(v!, mean([id("[CLS]"), id("hello"), id("[SEP]")]));
    } finally {
      await embedder.close();
    }
  });

  test("query and passage prefixes: a query is read with queryPrefix, a stored text with passagePrefix", async () => {
    const embedder = await createSentenceEmbedder(readSentenceFolder(tinySentenceFolder({ pooling: "mean", queryPrefix: "hello ", passagePrefix: "the " })));
    try {
      const [query] = await embedder.embedTexts(["world"], { purpose: "query" });
      const [passage] = await embedder.embedTexts(["world"], { purpose: "write" });
      close(query!, unit(mean(HELLO_WORLD)));
      close(passage!, unit(mean([id("[CLS]"), id("the"), id("world"), id("[SEP]")])));
    } finally {
      await embedder.close();
    }
  });

  test("a model without the BERT inputs, a bad config or a SentencePiece tokenizer is named", async () => {
    const dir = tinySentenceFolder({ pooling: "cls" });
    writeFileSync(join(dir, "onnx", "model.onnx"), readFileSync(new URL("../../src/embed/tiny-linear.onnx", import.meta.url)));
    await assert.rejects(
      createSentenceEmbedder(readSentenceFolder(dir)),
      /not a BERT-style sentence encoder, no input 'input_ids', input 'attention_mask', input 'token_type_ids', output 'last_hidden_state'/,
    );
    assert.throws(() => readSentenceFolder(tinySentenceFolder({ pooling: "max" })), /homed-embed\.json is not valid: pooling: /);
    const unigram = tinySentenceFolder({ pooling: "cls" }, { vocab: "tokenizer.json" });
    writeFileSync(join(unigram, "tokenizer.json"), JSON.stringify({ model: { type: "Unigram", vocab: [["▁a", -1]] } }));
    assert.throws(() => readSentenceFolder(unigram), /tokenizer\.json holds no WordPiece vocabulary/);
  });

  test("installed in the models folder, it is the text embedder; a broken one means the fallback, degraded", async () => {
    const modelsDir = testDir("homed-models-");
    tinySentenceFolder({ pooling: "cls" }, { modelsDir });
    const active = await openEmbedder({ modelsDir, threads: 1 });
    assert.equal(active.kind, "sentence");
    assert.equal(active.embedder.modelId, `tiny-sentence@${SENTENCE_HIDDEN}`);
    await active.embedder.close?.();
    writeFileSync(join(modelsDir, "tiny-sentence", "homed-embed.json"), "{");
    const broken = await openEmbedder({ modelsDir, threads: 1 });
    assert.equal(broken.kind, "fallback");
    assert.equal(broken.degraded, true);
    assert.match(broken.reason, /the sentence encoder in .*tiny-sentence is unusable: homed-embed\.json is not valid/);
  });
});

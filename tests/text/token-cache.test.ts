/**
 * Token counting keeps a bounded memory (src/text/tokens.ts' MERGE_CACHE_ENTRIES): gpt-tokenizer
 * remembers each pre-token's merges, 100,000 of them by default, and on an open vocabulary (runs
 * of rare Chinese never seen twice) that cache alone held ~30 MiB after a 100k-message import.
 * Bounding it changes no count.
 */
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import o200k from "gpt-tokenizer/encoding/o200k_base";
import { countTokens, loadTokenizer, MERGE_CACHE_ENTRIES } from "../../src/text/index.ts";

const RARE = [..."魑魅魍魉饕餮龃龉耄耋踟蹰瓠犍鸱鸮蟪蛄蜉蝣貔貅麒麟狻猊睚眦螭吻赑屃"];

/** The tokenizer's own cache of merges (a private field of gpt-tokenizer's encoder, read for this check only). */
const mergeCache = () => (o200k as unknown as { bytePairEncodingCoreProcessor: { mergeCache?: Map<string, unknown> } }).bytePairEncodingCoreProcessor.mergeCache;

describe("token counts' memory", () => {
  test("counting 10,000 distinct runs of rare Chinese leaves at most MERGE_CACHE_ENTRIES pre-tokens remembered, and the counts do not change", async () => {
    await loadTokenizer();
    const samples = Array.from({ length: 10_000 }, (_, i) => {
      // i's digits in base RARE.length, as rare characters: a run no other sample has.
      const run = Array.from({ length: 4 }, (_, k) => RARE[Math.floor(i / RARE.length ** k) % RARE.length]).join("");
      return `${run}${i} order QX${i} ${run}`;
    });
    const first = samples.slice(0, 50).map(countTokens);
    for (const text of samples) countTokens(text);
    assert.ok((mergeCache()?.size ?? 0) <= MERGE_CACHE_ENTRIES, `${mergeCache()?.size} pre-tokens remembered`);
    assert.deepEqual(samples.slice(0, 50).map(countTokens), first, "the same counts once the first samples' merges are forgotten");
    assert.equal(countTokens("我们在西湖边的咖啡馆见面 at 9:30, order #58213"), o200k.countTokens("我们在西湖边的咖啡馆见面 at 9:30, order #58213"));
  });
});

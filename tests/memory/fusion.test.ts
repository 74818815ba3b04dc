import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { configureFusion, DEFAULT_WEIGHTS, EQUAL_WEIGHTS, FusionConfigSchema, fuseRrf, RRF_K, VECTOR_WEIGHT } from "../../src/memory/index.ts";

const ranked = (...ids: string[]) => ids.map((id, i) => ({ id, score: 10 - i }));

describe("reciprocal rank fusion", () => {
  test("k is 60", () => assert.equal(RRF_K, 60));

  test("worked example: agreement beats one channel's top rank", () => {
    // words: a b c · grams: c a · vector: d
    // a = 1/61 + 1/62 = .03252   c = 1/63 + 1/61 = .03227   d = 1/61 = .01639   b = 1/62 = .01613
    const fused = fuseRrf({ words: ranked("a", "b", "c"), grams: ranked("c", "a"), vector: ranked("d") }, RRF_K, EQUAL_WEIGHTS);
    assert.deepEqual(
      fused.map((f) => f.id),
      ["a", "c", "d", "b"],
    );
    const close = (x: number, y: number) => assert.ok(Math.abs(x - y) < 1e-12, `${x} != ${y}`);
    close(fused[0]!.score, 1 / 61 + 1 / 62);
    close(fused[1]!.score, 1 / 63 + 1 / 61);
    close(fused[2]!.score, 1 / 61);
    close(fused[3]!.score, 1 / 62);
    assert.deepEqual(fused[1]!.channels.words, { rank: 3, score: 8, contribution: 1 / 63 });
    assert.deepEqual(fused[1]!.channels.grams, { rank: 1, score: 10, contribution: 1 / 61 });
    assert.equal(fused[1]!.channels.vector, undefined);
  });

  test("no channel, no result", () => assert.deepEqual(fuseRrf({}), []));

  test("weights scale each channel's contributions; the default gives the vector channel 0.1", () => {
    assert.equal(VECTOR_WEIGHT, 0.1);
    // words: a b · vector: d — d is the vector channel's top, yet at the default weights words'
    // second (1/62) stays ahead of it (0.1/61); at equal weights d (1/61) passes b.
    const rankings = { words: ranked("a", "b"), vector: ranked("d") };
    const fused = fuseRrf(rankings);
    assert.deepEqual(
      fused.map((f) => f.id),
      ["a", "b", "d"],
    );
    assert.ok(Math.abs(fused[2]!.score - 0.1 / 61) < 1e-12);
    assert.deepEqual(fused[2]!.channels.vector, { rank: 1, score: 10, contribution: 0.1 / 61 });
    assert.deepEqual(
      fuseRrf(rankings, RRF_K, EQUAL_WEIGHTS).map((f) => f.id),
      ["a", "d", "b"],
    );
  });

  test("homed.json fusion.weights sets the weights every recall uses; bad values are refused", () => {
    try {
      configureFusion(FusionConfigSchema.parse({ weights: { vector: 1, grams: 0 } }));
      const fused = fuseRrf({ grams: ranked("g"), vector: ranked("v") });
      assert.deepEqual(
        fused.map((f) => [f.id, f.score]),
        [
          ["v", 1 / 61],
          ["g", 0],
        ],
      );
    } finally {
      configureFusion(FusionConfigSchema.parse({}));
    }
    assert.deepEqual(fuseRrf({ vector: ranked("v") })[0]!.score, (DEFAULT_WEIGHTS.vector ?? 1) / 61);
    assert.equal(FusionConfigSchema.safeParse({ weights: { vector: -1 } }).success, false);
    assert.equal(FusionConfigSchema.safeParse({ weights: { bm25: 1 } }).success, false);
  });
});

import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { configureFusion, DEFAULT_WEIGHTS, EQUAL_WEIGHTS, FusionConfigSchema, fuse, fuseLinear, fuseRrf, fusionMethod, RRF_K, VECTOR_WEIGHT } from "../../src/memory/index.ts";

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

describe("linear fusion (selectable): normalised channel scores, combined", () => {
  /**
   * The case the RRF default lost (issue 26): the grams channel ranks the message first by a wide
   * margin (BM25 15.3 against 6.6), the words channel — which segmented its unknown word differently —
   * finds it only 20th, while another message sits 4th and 5th in both.
   */
  const words = [...["w1", "w2", "w3", "mediocre"].map((id, i) => ({ id, score: 10 - i })), ...Array.from({ length: 15 }, (_, i) => ({ id: `x${i}`, score: 6 - i * 0.1 })), { id: "said", score: 4 }];
  const grams = [{ id: "said", score: 15.3 }, ...["g1", "g2", "g3"].map((id, i) => ({ id, score: 6.9 - i * 0.1 })), { id: "mediocre", score: 6.6 }];

  test("a channel's clear winner ranks first; RRF buries it under a message mediocre in both", () => {
    const linear = fuseLinear({ words, grams }, EQUAL_WEIGHTS);
    assert.equal(linear[0]!.id, "said");
    const rrf = fuseRrf({ words, grams }, RRF_K, EQUAL_WEIGHTS);
    assert.equal(rrf[0]!.id, "mediocre", "the contrast: ranks alone lose the margin");
    assert.ok(rrf.findIndex((f) => f.id === "said") > 0);
  });

  test("scores are each channel's score over its best, weighted, over the weights' sum; -explain's contributions add up", () => {
    const fused = fuseLinear(
      {
        words: [
          { id: "a", score: 8 },
          { id: "b", score: 4 },
        ],
        grams: [{ id: "b", score: 2 }],
        vector: [{ id: "a", score: 0.5 }],
      },
      { vector: 0.5 },
    );
    const a = fused.find((f) => f.id === "a")!;
    const b = fused.find((f) => f.id === "b")!;
    const close = (x: number, y: number) => assert.ok(Math.abs(x - y) < 1e-12, `${x} != ${y}`);
    close(a.score, (1 * 1 + 0.5 * 1) / 2.5);
    close(b.score, (1 * 0.5 + 1 * 1) / 2.5);
    close(a.channels.words!.contribution + a.channels.vector!.contribution, a.score);
    assert.deepEqual(fuseLinear({}), []);
  });

  test("the method is validated at start with a clear error; rrf is the default, linear selectable", () => {
    assert.equal(FusionConfigSchema.parse({}).method, "rrf");
    assert.equal(FusionConfigSchema.parse({ method: "linear" }).method, "linear");
    const bad = FusionConfigSchema.safeParse({ method: "borda" });
    assert.equal(bad.success, false);
    assert.deepEqual(bad.error!.issues[0]!.path, ["method"]);
    assert.equal(fusionMethod(), "rrf");
    assert.equal(fuse({ words, grams })[0]!.id, "mediocre");
    configureFusion({ method: "linear", weights: {} });
    try {
      assert.equal(fusionMethod(), "linear");
      assert.equal(fuse({ words, grams })[0]!.id, "said");
    } finally {
      configureFusion(FusionConfigSchema.parse({}));
    }
  });
});

import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { fuseRrf, RRF_K } from "../../src/memory/index.ts";

const ranked = (...ids: string[]) => ids.map((id, i) => ({ id, score: 10 - i }));

describe("reciprocal rank fusion", () => {
  test("k is 60", () => assert.equal(RRF_K, 60));

  test("worked example: agreement beats one channel's top rank", () => {
    // words: a b c · grams: c a · vector: d
    // a = 1/61 + 1/62 = .03252   c = 1/63 + 1/61 = .03227   d = 1/61 = .01639   b = 1/62 = .01613
    const fused = fuseRrf({ words: ranked("a", "b", "c"), grams: ranked("c", "a"), vector: ranked("d") });
    assert.deepEqual(fused.map((f) => f.id), ["a", "c", "d", "b"]);
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
});

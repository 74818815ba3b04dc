/** The token bucket behind the plugins' intake limits, on an injected clock. */
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { TokenBucket } from "../../src/plugins/token-bucket.ts";

describe("token bucket", () => {
  test("a full burst, then the rate; debt is repaid at the rate", () => {
    let now = 0;
    const bucket = new TokenBucket(10, 5, () => now);
    assert.deepEqual(
      Array.from({ length: 6 }, () => bucket.take()),
      [true, true, true, true, true, false],
    );
    now = 100; // 0.1 s at 10 a second: one token
    assert.equal(bucket.take(), true);
    assert.equal(bucket.take(), false);
    bucket.spend(20);
    assert.equal(bucket.waitMs(), 2000, "20 tokens of debt at 10 a second");
    now = 2100;
    assert.equal(bucket.waitMs(), 0);
  });

  test("an unlimited bucket never waits (no NaN from 0 ms × Infinity)", () => {
    const bucket = new TokenBucket(Infinity, Infinity, () => 0);
    bucket.spend(1e12);
    assert.equal(bucket.waitMs(), 0);
    assert.equal(bucket.take(), true);
  });
});

/**
 * Postings kept between queries (src/search/postings-cache.ts): what is missing is exactly the
 * term × segment pairs never read, a segment's absence is remembered as well as its record, and
 * the bytes held stay within the bound after each query.
 */
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { PostingsCache } from "../../src/search/postings-cache.ts";

const record = (bytes: number) => new Uint8Array(bytes).fill(1);

describe("postings cache", () => {
  test("terms never read are read whole; a known term lacks only segments written since; absence is remembered", () => {
    const cache = new PostingsCache(1 << 20);
    assert.deepEqual(cache.missing(["wa", "wb"], [1, 2]), { unseen: ["wa", "wb"], partial: { terms: [], segments: [] } });
    // A whole-term read also returns a staged segment's record (9): not kept, as 9 is not live.
    cache.fill(
      ["wa", "wb"],
      [1, 2],
      [
        { term: "wa", segment: 2, postings: record(5) },
        { term: "wa", segment: 9, postings: record(5) },
      ],
    );
    assert.deepEqual(cache.missing(["wa", "wb"], [1, 2]), { unseen: [], partial: { terms: [], segments: [] } }, "wb has no record anywhere: known");
    const lacking = cache.missing(["wa", "wb", "wc"], [1, 2, 3]);
    assert.deepEqual(lacking.unseen, ["wc"]);
    assert.deepEqual(lacking.partial, { terms: ["wa", "wb"], segments: [3] }, "only the segment written since");
    assert.deepEqual(cache.missing(["wa"], [1, 2, 9]).partial.segments, [9], "a staged record read before it was live is not taken as known");
    const taken = cache.take(["wa", "wb"], [1, 2]);
    assert.deepEqual([...taken.keys()], ["wa"]);
    assert.deepEqual([...taken.get("wa")!.keys()], [2]);
  });

  test("bytes held stay within the bound after a query, the least recently used terms going first", () => {
    const cache = new PostingsCache(3_000);
    for (const term of ["w1", "w2", "w3"]) {
      cache.fill([term], [1], [{ term, segment: 1, postings: record(800) }]);
      cache.take([term], [1]);
    }
    assert.ok(cache.size <= 3_000, `${cache.size} bytes`);
    cache.take(["w1"], [1]); // w1 used again: w2 is now the oldest
    cache.fill(["w4"], [1], [{ term: "w4", segment: 1, postings: record(800) }]);
    const got = cache.take(["w4"], [1]);
    assert.equal(got.get("w4")?.get(1)?.length, 800, "what this query read is returned even as others are evicted");
    assert.ok(cache.size <= 3_000, `${cache.size} bytes`);
    assert.deepEqual(cache.missing(["w2"], [1]).unseen, ["w2"], "w2 evicted");
    assert.deepEqual(cache.missing(["w1"], [1]).unseen, [], "w1 kept");
  });

  test("a segment merged away stops costing memory", () => {
    const cache = new PostingsCache(1 << 20);
    cache.fill(
      ["wa"],
      [1, 2],
      [
        { term: "wa", segment: 1, postings: record(1000) },
        { term: "wa", segment: 2, postings: record(1000) },
      ],
    );
    const before = cache.size;
    cache.forgetSegments(new Set([1]));
    assert.ok(before - cache.size >= 1000);
    assert.deepEqual(cache.missing(["wa"], [1]).partial.segments, [1]);
  });
});

/**
 * A segment being built (src/search/segments.ts' SegmentBuilder over postings-pool.ts): its
 * postings records are byte for byte PostingsWriter's, and its `bytes` — what an import seals a
 * segment by (BULK_SEGMENT_BYTES) — is what it holds on the heap, within a margin, on an open
 * vocabulary of 100k+ mostly rare terms.
 */
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { SegmentBuilder } from "../../src/search/index.ts";
import { PostingsPool } from "../../src/search/postings-pool.ts";
import { forEachPosting, PostingsWriter } from "../../src/search/postings-codec.ts";
import { collectGarbage } from "../../src/runtime/index.ts";

/** A seeded generator (mulberry32): the same terms every run. */
function seeded(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const CJK = [
  ..."的一是不了人我在有他这中大来上国个到说们为子和你地出道也时年得就那要下以生会自着去之过家学对可她里后小么心多天而能好都然没日于起还发成事只作当想看文无开手十用主行方又如前所本见经头面",
];

/** Open-vocabulary terms, prefixed as the index prefixes them: rare CJK trigrams, invented words, common bigrams. */
function termOf(random: () => number): string {
  const r = random();
  const char = (n: number) => CJK[Math.floor(random() * n)]!;
  if (r < 0.5) return `t${char(CJK.length)}${char(CJK.length)}${char(CJK.length)}`;
  if (r < 0.75) return `w${Math.floor(random() * 2 ** 40).toString(36)}`;
  return `b${char(20)}${char(20)}`;
}

const heap = () => {
  collectGarbage(true);
  const usage = process.memoryUsage();
  // Bun counts typed arrays' bytes in heapUsed; V8 (Deno) apart, in arrayBuffers.
  return usage.heapUsed + usage.arrayBuffers;
};

describe("segment builder's memory", () => {
  test("the pool's records are PostingsWriter's, byte for byte, for rare and frequent terms and large values", () => {
    const random = seeded(3);
    const pool = new PostingsPool();
    const writers: PostingsWriter[] = [];
    for (let n = 0; n < 300; n++) {
      assert.equal(pool.addTerm(), n);
      writers.push(new PostingsWriter());
    }
    // Ordinals interleaved across terms (as documents come), gaps and frequencies of every varint size.
    for (let ordinal = 0; ordinal < 4_000; ordinal++) {
      for (let n = 0; n < 300; n++) {
        if (random() > (n < 10 ? 0.9 : 0.005)) continue;
        const tf2 = random() < 0.01 ? Math.floor(random() * 2 ** 33) : 1 + Math.floor(random() * 4);
        pool.add(n, ordinal * 1_000, tf2);
        writers[n]!.add(ordinal * 1_000, tf2);
      }
    }
    for (const [n, writer] of writers.entries()) {
      const expected = writer.finish();
      assert.equal(pool.recordLength(n), expected.length);
      const record = new Uint8Array(expected.length + 3);
      pool.writeRecord(n, record, 3);
      assert.deepEqual(record.subarray(3), expected, `term ${n}`);
    }
    const read: number[] = [];
    forEachPosting(writers[0]!.finish(), (ordinal) => read.push(ordinal));
    assert.ok(read.length > 3_000, "a frequent term spans many blocks");
    assert.throws(() => pool.add(0, 0, 1), /ascending/);
  });

  /** Fills a builder to `bytes` with documents of `termOf`'s terms; the heap it holds, its bytes and its terms. */
  function filled(bytes: number, term: () => string): { held: number; bytes: number; terms: number } {
    const before = heap();
    const builder = new SegmentBuilder();
    for (let rowid = 1; builder.bytes < bytes; rowid++) {
      const ordinal = builder.addDocument(rowid, { words: 20, trigrams: 20, bigrams: 20 });
      for (const t of new Set(Array.from({ length: 60 }, term))) builder.addPosting(t, ordinal, 2);
    }
    const held = heap() - before;
    return { held, bytes: builder.bytes, terms: builder.seal()!.terms.length };
  }

  const within = (held: number, bytes: number) =>
    assert.ok(held / bytes > 0.75 && held / bytes < 1.25, `held ${(held / 2 ** 20).toFixed(1)} MiB for ${(bytes / 2 ** 20).toFixed(1)} MiB of bytes (${(held / bytes).toFixed(2)})`);

  test("a builder's bytes bound what it holds, within 25 % of its heap: 100k+ open-vocabulary terms, or a few common ones in many documents", () => {
    // As an import's segment (BULK_SEGMENT_BYTES): the terms are most of it.
    const random = seeded(26);
    const open = filled(16 * 2 ** 20, () => termOf(random));
    assert.ok(open.terms > 100_000, `${open.terms} terms`);
    within(open.held, open.bytes);
    // 2,000 terms: the postings are most of it.
    const common = filled(8 * 2 ** 20, () => `w${Math.floor(random() * 2_000)}`);
    assert.ok(common.terms <= 2_000);
    within(common.held, common.bytes);
  });
});

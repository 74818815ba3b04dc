/**
 * A segment being built (src/search/segments.ts' SegmentBuilder over postings-pool.ts): its
 * postings records are byte for byte PostingsWriter's, and its `bytes` — what an import seals a
 * segment by (BULK_SEGMENT_BYTES) — is what it holds on the heap, within a margin, on an open
 * vocabulary of 100k+ mostly rare terms.
 */
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { PostingsPool } from "../../src/search/postings-pool.ts";
import { forEachPosting, PostingsWriter } from "../../src/search/postings-codec.ts";
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { scriptCommand } from "../../src/runtime/self.ts";
import { RUNTIME } from "../../src/runtime/index.ts";
import { seeded, type Filled } from "../fixtures/builder-heap.ts";

const BUILDER_HEAP = fileURLToPath(new URL("../fixtures/builder-heap.ts", import.meta.url));

/** One fill of a builder measured in a process of its own (see the fixture's header). */
function measured(which: "open" | "common"): Filled {
  const [command, ...args] = scriptCommand(BUILDER_HEAP);
  const run = spawnSync(command!, [...args, which], { encoding: "utf8" });
  assert.equal(run.status, 0, run.stderr);
  return JSON.parse(run.stdout.trim().split("\n").at(-1)!) as Filled;
}

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

  /**
   * Never more than a quarter over what `bytes` says (the import's memory bound rests on it), and
   * under Bun — the binary's runtime, where the per-term costs were measured — not a quarter
   * under either (a segment sealed far too early). V8 keeps strings and Map entries in less, so
   * under Deno `bytes` overstates (0.46 for the open vocabulary): segments seal early, not late.
   */
  const within = (held: number, bytes: number) =>
    assert.ok(
      held / bytes < 1.25 && (RUNTIME !== "bun" || held / bytes > 0.75),
      `held ${(held / 2 ** 20).toFixed(1)} MiB for ${(bytes / 2 ** 20).toFixed(1)} MiB of bytes (${(held / bytes).toFixed(2)}, ${RUNTIME})`,
    );

  test("a builder's bytes bound what it holds, within 25 % of its heap: 100k+ open-vocabulary terms, or a few common ones in many documents", () => {
    const open = measured("open");
    assert.ok(open.terms > 100_000, `${open.terms} terms`);
    within(open.held, open.bytes);
    const common = measured("common");
    assert.ok(common.terms <= 2_000);
    within(common.held, common.bytes);
  });
});

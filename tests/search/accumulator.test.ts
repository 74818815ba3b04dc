/**
 * A query's score accumulator (src/search/accumulator.ts): its top k is exactly the first k of
 * a full sort (score, then the tie order), it lists each scored slot once and sums what each
 * holds of the query by count, and a released one comes back cleared.
 */
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import { acquire, Accumulator, release } from "../../src/search/accumulator.ts";

describe("score accumulator", () => {
  test("best(k) is the first k of a full sort by score, ties by the given order", () => {
    fc.assert(
      fc.property(
        // Few distinct values: ties are common, as they are between documents matching one word at one length.
        fc.array(fc.record({ slot: fc.integer({ min: 0, max: 199 }), value: fc.constantFrom(0.5, 1, 1.5, 2.25, 3) }), { maxLength: 400 }),
        fc.integer({ min: 0, max: 60 }),
        (adds, k) => {
          const acc = new Accumulator(200);
          const order = (slot: number) => (slot * 7919) % 200; // a tie order unlike the slots'
          for (const { slot, value } of adds) acc.add(slot, value, 1);
          const slots = [...new Set(adds.map((a) => a.slot))];
          assert.equal(acc.count, slots.length, "each scored slot listed once");
          const sorted = slots.sort((a, b) => acc.scores[b]! - acc.scores[a]! || order(a) - order(b));
          assert.deepEqual(acc.best(k, order), sorted.slice(0, k));
          for (const slot of slots) assert.equal(acc.matched[slot], adds.filter((a) => a.slot === slot).length, "what each slot holds, by count");
        },
      ),
    );
  });

  test("a released accumulator comes back cleared; two in use at once are distinct", () => {
    const a = acquire(50);
    a.add(3, 1, 1);
    a.add(7, 2, 0.5);
    const b = acquire(50);
    assert.notEqual(a, b);
    release(a);
    const again = acquire(50);
    assert.equal(again.count, 0);
    assert.ok(
      again.scores.every((s) => s === 0),
      "every slot back to 0",
    );
    assert.ok(
      again.matched.every((m) => m === 0),
      "what each slot held, too",
    );
    release(again);
    release(b);
  });
});

/**
 * A query's BM25 scores, one slot per document of the live segments (a segment's documents at
 * `base + ordinal`), with the slots it touched listed as it goes. Scoring then costs what the
 * postings read cost, not what the store holds: a query used to allocate a score array per segment
 * and ranking and scan every slot of it for matches — at 100k open-vocabulary messages that was
 * most of a query whose rare words match a handful of documents. Accumulators are reused across
 * queries (a pool, since queries interleave at their awaits) and cleared by their touched slots.
 */

/** Scores of one ranking of one query. Slot scores start at 0; a term's BM25 is always above 0. */
export class Accumulator {
  scores: Float64Array;
  /**
   * Per slot: how much of the query it holds, by count — each query term it holds counts the
   * times the term was given, a term only in its neighbours (context) half. Sums of halves: exact
   * in 32 bits, half the bytes of the scores (a slot per document of the store).
   */
  matched: Float32Array;
  /** The slots with a score, in the order first scored. */
  touched: Uint32Array;
  count = 0;

  constructor(slots: number) {
    this.scores = new Float64Array(slots);
    this.matched = new Float32Array(slots);
    this.touched = new Uint32Array(slots);
  }

  /** Adds one query term's `value` and its share `held` of the query by count to a slot, listing the slot the first time. */
  add(slot: number, value: number, held: number): void {
    const before = this.scores[slot]!;
    if (before === 0) this.touched[this.count++] = slot;
    this.scores[slot] = before + value;
    this.matched[slot]! += held;
  }

  /**
   * The `k` best touched slots, best first; ties go to the lower `order` (the event's rowid, a
   * stable order). A bounded heap: a common word matches tens of thousands of documents at 100k
   * messages, and sorting them all would cost more than scoring them.
   */
  best(k: number, order: (slot: number) => number): number[] {
    const scores = this.scores;
    const before = (a: number, b: number) => scores[a]! > scores[b]! || (scores[a] === scores[b] && order(a) < order(b));
    const heap: number[] = []; // worst of the kept at heap[0]
    if (k <= 0) return heap;
    for (let i = 0; i < this.count; i++) {
      const slot = this.touched[i]!;
      if (heap.length < k) {
        heap.push(slot);
        for (let at = heap.length - 1; at > 0; ) {
          const parent = (at - 1) >> 1;
          if (!before(heap[parent]!, heap[at]!)) break;
          [heap[at], heap[parent]] = [heap[parent]!, heap[at]!];
          at = parent;
        }
        continue;
      }
      // Most matches score below the worst kept: one comparison, no call.
      if (scores[slot]! < scores[heap[0]!]! || !before(slot, heap[0]!)) continue;
      heap[0] = slot;
      for (let at = 0; ; ) {
        const l = 2 * at + 1;
        const r = l + 1;
        let worst = at;
        if (l < heap.length && before(heap[worst]!, heap[l]!)) worst = l;
        if (r < heap.length && before(heap[worst]!, heap[r]!)) worst = r;
        if (worst === at) break;
        [heap[at], heap[worst]] = [heap[worst]!, heap[at]!];
        at = worst;
      }
    }
    return heap.sort((a, b) => (before(a, b) ? -1 : 1));
  }

  /** Zeroes what was touched, for the next query. */
  clear(): void {
    for (let i = 0; i < this.count; i++) {
      this.scores[this.touched[i]!] = 0;
      this.matched[this.touched[i]!] = 0;
    }
    this.count = 0;
  }
}

/** Accumulators not in use, largest first taken; a returned one keeps its arrays. */
const free: Accumulator[] = [];

/** Pooled accumulators kept at most: a few queries run at once in a busy daemon. */
const POOL_MAX = 8;

/** An accumulator of at least `slots` slots, cleared. Give it back with `release`. */
export function acquire(slots: number): Accumulator {
  const at = free.findIndex((a) => a.scores.length >= slots);
  if (at >= 0) return free.splice(at, 1)[0]!;
  // Some room to grow: a daemon's store gains a segment every turn.
  return new Accumulator(Math.ceil(slots * 1.25) + 1024);
}

export function release(accumulator: Accumulator): void {
  accumulator.clear();
  if (free.length >= POOL_MAX) {
    // Full: the smallest goes, unless it is this one (a store only grows).
    const smallest = free.reduce((s, a, i) => (a.scores.length < free[s]!.scores.length ? i : s), 0);
    if (free[smallest]!.scores.length >= accumulator.scores.length) return;
    free.splice(smallest, 1);
  }
  free.push(accumulator);
}

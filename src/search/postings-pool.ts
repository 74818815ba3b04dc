/**
 * The postings of every term of a segment being built, in a few typed arrays: per term its count,
 * last ordinal and varint bytes (the PostingsWriter format: ordinal gap, twice the weighted term
 * frequency), the bytes in a chain of small blocks cut from shared pages.
 *
 * Why not a PostingsWriter a term: on an open vocabulary a segment holds 100k+ terms, most with a
 * posting or two, and an object with its own buffer a term cost ~330 bytes each besides the
 * postings — more than the postings themselves, and 100k+ objects for the collector to trace.
 * Here a term costs its share of five typed arrays (20 bytes) and one 8-byte block to start.
 */
import { varintLength } from "./postings-codec.ts";

/** Bytes a block holds: a posting or two of a rare term fits in one. */
const BLOCK = 8;
/** Blocks a page holds (64 KiB of bytes a page): pages are added, never copied as the pool grows. */
const PAGE_BLOCKS = 8_192;
/** Bytes per term of the per-term arrays (count, last, body, head, tail). */
const PER_TERM = 20;

const grown = <T extends Uint32Array | Int32Array>(array: T, size: number, make: (n: number) => T): T => {
  if (size <= array.length) return array;
  const next = make(Math.max(size, 2 * array.length));
  next.set(array);
  return next;
};

export class PostingsPool {
  #count = new Uint32Array(256);
  #last = new Int32Array(256);
  #body = new Uint32Array(256);
  #head = new Int32Array(256);
  #tail = new Int32Array(256);
  #terms = 0;
  readonly #pages: Uint8Array[] = [];
  /** The block after each block in its term's chain (its last block's link is never read). */
  #next = new Int32Array(1_024);
  #blocks = 0;

  /** Terms added. */
  get terms(): number {
    return this.#terms;
  }

  /**
   * What the pool holds, in bytes: the capacity of its per-term arrays, the blocks in use (a page
   * is cut into blocks as they are needed; the last one's rest, at most 64 KiB, is left out) and
   * the capacity of the blocks' links — capacity, not use: that array grows by doubling, and
   * counting the links in use understated a pool of a few frequent terms by a quarter of its heap.
   */
  get bytes(): number {
    return this.#count.length * PER_TERM + this.#blocks * BLOCK + this.#next.length * 4;
  }

  /** A new term, with no postings yet; its number. */
  addTerm(): number {
    const n = this.#terms++;
    if (n >= this.#count.length) {
      this.#count = grown(this.#count, n + 1, (size) => new Uint32Array(size));
      this.#last = grown(this.#last, n + 1, (size) => new Int32Array(size));
      this.#body = grown(this.#body, n + 1, (size) => new Uint32Array(size));
      this.#head = grown(this.#head, n + 1, (size) => new Int32Array(size));
      this.#tail = grown(this.#tail, n + 1, (size) => new Int32Array(size));
    }
    this.#last[n] = -1;
    return n;
  }

  /** Term `n` in document `ordinal` (ascending for each term), `tf2` twice its weighted frequency. */
  add(n: number, ordinal: number, tf2: number): void {
    const last = this.#last[n]!;
    if (ordinal <= last) throw new RangeError(`Cannot add document ${ordinal} after ${last}: postings are in ascending order`);
    this.#write(n, ordinal - last - 1);
    this.#write(n, tf2);
    this.#last[n] = ordinal;
    this.#count[n]!++;
  }

  /** Bytes of term `n`'s record: its count's varint and its postings. */
  recordLength(n: number): number {
    return varintLength(this.#count[n]!) + this.#body[n]!;
  }

  /** Writes term `n`'s record (count, then postings: PostingsWriter's format) into `target` at `offset`. */
  writeRecord(n: number, target: Uint8Array, offset: number): void {
    let at = offset;
    let count = this.#count[n]!;
    while (count >= 0x80) {
      target[at++] = (count % 0x80) | 0x80;
      count = Math.floor(count / 0x80);
    }
    target[at++] = count;
    let left = this.#body[n]!;
    // Byte by byte: a view a block (eight bytes) cost more than the copy.
    for (let block = this.#head[n]!; left > 0; block = this.#next[block]!) {
      const bytes = this.#pages[Math.floor(block / PAGE_BLOCKS)]!;
      const start = (block % PAGE_BLOCKS) * BLOCK;
      const end = start + Math.min(BLOCK, left);
      left -= end - start;
      for (let i = start; i < end; i++) target[at++] = bytes[i]!;
    }
  }

  /** Appends one varint to term `n`'s chain, adding a block when its last one is full. */
  #write(n: number, value: number): void {
    for (;;) {
      const byte = value >= 0x80 ? (value % 0x80) | 0x80 : value;
      const body = this.#body[n]!;
      if (body % BLOCK === 0) {
        const block = this.#newBlock();
        if (body === 0) this.#head[n] = block;
        else this.#next[this.#tail[n]!] = block;
        this.#tail[n] = block;
      }
      const tail = this.#tail[n]!;
      this.#pages[Math.floor(tail / PAGE_BLOCKS)]![(tail % PAGE_BLOCKS) * BLOCK + (body % BLOCK)] = byte;
      this.#body[n] = body + 1;
      if (value < 0x80) return;
      // Division, not shifts: a frequency or gap may pass 2^31.
      value = Math.floor(value / 0x80);
    }
  }

  #newBlock(): number {
    const block = this.#blocks++;
    if (block % PAGE_BLOCKS === 0) this.#pages.push(new Uint8Array(PAGE_BLOCKS * BLOCK));
    this.#next = grown(this.#next, block + 1, (size) => new Int32Array(size));
    return block;
  }
}

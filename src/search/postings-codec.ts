/**
 * The bytes of the search index (see search-segments.ts): unsigned LEB128 varints, the format
 * protobuf and Lucene use for small integers — a posting (the gap to the previous document and
 * its term frequency) takes two or three bytes.
 *
 * - postings of one term in one segment: count, then per document (ordinal gap, weighted tf);
 * - a segment's documents: their event rowids as gaps from the first, and each document's
 *   length in tokens per channel.
 */

/** A growable byte buffer of varints. */
export class VarintWriter {
  #bytes: Uint8Array;
  #length = 0;

  /**
   * `initial`: first capacity in bytes. Small for postings: most terms of a segment (numbers,
   * names, rare trigrams) hold a document or two, and a builder holds one writer per term.
   */
  constructor(initial = 64) {
    this.#bytes = new Uint8Array(initial);
  }

  get length(): number {
    return this.#length;
  }

  write(value: number): void {
    if (this.#length + 10 > this.#bytes.length) {
      const grown = new Uint8Array(Math.max(16, this.#bytes.length * 2));
      grown.set(this.#bytes.subarray(0, this.#length));
      this.#bytes = grown;
    }
    // Division, not shifts: rowids go past 2^32 (an import's reserved range).
    while (value >= 0x80) {
      this.#bytes[this.#length++] = (value % 0x80) | 0x80;
      value = Math.floor(value / 0x80);
    }
    this.#bytes[this.#length++] = value;
  }

  /** What was written, not copied (valid until the next write). */
  view(): Uint8Array {
    return this.#bytes.subarray(0, this.#length);
  }

  /** A copy of what was written. */
  finish(): Uint8Array {
    return this.#bytes.slice(0, this.#length);
  }
}

/** Bytes `value`'s varint takes. */
export function varintLength(value: number): number {
  let bytes = 1;
  for (; value >= 0x80; bytes++) value = Math.floor(value / 0x80);
  return bytes;
}

/** Reads varints from `bytes` in order. */
export class VarintReader {
  offset = 0;
  constructor(readonly bytes: Uint8Array) {}

  get done(): boolean {
    return this.offset >= this.bytes.length;
  }

  read(): number {
    const bytes = this.bytes;
    let byte = bytes[this.offset++]!;
    if (byte < 0x80) return byte;
    let value = byte & 0x7f;
    let scale = 0x80;
    for (;;) {
      if (this.offset >= bytes.length) throw new RangeError("Cannot read the search index: a varint runs past its record");
      byte = bytes[this.offset++]!;
      value += (byte & 0x7f) * scale;
      if (byte < 0x80) return value;
      scale *= 0x80;
    }
  }
}

/** One term's postings in one segment, being written: documents in ascending ordinal. */
export class PostingsWriter {
  readonly #body = new VarintWriter(0);
  #count = 0;
  #last = -1;

  get count(): number {
    return this.#count;
  }

  /** Bytes of postings written so far (the record's body). */
  get bytes(): number {
    return this.#body.length;
  }

  /** `tf2`: twice the weighted term frequency (own text counts 2, context 1), a whole number. */
  add(ordinal: number, tf2: number): void {
    if (ordinal <= this.#last) throw new RangeError(`Cannot add document ${ordinal} after ${this.#last}: postings are in ascending order`);
    this.#body.write(ordinal - this.#last - 1);
    this.#body.write(tf2);
    this.#last = ordinal;
    this.#count++;
  }

  /** The record's length in bytes: its count's varint and its body. */
  get recordLength(): number {
    return varintLength(this.#count) + this.#body.length;
  }

  /** Writes the record (count, then body) into `target` at `offset`, without a copy of its own. */
  writeRecord(target: Uint8Array, offset: number): void {
    const head = new VarintWriter(10);
    head.write(this.#count);
    target.set(head.view(), offset);
    target.set(this.#body.view(), offset + head.length);
  }

  finish(): Uint8Array {
    const out = new Uint8Array(this.recordLength);
    this.writeRecord(out, 0);
    return out;
  }
}

/** How many documents a postings record holds (its first varint), without decoding the rest. */
export function postingsCount(bytes: Uint8Array): number {
  return new VarintReader(bytes).read();
}

/** Calls `each(ordinal, tf2)` for every posting of a record, in ascending ordinal. */
export function forEachPosting(bytes: Uint8Array, each: (ordinal: number, tf2: number) => void): void {
  const reader = new VarintReader(bytes);
  const count = reader.read();
  let ordinal = -1;
  for (let i = 0; i < count; i++) {
    ordinal += reader.read() + 1;
    each(ordinal, reader.read());
  }
}

/** Channels of the index, in the order their lengths are stored. */
export const INDEX_CHANNELS = ["words", "trigrams", "bigrams"] as const;
export type IndexChannel = (typeof INDEX_CHANNELS)[number];

/** A segment's documents: rowid and length per channel, by ordinal; how many have text in each channel. */
export type SegmentDocs = { rowids: Float64Array; lengths: Record<IndexChannel, Uint32Array>; present: Record<IndexChannel, number> };

export function encodeSegmentDocs(rowids: readonly number[], lengths: Record<IndexChannel, readonly number[]>): { rowids: Uint8Array; lengths: Uint8Array } {
  const ids = new VarintWriter();
  let last = rowids[0] ?? 0;
  ids.write(last);
  for (let i = 1; i < rowids.length; i++) {
    const rowid = rowids[i]!;
    if (rowid <= last) throw new RangeError("Cannot encode a segment: rowids must ascend");
    ids.write(rowid - last);
    last = rowid;
  }
  const lens = new VarintWriter();
  for (const channel of INDEX_CHANNELS) for (const n of lengths[channel]) lens.write(n);
  return { rowids: ids.finish(), lengths: lens.finish() };
}

export function decodeSegmentDocs(count: number, rowids: Uint8Array, lengths: Uint8Array): SegmentDocs {
  const ids = new Float64Array(count);
  const reader = new VarintReader(rowids);
  let rowid = 0;
  for (let i = 0; i < count; i++) {
    rowid = i === 0 ? reader.read() : rowid + reader.read();
    ids[i] = rowid;
  }
  const lens = new VarintReader(lengths);
  const out = {} as Record<IndexChannel, Uint32Array>;
  const present = {} as Record<IndexChannel, number>;
  for (const channel of INDEX_CHANNELS) {
    const array = new Uint32Array(count);
    let nonzero = 0;
    for (let i = 0; i < count; i++) if ((array[i] = lens.read()) > 0) nonzero++;
    out[channel] = array;
    present[channel] = nonzero;
  }
  return { rowids: ids, lengths: out, present };
}

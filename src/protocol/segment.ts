/**
 * The layout of a plugin's shared segment: a header, an event ring (plugin → kernel
 * notifications) and two payload regions, one written by each side. Control messages carry
 * `{offset, length}` into the writer's region; the reader checks the reference before use.
 *
 *   0    header (64 bytes): magic, version, ring offset/capacity, ring head/tail, dropped
 *   64   event ring: records of [u32 length][bytes], padded to 4
 *   ...  kernel → plugin payloads | plugin → kernel payloads (halves of the rest)
 *
 * Head and tail are only ever advanced by one side each (single producer, single consumer)
 * and are read and written with Atomics so the record is visible before its index moves.
 */
import { z } from "zod";
import { HomedError } from "../errors/index.ts";

export const PayloadRefSchema = z.object({ offset: z.number().int().nonnegative(), length: z.number().int().nonnegative() });
export type PayloadRef = z.infer<typeof PayloadRefSchema>;

const MAGIC = 0x47534d48; // "HMSG"
const VERSION = 1;
const HEADER = 64;
const H = { magic: 0, version: 1, ringOffset: 2, ringCapacity: 3, head: 4, tail: 5, dropped: 6, payloadOffset: 7, payloadSize: 8 } as const;
export const DEFAULT_RING_BYTES = 64 * 1024;

export class SegmentError extends HomedError {
  constructor(
    override readonly code: "segment_full" | "bad_reference" | "bad_segment",
    message: string,
  ) {
    super(code, message);
    this.name = "SegmentError";
  }
}

export type Role = "kernel" | "plugin";

export class SegmentChannel {
  private readonly header: Int32Array;
  private readonly own: { start: number; size: number };
  private readonly peer: { start: number; size: number };
  private cursor = 0;
  private live = 0;

  /** `bytes` is the whole mapping; `initialize` is true for the side that created it. */
  constructor(
    private readonly bytes: Uint8Array,
    readonly role: Role,
    initialize: boolean,
    ringBytes = DEFAULT_RING_BYTES,
  ) {
    this.header = new Int32Array(bytes.buffer, bytes.byteOffset, HEADER / 4);
    if (initialize) {
      // Positions run over 2^32 and are taken modulo the capacity: it must divide 2^32.
      if (ringBytes < 64 || (ringBytes & (ringBytes - 1)) !== 0) throw new SegmentError("bad_segment", `Cannot use a ${ringBytes}-byte ring: its size must be a power of two`);
      const payloadOffset = HEADER + ringBytes;
      if (payloadOffset >= bytes.length) throw new SegmentError("bad_segment", `Cannot lay out a ${bytes.length}-byte segment with a ${ringBytes}-byte ring`);
      this.header.set([MAGIC, VERSION, HEADER, ringBytes, 0, 0, 0, payloadOffset, bytes.length - payloadOffset]);
    } else if (this.header[H.magic] !== MAGIC || this.header[H.version] !== VERSION) {
      throw new SegmentError("bad_segment", "Cannot use segment: it does not carry homed's header (magic/version)");
    }
    const start = this.header[H.payloadOffset]!;
    const half = Math.floor(this.header[H.payloadSize]! / 2 / 8) * 8;
    const kernelRegion = { start, size: half };
    const pluginRegion = { start: start + half, size: half };
    this.own = role === "kernel" ? kernelRegion : pluginRegion;
    this.peer = role === "kernel" ? pluginRegion : kernelRegion;
  }

  /** Largest payload one side can hold at once. */
  get capacity(): number {
    return this.own.size;
  }

  /** Copies `data` into this side's region; the reference stays valid until `release`. */
  write(data: Uint8Array): PayloadRef {
    const ref = this.allocate(data.length);
    this.bytes.set(data, ref.offset);
    return ref;
  }

  /** Reserves `length` bytes in this side's region for the caller to fill in place. */
  allocate(length: number): PayloadRef {
    // Bump allocation; the region is reused once everything handed out was released.
    if (this.live === 0) this.cursor = 0;
    const aligned = Math.ceil(this.cursor / 8) * 8;
    if (aligned + length > this.own.size) {
      throw new SegmentError("segment_full", `Cannot place ${length} bytes in shared memory: ${this.own.size - aligned} of ${this.own.size} free`);
    }
    this.cursor = aligned + length;
    this.live++;
    return { offset: this.own.start + aligned, length };
  }

  /** The bytes of a reference into this side's own region (to fill an allocation in place). */
  ownView(ref: PayloadRef): Uint8Array {
    return this.view(ref, this.own);
  }

  /** The bytes the peer placed at `ref` (a view, valid until the peer is told it may reuse them). */
  read(ref: PayloadRef): Uint8Array {
    return this.view(ref, this.peer);
  }

  release(_ref: PayloadRef): void {
    if (this.live > 0) this.live--;
  }

  /**
   * Plugin side: appends one event; false when the ring is full (the event is counted as dropped).
   * `wasEmpty` says the kernel had caught up, so the plugin must ring the doorbell.
   */
  pushEvent(data: Uint8Array): { written: boolean; wasEmpty: boolean } {
    const capacity = this.header[H.ringCapacity]!;
    const head = Atomics.load(this.header, H.head) >>> 0;
    const tail = Atomics.load(this.header, H.tail) >>> 0;
    const used = (head - tail) >>> 0;
    const record = 4 + Math.ceil(data.length / 4) * 4;
    if (record > capacity - used) {
      Atomics.add(this.header, H.dropped, 1);
      return { written: false, wasEmpty: used === 0 };
    }
    const length = new Uint8Array(4);
    new DataView(length.buffer).setUint32(0, data.length, true);
    this.ringCopyIn(head, length);
    this.ringCopyIn(head + 4, data);
    Atomics.store(this.header, H.head, (head + record) | 0);
    // Also "empty" when the kernel drained up to this record's start while it was written: its
    // last look at the head may have missed this record, and without a doorbell it would wait in
    // the ring (with every later event and drop) until something else rang.
    return { written: true, wasEmpty: used === 0 || Atomics.load(this.header, H.tail) >>> 0 === head };
  }

  /** Kernel side: takes every event written so far, oldest first. */
  drainEvents(): Uint8Array[] {
    const events: Uint8Array[] = [];
    let tail = Atomics.load(this.header, H.tail) >>> 0;
    const head = Atomics.load(this.header, H.head) >>> 0;
    const capacity = this.ring().capacity;
    while (tail !== head) {
      const length = new DataView(this.ringCopyOut(tail, 4).buffer).getUint32(0, true);
      const record = 4 + Math.ceil(length / 4) * 4;
      // A record longer than what was written means a corrupt ring: skip to the head, don't trust it.
      if (record > capacity || record > (head - tail) >>> 0) {
        Atomics.add(this.header, H.dropped, 1);
        tail = head;
        break;
      }
      events.push(this.ringCopyOut(tail + 4, length));
      tail = (tail + record) >>> 0;
    }
    Atomics.store(this.header, H.tail, tail | 0);
    return events;
  }

  get droppedEvents(): number {
    return Atomics.load(this.header, H.dropped);
  }

  private view(ref: PayloadRef, region: { start: number; size: number }): Uint8Array {
    const ok = PayloadRefSchema.safeParse(ref);
    if (!ok.success || ref.offset < region.start || ref.offset + ref.length > region.start + region.size) {
      throw new SegmentError("bad_reference", `Cannot read shared memory at ${JSON.stringify(ref)}: outside the ${this.role === "kernel" ? "plugin" : "kernel"}'s region`);
    }
    return this.bytes.subarray(ref.offset, ref.offset + ref.length);
  }

  private ringCopyIn(position: number, data: Uint8Array): void {
    const { start, capacity } = this.ring();
    const at = (position >>> 0) % capacity;
    const first = Math.min(data.length, capacity - at);
    this.bytes.set(data.subarray(0, first), start + at);
    this.bytes.set(data.subarray(first), start);
  }

  private ringCopyOut(position: number, length: number): Uint8Array {
    const { start, capacity } = this.ring();
    const at = (position >>> 0) % capacity;
    const out = new Uint8Array(length);
    const first = Math.min(length, capacity - at);
    out.set(this.bytes.subarray(start + at, start + at + first));
    out.set(this.bytes.subarray(start, start + length - first), first);
    return out;
  }

  private ring() {
    return { start: this.header[H.ringOffset]!, capacity: this.header[H.ringCapacity]! };
  }
}

/**
 * The plugin's end of its shared segment: mapped when the kernel sends `homed/shm_attach`.
 * Tools read the kernel's payloads by reference, place their own (and tell the kernel the
 * `{offset, length}`), and push events into the ring; the first event into an empty ring
 * rings the doorbell (`homed/events`) so the kernel drains a whole batch at once.
 */
import { openSegment, type SharedSegment } from "../../src/runtime/index.ts";
import { statfsSync } from "node:fs";
import { SegmentChannel, type Peer, type PayloadRef } from "../../src/protocol/index.ts";

/** Bytes free in /dev/shm, where segments live (Infinity when it cannot be asked). */
function shmFree(): number {
  try {
    const stats = statfsSync("/dev/shm");
    return stats.bavail * stats.bsize;
  } catch {
    return Infinity;
  }
}

export class PluginShared {
  private segment?: SharedSegment;
  private channel?: SegmentChannel;

  constructor(private readonly peer: Peer) {}

  attach(name: string, size: number): void {
    this.detach();
    this.segment = openSegment(name, size);
    this.channel = new SegmentChannel(this.segment.bytes, "plugin", false);
  }

  get attached(): boolean {
    return this.channel !== undefined;
  }

  /** Largest payload the plugin can place at once (0 when not attached). */
  get capacity(): number {
    return this.channel?.capacity ?? 0;
  }

  /** The kernel's payload at `ref`; valid until this call returns (copy it to keep it). */
  read(ref: PayloadRef): Uint8Array {
    return this.need().read(ref);
  }

  /** Places bytes for the kernel; the kernel releases them with `homed/shm_release` once read. */
  write(data: Uint8Array): PayloadRef {
    return this.need().write(data);
  }

  /**
   * Reserves room to fill in place (no extra copy); returns the reference and the writable view.
   * Refused when /dev/shm has less free than `length`: a segment is sized up front but its pages
   * are taken as they are written, and writing past a full tmpfs kills the process (SIGBUS).
   */
  allocate(length: number): { ref: PayloadRef; bytes: Uint8Array } {
    const channel = this.need();
    const free = shmFree();
    if (length > free) throw new Error(`Cannot place ${length} bytes in shared memory: /dev/shm has ${free} bytes free`);
    const ref = channel.allocate(length);
    return { ref, bytes: channel.ownView(ref) };
  }

  release(ref: PayloadRef): void {
    this.channel?.release(ref);
  }

  /** Sends one event to the kernel through the ring; false when the ring was full. */
  pushEvent(event: unknown): boolean {
    const { written, wasEmpty } = this.need().pushEvent(new TextEncoder().encode(JSON.stringify(event)));
    if (wasEmpty) void this.peer.notify("homed/events").catch(() => {});
    return written;
  }

  detach(): void {
    this.segment?.close();
    this.segment = undefined;
    this.channel = undefined;
  }

  private need(): SegmentChannel {
    if (!this.channel) throw new Error("Cannot use shared memory: the kernel has not attached a segment (does the plugin declare sharedMemory?)");
    return this.channel;
  }
}

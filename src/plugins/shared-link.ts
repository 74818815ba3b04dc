/**
 * The kernel's end of a plugin's shared segment: created for plugins whose manifest asks for
 * it, handed to the plugin with `homed/shm_attach`, drained on each `homed/events` doorbell,
 * and unlinked when the plugin exits — or, after a kernel crash, by the next kernel's sweep.
 */
import { createSegment, listSegments, unlinkSegment, type SharedSegment } from "../runtime/index.ts";
import type { PluginConnection } from "./connection.ts";
import { EVENTS_DOORBELL } from "./intake.ts";
import { SegmentChannel, type PayloadRef } from "../protocol/index.ts";

const PREFIX = "/homed-";
/** Payloads from this size have their pages freed once read (smaller ones are reused soon anyway). */
const DISCARD_FROM_BYTES = 1024 * 1024;
let sequence = 0;

/** What the kernel does with a plugin's segment. */
export interface SharedAccess {
  /** Largest payload one side can hold at once. */
  readonly capacity: number;
  readonly droppedEvents: number;
  /** Places bytes for the plugin; pass the reference in a call, `release` it after the answer. */
  write(data: Uint8Array): PayloadRef;
  release(ref: PayloadRef): void;
  /** The plugin's payload at `ref` (a view: copy what you keep, then call `done`). */
  read(ref: PayloadRef): Uint8Array;
  /** Tells the plugin the kernel has finished with its payload at `ref`; its pages are freed first. */
  done(ref: PayloadRef): Promise<void>;
}

export type SharedLink = { name: string; size: number; access: SharedAccess; dispose(): void };

/**
 * `onDropped` is told, after a drain, how many events the plugin could not push since the last
 * one (its ring was full) and how many in all: a drop is counted and told, never silent.
 */
export async function attachSharedMemory(
  child: Pick<PluginConnection, "peer" | "client">,
  plugin: string,
  size: number,
  onEvent: (event: unknown) => void,
  onDropped: (since: number, total: number) => void = () => {},
): Promise<SharedLink> {
  const name = `${PREFIX}${process.pid}-${plugin}-${++sequence}`;
  const segment: SharedSegment = createSegment(name, size);
  const channel = new SegmentChannel(segment.bytes, "kernel", true);
  let disposed = false;
  let toldDropped = 0;
  const dispose = () => {
    if (disposed) return;
    disposed = true;
    segment.close();
    unlinkSegment(name);
  };
  try {
    child.peer.on(EVENTS_DOORBELL, () => {
      if (disposed) return;
      // Until a look finds the ring empty: a record written while draining rings no doorbell
      // unless the plugin saw this drain finish (see SegmentChannel.pushEvent).
      for (let batch = channel.drainEvents(); batch.length > 0; batch = channel.drainEvents()) for (const bytes of batch) onEvent(decodeEvent(bytes));
      const total = channel.droppedEvents;
      if (total > toldDropped) onDropped(total - toldDropped, total);
      toldDropped = total;
    });
    await child.client.call("homed/shm_attach", { name, size });
  } catch (error) {
    dispose();
    throw error;
  }
  const access: SharedAccess = {
    capacity: channel.capacity,
    get droppedEvents() {
      return channel.droppedEvents;
    },
    write: (data) => channel.write(data),
    release: (ref) => channel.release(ref),
    read: (ref) => channel.read(ref),
    done(ref) {
      // Pages a payload filled stay in /dev/shm until freed; a plugin may reuse them only after the notice.
      if (!disposed && ref.length >= DISCARD_FROM_BYTES) segment.discard(ref.offset, ref.length);
      return child.peer.notify("homed/shm_release", { offset: ref.offset, length: ref.length });
    },
  };
  return { name, size, access, dispose };
}

function decodeEvent(bytes: Uint8Array): unknown {
  const text = new TextDecoder().decode(bytes);
  try {
    return JSON.parse(text);
  } catch {
    // A plugin's event that is not JSON is still passed on, as text, rather than lost.
    return { text };
  }
}

/** Unlinks segments left by kernels that are no longer running (after a crash or SIGKILL). */
export function sweepStaleSegments(isAlive: (pid: number) => boolean = processAlive): string[] {
  const removed: string[] = [];
  for (const name of listSegments(PREFIX)) {
    const pid = Number(/^\/homed-(\d+)-/.exec(name)?.[1]);
    if (!Number.isInteger(pid) || pid <= 0 || isAlive(pid)) continue;
    unlinkSegment(name);
    removed.push(name);
  }
  return removed;
}

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it exists but belongs to someone else.
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/**
 * The C library calls homed makes (Linux): file locks (file-lock.ts) and POSIX shared memory
 * (shm.ts). Bun reaches libc through `bun:ffi`, Deno through `Deno.dlopen`; both sides give this
 * one interface, so the lock and shared-memory code above it is written once. Pointers never
 * leave the two side files: a mapping comes back as its bytes and a way to unmap them.
 */
import { RUNTIME } from "./which.ts";

/**
 * A shared mapping: `bytes` is a view over the mapped memory, valid until `unmap()`.
 * `removePages(start, length)` is `madvise(MADV_REMOVE)` on page-aligned bytes of it: tmpfs frees
 * them and they read as zeros.
 */
export type Mapping = { bytes: Uint8Array; unmap(): number; removePages(start: number, length: number): number };

export interface Libc {
  open(path: string, flags: number, mode: number): number;
  flock(fd: number, operation: number): number;
  close(fd: number): number;
  shmOpen(name: string, flags: number, mode: number): number;
  shmUnlink(name: string): number;
  ftruncate(fd: number, size: number): number;
  /** `mmap(NULL, size, prot, flags, fd, 0)`; null when it fails (MAP_FAILED or NULL). */
  mmap(size: number, prot: number, flags: number, fd: number): Mapping | null;
  /** The calling thread's errno, read right after a failed call. */
  errno(): number;
}

// Each side is imported only under its runtime: `bun:ffi` does not exist in Deno, and the
// Deno side calls the Deno global. A dynamic import is resolved only when it runs.
export const libc: Libc = RUNTIME === "bun" ? (await import("./libc-bun.ts")).openLibc() : (await import("./libc-deno.ts")).openLibc();

/**
 * POSIX shared memory (Linux): `shm_open` + `ftruncate` + `mmap` (libc.ts: Bun's or Deno's FFI),
 * so a plugin and the kernel can see the same bytes without copying them through a pipe, whichever
 * runtime each runs under: the segment is plain memory with one layout. Callers get a
 * `Uint8Array` over the mapping.
 *
 * A mapping's bytes are only valid until `close()`: after that, the memory is unmapped and
 * any view kept from `bytes` must not be touched (the view cannot be detached from here).
 */
import { readdirSync } from "node:fs";
import { HomedError } from "../errors/index.ts";
import { libc, type Mapping } from "./libc.ts";

const O_RDWR = 0o2;
const O_CREAT = 0o100;
const O_EXCL = 0o200;
const PROT_READ_WRITE = 0x1 | 0x2;
const MAP_SHARED = 0x1;
/** mmap's granularity on Linux x86-64 and arm64 (4 KiB pages): only whole pages can be freed. */
const PAGE = 4096;
const ERRNO_NAMES: Record<number, string> = { 2: "ENOENT", 12: "ENOMEM", 13: "EACCES", 17: "EEXIST", 22: "EINVAL", 24: "EMFILE", 28: "ENOSPC" };

/** `errno` is the C library's reason (ENOENT, EINVAL...), or ECLOSED for a closed segment. */
export class SharedMemoryError extends HomedError {
  constructor(
    readonly errno: string,
    message: string,
  ) {
    super("shared_memory", message);
    this.name = "SharedMemoryError";
  }
}

export interface SharedSegment {
  /** The POSIX name, e.g. "/homed-1234-files-1". */
  readonly name: string;
  readonly size: number;
  /** The mapped bytes; valid until `close()`. */
  readonly bytes: Uint8Array;
  /**
   * Gives the whole pages inside `[offset, offset + length)` back to the system: written pages of
   * a segment stay in /dev/shm until then, so one 256 MiB transfer would hold 256 MiB for the
   * plugin's lifetime. The range reads as zeros afterwards. Returns the bytes freed.
   */
  discard(offset: number, length: number): number;
  /** Unmaps the segment in this process (the name stays until `unlink`). */
  close(): void;
}

/** Creates a new segment (fails if the name exists) of `size` bytes, zero-filled, mode 0600. */
export function createSegment(name: string, size: number): SharedSegment {
  return map(name, size, O_RDWR | O_CREAT | O_EXCL, "create");
}

/** Maps an existing segment created by another process. */
export function openSegment(name: string, size: number): SharedSegment {
  return map(name, size, O_RDWR, "open");
}

/** Removes the name; the memory goes once every process has unmapped it. Missing is fine. */
export function unlinkSegment(name: string): void {
  if (libc.shmUnlink(checkName(name)) !== 0) {
    const code = errno();
    if (code !== "ENOENT") throw new SharedMemoryError(code, `Cannot unlink shared memory ${name}: ${code}`);
  }
}

/** Names of existing segments that start with `prefix` (from /dev/shm, where Linux keeps them). */
export function listSegments(prefix: string): string[] {
  return readdirSync("/dev/shm")
    .filter((entry) => entry.startsWith(prefix.replace(/^\//, "")))
    .map((entry) => `/${entry}`);
}

function map(name: string, size: number, flags: number, verb: string): SharedSegment {
  if (!Number.isSafeInteger(size) || size <= 0) throw new SharedMemoryError("EINVAL", `Cannot ${verb} shared memory ${name}: size ${size} is not a positive integer`);
  const fd = libc.shmOpen(checkName(name), flags, 0o600);
  if (fd < 0) throw new SharedMemoryError(errno(), `Cannot ${verb} shared memory ${name}: ${errno()}`);
  try {
    if (flags & O_CREAT && libc.ftruncate(fd, size) !== 0) {
      const code = errno();
      libc.shmUnlink(name);
      throw new SharedMemoryError(code, `Cannot size shared memory ${name} to ${size} bytes: ${code}`);
    }
    const mapped = libc.mmap(size, PROT_READ_WRITE, MAP_SHARED, fd);
    if (!mapped) throw new SharedMemoryError(errno(), `Cannot map shared memory ${name}: ${errno()}`);
    return segment(name, size, mapped);
  } finally {
    // The mapping keeps the memory; the descriptor is no longer needed.
    libc.close(fd);
  }
}

function segment(name: string, size: number, mapped: Mapping): SharedSegment {
  let bytes: Uint8Array | undefined = mapped.bytes;
  return {
    name,
    size,
    get bytes() {
      if (!bytes) throw new SharedMemoryError("ECLOSED", `Cannot use shared memory ${name}: it was closed`);
      return bytes;
    },
    discard(offset, length) {
      const start = Math.ceil(offset / PAGE) * PAGE;
      const end = Math.min(size, Math.floor((offset + length) / PAGE) * PAGE);
      if (!bytes || end <= start) return 0;
      if (mapped.removePages(start, end - start) !== 0) throw new SharedMemoryError(errno(), `Cannot free shared memory ${name} at ${start}: ${errno()}`);
      return end - start;
    },
    close() {
      if (!bytes) return;
      bytes = undefined;
      mapped.unmap();
    },
  };
}

function checkName(name: string): string {
  // POSIX: one leading slash, no other slash; Linux caps names at NAME_MAX (255).
  if (!/^\/[A-Za-z0-9._-]{1,200}$/.test(name)) throw new SharedMemoryError("EINVAL", `Cannot use shared memory name ${JSON.stringify(name)}: use "/" then letters, digits, . _ -`);
  return name;
}

function errno(): string {
  const code = libc.errno();
  return ERRNO_NAMES[code] ?? `errno ${code}`;
}

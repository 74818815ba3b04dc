/**
 * POSIX shared memory (Linux) through Bun's FFI: `shm_open` + `ftruncate` + `mmap`, so a plugin
 * and the kernel can see the same bytes without copying them through a pipe. Everything that
 * touches libc sits in this file; callers get a `Uint8Array` over the mapping.
 *
 * A mapping's bytes are only valid until `close()`: after that, the memory is unmapped and
 * any view kept from `bytes` must not be touched (the view cannot be detached from here).
 */
import { dlopen, FFIType, read, toArrayBuffer, type Pointer } from "bun:ffi";
import { readdirSync } from "node:fs";
import { HomedError } from "../errors/index.ts";

const O_RDWR = 0o2;
const O_CREAT = 0o100;
const O_EXCL = 0o200;
const PROT_READ_WRITE = 0x1 | 0x2;
const MAP_SHARED = 0x1;
const MAP_FAILED = 2 ** 64 - 1;
const ERRNO_NAMES: Record<number, string> = { 2: "ENOENT", 12: "ENOMEM", 13: "EACCES", 17: "EEXIST", 22: "EINVAL", 24: "EMFILE", 28: "ENOSPC" };

let libc: ReturnType<typeof openLibc> | undefined;
function openLibc() {
  return dlopen("libc.so.6", {
    shm_open: { args: [FFIType.cstring, FFIType.i32, FFIType.u32], returns: FFIType.i32 },
    shm_unlink: { args: [FFIType.cstring], returns: FFIType.i32 },
    ftruncate: { args: [FFIType.i32, FFIType.i64], returns: FFIType.i32 },
    mmap: { args: [FFIType.ptr, FFIType.u64, FFIType.i32, FFIType.i32, FFIType.i32, FFIType.i64], returns: FFIType.ptr },
    munmap: { args: [FFIType.ptr, FFIType.u64], returns: FFIType.i32 },
    close: { args: [FFIType.i32], returns: FFIType.i32 },
    __errno_location: { args: [], returns: FFIType.ptr },
  }).symbols;
}
const c = () => (libc ??= openLibc());

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
  if (c().shm_unlink(cString(checkName(name))) !== 0) {
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
  const lib = c();
  const fd = lib.shm_open(cString(checkName(name)), flags, 0o600);
  if (fd < 0) throw new SharedMemoryError(errno(), `Cannot ${verb} shared memory ${name}: ${errno()}`);
  try {
    if (flags & O_CREAT && lib.ftruncate(fd, size) !== 0) {
      const code = errno();
      lib.shm_unlink(cString(name));
      throw new SharedMemoryError(code, `Cannot size shared memory ${name} to ${size} bytes: ${code}`);
    }
    const address = lib.mmap(null, size, PROT_READ_WRITE, MAP_SHARED, fd, 0);
    if (address === null || Number(address) === MAP_FAILED) throw new SharedMemoryError(errno(), `Cannot map shared memory ${name}: ${errno()}`);
    return mapping(name, size, address as Pointer);
  } finally {
    // The mapping keeps the memory; the descriptor is no longer needed.
    lib.close(fd);
  }
}

function mapping(name: string, size: number, address: Pointer): SharedSegment {
  let bytes: Uint8Array | undefined = new Uint8Array(toArrayBuffer(address, 0, size));
  return {
    name,
    size,
    get bytes() {
      if (!bytes) throw new SharedMemoryError("ECLOSED", `Cannot use shared memory ${name}: it was closed`);
      return bytes;
    },
    close() {
      if (!bytes) return;
      bytes = undefined;
      c().munmap(address, size);
    },
  };
}

function checkName(name: string): string {
  // POSIX: one leading slash, no other slash; Linux caps names at NAME_MAX (255).
  if (!/^\/[A-Za-z0-9._-]{1,200}$/.test(name)) throw new SharedMemoryError("EINVAL", `Cannot use shared memory name ${JSON.stringify(name)}: use "/" then letters, digits, . _ -`);
  return name;
}

const cString = (text: string) => Buffer.from(`${text}\0`, "utf8");

function errno(): string {
  const location = c().__errno_location();
  const code = location === null ? -1 : read.i32(location, 0);
  return ERRNO_NAMES[code] ?? `errno ${code}`;
}

/** libc through Bun's FFI (see libc.ts). The library is opened on first use. */
import { dlopen, FFIType, read, toArrayBuffer, type Pointer } from "bun:ffi";
import { cString } from "./c-string.ts";
import type { Libc } from "./libc.ts";

/** madvise's advice that frees a shared (tmpfs) range (a value import of libc.ts would be a cycle: it awaits this file). */
const MADV_REMOVE = 9;

const MAP_FAILED = 2 ** 64 - 1;

function load() {
  return dlopen("libc.so.6", {
    open: { args: [FFIType.cstring, FFIType.i32, FFIType.u32], returns: FFIType.i32 },
    flock: { args: [FFIType.i32, FFIType.i32], returns: FFIType.i32 },
    close: { args: [FFIType.i32], returns: FFIType.i32 },
    shm_open: { args: [FFIType.cstring, FFIType.i32, FFIType.u32], returns: FFIType.i32 },
    shm_unlink: { args: [FFIType.cstring], returns: FFIType.i32 },
    ftruncate: { args: [FFIType.i32, FFIType.i64], returns: FFIType.i32 },
    mmap: { args: [FFIType.ptr, FFIType.u64, FFIType.i32, FFIType.i32, FFIType.i32, FFIType.i64], returns: FFIType.ptr },
    munmap: { args: [FFIType.ptr, FFIType.u64], returns: FFIType.i32 },
    madvise: { args: [FFIType.ptr, FFIType.u64, FFIType.i32], returns: FFIType.i32 },
    __errno_location: { args: [], returns: FFIType.ptr },
  }).symbols;
}

export function openLibc(): Libc {
  let symbols: ReturnType<typeof load> | undefined;
  const c = () => (symbols ??= load());
  return {
    open: (path, flags, mode) => c().open(cString(path), flags, mode),
    flock: (fd, operation) => c().flock(fd, operation),
    close: (fd) => c().close(fd),
    shmOpen: (name, flags, mode) => c().shm_open(cString(name), flags, mode),
    shmUnlink: (name) => c().shm_unlink(cString(name)),
    ftruncate: (fd, size) => c().ftruncate(fd, size),
    mmap(size, prot, flags, fd) {
      const address = c().mmap(null, size, prot, flags, fd, 0);
      if (address === null || Number(address) === MAP_FAILED) return null;
      return {
        bytes: new Uint8Array(toArrayBuffer(address as Pointer, 0, size)),
        unmap: () => c().munmap(address, size),
        removePages: (start, length) => c().madvise((Number(address) + start) as Pointer, length, MADV_REMOVE),
      };
    },
    errno() {
      const location = c().__errno_location();
      return location === null ? -1 : read.i32(location, 0);
    },
  };
}

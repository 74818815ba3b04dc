/** libc through Deno's FFI, `Deno.dlopen` (see libc.ts). The library is opened on first use. */
import { deno, type DenoPointer } from "./deno-api.ts";
import { cString } from "./c-string.ts";
import type { Libc } from "./libc.ts";

/** madvise's advice that frees a shared (tmpfs) range (a value import of libc.ts would be a cycle: it awaits this file). */
const MADV_REMOVE = 9;

const MAP_FAILED = 2n ** 64n - 1n;

function load() {
  return deno().dlopen("libc.so.6", {
    open: { parameters: ["buffer", "i32", "u32"], result: "i32" },
    flock: { parameters: ["i32", "i32"], result: "i32" },
    close: { parameters: ["i32"], result: "i32" },
    shm_open: { parameters: ["buffer", "i32", "u32"], result: "i32" },
    shm_unlink: { parameters: ["buffer"], result: "i32" },
    ftruncate: { parameters: ["i32", "i64"], result: "i32" },
    mmap: { parameters: ["pointer", "usize", "i32", "i32", "i32", "i64"], result: "pointer" },
    munmap: { parameters: ["pointer", "usize"], result: "i32" },
    madvise: { parameters: ["pointer", "usize", "i32"], result: "i32" },
    __errno_location: { parameters: [], result: "pointer" },
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
    ftruncate: (fd, size) => c().ftruncate(fd, BigInt(size)),
    mmap(size, prot, flags, fd) {
      const address = c().mmap(null, BigInt(size), prot, flags, fd, 0n) as DenoPointer;
      if (address === null || BigInt(deno().UnsafePointer.value(address)) === MAP_FAILED) return null;
      return {
        bytes: new Uint8Array(deno().UnsafePointerView.getArrayBuffer(address, size)),
        unmap: () => c().munmap(address, BigInt(size)),
        removePages: (start, length) => c().madvise(deno().UnsafePointer.create(BigInt(deno().UnsafePointer.value(address)) + BigInt(start)), BigInt(length), MADV_REMOVE),
      };
    },
    errno() {
      const location = c().__errno_location() as DenoPointer;
      return location === null ? -1 : new (deno().UnsafePointerView)(location).getInt32(0);
    },
  };
}

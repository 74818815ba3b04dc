/**
 * Advisory file locks (Linux `flock`) through Bun's FFI. A lock belongs to the open file, so the
 * kernel drops it when the process ends in any way — `kill -9` included — and no stale lock is
 * ever left behind. The file is opened with O_CLOEXEC, so child processes (plugins) never
 * inherit it and cannot keep a lock alive after homed is gone.
 */
import { dlopen, FFIType, read } from "bun:ffi";
import { HomedError } from "../errors/index.ts";

const O_RDWR = 0o2;
const O_CREAT = 0o100;
const O_CLOEXEC = 0o2000000;
const LOCK_SH = 1;
const LOCK_EX = 2;
const LOCK_NB = 4;
const LOCK_UN = 8;
const EINTR = 4;
const EWOULDBLOCK = 11;

let libc: ReturnType<typeof openLibc> | undefined;
function openLibc() {
  return dlopen("libc.so.6", {
    open: { args: [FFIType.cstring, FFIType.i32, FFIType.u32], returns: FFIType.i32 },
    flock: { args: [FFIType.i32, FFIType.i32], returns: FFIType.i32 },
    close: { args: [FFIType.i32], returns: FFIType.i32 },
    __errno_location: { args: [], returns: FFIType.ptr },
  }).symbols;
}
const c = () => (libc ??= openLibc());

export class FileLockError extends HomedError {
  constructor(message: string) {
    super("file_lock", message);
    this.name = "FileLockError";
  }
}

export interface LockFile {
  readonly path: string;
  /** Takes the lock without waiting: false when another open file holds a conflicting one. */
  tryLock(mode: "exclusive" | "shared"): boolean;
  unlock(): void;
  /** Closes the file, which also drops its lock. */
  close(): void;
}

/** Opens (creating it, mode 0600) a file to lock. */
export function openLockFile(path: string): LockFile {
  const fd = c().open(Buffer.from(`${path}\0`, "utf8"), O_RDWR | O_CREAT | O_CLOEXEC, 0o600);
  if (fd < 0) throw new FileLockError(`Cannot open lock file ${path}: errno ${errno()}`);
  let open = true;
  const flock = (operation: number, what: string): boolean => {
    if (!open) throw new FileLockError(`Cannot ${what} ${path}: the lock file is closed`);
    for (;;) {
      if (c().flock(fd, operation) === 0) return true;
      const code = errno();
      if (code === EINTR) continue;
      if (code === EWOULDBLOCK && operation & LOCK_NB) return false;
      throw new FileLockError(`Cannot ${what} ${path}: errno ${code}`);
    }
  };
  return {
    path,
    tryLock: (mode) => flock((mode === "exclusive" ? LOCK_EX : LOCK_SH) | LOCK_NB, "lock"),
    unlock: () => void flock(LOCK_UN, "unlock"),
    close() {
      if (!open) return;
      open = false;
      c().close(fd);
    },
  };
}

function errno(): number {
  const location = c().__errno_location();
  return location === null ? -1 : read.i32(location, 0);
}

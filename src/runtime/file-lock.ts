/**
 * Advisory file locks (Linux `flock`) through the runtime's FFI (libc.ts). A lock belongs to the open file, so the
 * kernel drops it when the process ends in any way — `kill -9` included — and no stale lock is
 * ever left behind. The file is opened with O_CLOEXEC, so child processes (plugins) never
 * inherit it and cannot keep a lock alive after homed is gone.
 */
import { HomedError } from "../errors/index.ts";
import { libc } from "./libc.ts";

const O_RDWR = 0o2;
const O_CREAT = 0o100;
const O_CLOEXEC = 0o2000000;
const LOCK_SH = 1;
const LOCK_EX = 2;
const LOCK_NB = 4;
const LOCK_UN = 8;
const EINTR = 4;
const EWOULDBLOCK = 11;

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
  const fd = libc.open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600);
  if (fd < 0) throw new FileLockError(`Cannot open lock file ${path}: errno ${libc.errno()}`);
  let open = true;
  const flock = (operation: number, what: string): boolean => {
    if (!open) throw new FileLockError(`Cannot ${what} ${path}: the lock file is closed`);
    for (;;) {
      if (libc.flock(fd, operation) === 0) return true;
      const code = libc.errno();
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
      libc.close(fd);
    },
  };
}

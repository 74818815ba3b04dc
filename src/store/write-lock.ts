/**
 * The cross-process half of the write path: a lock file beside an embedded database
 * (`homed.db-write.lock`), held by a homed process for each write it makes, so that two homed
 * processes (a daemon and a `homed import`) never meet inside SQLite.
 *
 * Why not let SQLite's busy timeout arbitrate: with this libSQL, a statement that comes back
 * SQLITE_BUSY is never reset, so its connection stays in the pool with a statement in progress —
 * every later COMMIT on it fails ("cannot commit transaction - SQL statements in progress") and
 * its reads see an old snapshot. Waiting here instead, SQLite is only asked once the lock is ours.
 *
 * The wait polls (`flock` with LOCK_NB) between short sleeps, so it never blocks the event loop.
 */
import { openLockFile, type LockFile } from "../runtime/index.ts";
import { HomedError } from "../errors/index.ts";

export interface WriteLock {
  /** Resolves once this process holds the lock; `onWait` is called if it has to wait first. */
  acquire(onWait: () => void): Promise<void>;
  release(): void;
  close(): void;
}

/** A write gave up waiting for another process (see `maxWaitMs`). */
export class WriteWaitError extends HomedError {
  constructor(held: string, waitedMs: number, options?: ErrorOptions) {
    super("write_wait", `Cannot write: another process has held ${held} for ${Math.round(waitedMs / 1000)} s`, options);
    this.name = "WriteWaitError";
  }
}

const MAX_POLL_MS = 20;

/** The database file of an embedded `file:` URL, or undefined (in memory, or a server). */
export function databasePath(url: string): string | undefined {
  if (!url.startsWith("file:")) return undefined;
  let path = url.slice("file:".length).split("?")[0]!;
  if (path.startsWith("//")) path = path.slice(2).replace(/^[^/]*/, "");
  path = decodeURIComponent(path);
  return path === "" || path === ":memory:" ? undefined : path;
}

export function openWriteLock(databaseFile: string, maxWaitMs: number): WriteLock {
  const file: LockFile = openLockFile(`${databaseFile}-write.lock`);
  return {
    async acquire(onWait) {
      if (file.tryLock("exclusive")) return;
      onWait();
      const started = performance.now();
      for (let pause = 1; !file.tryLock("exclusive"); pause = Math.min(pause * 2, MAX_POLL_MS)) {
        if (performance.now() - started > maxWaitMs) throw new WriteWaitError(file.path, performance.now() - started);
        await new Promise((resolve) => setTimeout(resolve, pause));
      }
    },
    release: () => file.unlock(),
    close: () => file.close(),
  };
}

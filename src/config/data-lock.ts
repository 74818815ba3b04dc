/**
 * One daemon per data folder. The daemon holds an exclusive lock on `<data>/homed.lock` for as
 * long as it runs (and writes its pid into the file for the messages below); the kernel drops
 * the lock when the process ends, `kill -9` included, so a new daemon can always start after
 * one died. Two daemons on one folder would run two cooling jobs and two plugin sets on one
 * database.
 *
 * Other commands do not take the lock: reading beside the daemon is safe, and commands that
 * write take turns with it through the store's write path. They only look, to say so.
 */
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { openLockFile } from "../runtime/index.ts";
import { DataDirError } from "./data-dir.ts";

export const LOCK_FILE = "homed.lock";

/** A command that looks holds a shared lock for an instant; a starting daemon waits that out. */
const START_ATTEMPTS = 10;
const START_PAUSE_MS = 20;

export type DataFolderLock = { release(): void };

function pidIn(path: string): number | undefined {
  const pid = Number.parseInt(readFileSync(path, "utf8"), 10);
  return Number.isSafeInteger(pid) && pid > 0 ? pid : undefined;
}

const holder = (pid: number | undefined) => `homed (pid ${pid ?? "unknown"})`;

/** Takes the folder for this daemon, or fails with "Cannot use data folder D: homed (pid N) is serving it". */
export async function lockDataFolder(dir: string): Promise<DataFolderLock> {
  const path = join(dir, LOCK_FILE);
  const file = openLockFile(path);
  for (let attempt = 1; !file.tryLock("exclusive"); attempt++) {
    if (attempt === START_ATTEMPTS) {
      file.close();
      throw new DataDirError(dir, `${holder(pidIn(path))} is serving it`);
    }
    await new Promise((resolve) => setTimeout(resolve, START_PAUSE_MS));
  }
  // Rewritten through another descriptor: the lock belongs to `file`, which stays open.
  writeFileSync(path, `${process.pid}\n`, { mode: 0o600 });
  return { release: () => file.close() };
}

/** The pid of the daemon serving the folder (0 if it cannot be read), or undefined when none is. */
export function servingDaemon(dir: string): number | undefined {
  const path = join(dir, LOCK_FILE);
  if (!existsSync(path)) return undefined;
  const file = openLockFile(path);
  try {
    if (file.tryLock("shared")) return undefined;
    return pidIn(path) ?? 0;
  } finally {
    file.close();
  }
}

/** For a command that writes: one stderr line when a daemon serves the folder. */
export function announceServingDaemon(dir: string, stderr: (text: string) => void): void {
  const pid = servingDaemon(dir);
  if (pid === undefined) return;
  stderr(`homed: ${holder(pid || undefined)} is serving ${dir}; this command's writes take turns with it\n`);
}

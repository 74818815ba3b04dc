/**
 * Tightens a data folder made before homed kept its files private (or loosened by hand): the
 * folder becomes owner-only, and so do homed's own files and folders in it, each keeping its
 * owner's bits (a plugin's executable stays executable). Only the names homed uses are touched:
 * a data folder pointed at a shared place must not have the rest of it changed. Symbolic links
 * are left alone, never followed.
 */
import { chmodSync, lstatSync, readdirSync, statSync } from "node:fs";
import { join } from "node:path";

/** homed's entries in a data folder; the folders' contents are homed's too (logs, notes, models, plugins). */
const OWN_FILES = ["homed.db", "homed.db-wal", "homed.db-shm", "homed.db-journal", "admin.token", "secrets.key", "homed.lock", "homed.json"];
const OWN_TREES = ["logs", "notes", "models", "plugins"];
/** The files plugin's default folder holds the user's own files: the folder is closed, its contents left as they are. */
const OWN_FOLDERS = ["files"];

/** One path whose mode was narrowed, and the mode it had. */
export type Tightened = { path: string; was: number };

/** Narrows modes open to group or others; `extraFiles`: homed's files kept elsewhere (a `-db` outside the folder). */
export function tightenDataDir(dir: string, extraFiles: readonly string[] = []): Tightened[] {
  const tightened: Tightened[] = [];
  const narrow = (path: string, mode: number) => {
    if ((mode & 0o077) === 0) return;
    chmodSync(path, mode & 0o700);
    tightened.push({ path, was: mode & 0o777 });
  };
  const visit = (path: string, recurse: boolean) => {
    let stats: ReturnType<typeof lstatSync>;
    try {
      stats = lstatSync(path);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ENOENT") return;
      throw error;
    }
    if (stats.isSymbolicLink()) return;
    narrow(path, stats.mode);
    if (recurse && stats.isDirectory()) for (const name of readdirSync(path)) visit(join(path, name), true);
  };
  narrow(dir, statSync(dir).mode);
  for (const name of OWN_FILES) visit(join(dir, name), false);
  for (const name of OWN_FOLDERS) visit(join(dir, name), false);
  for (const name of OWN_TREES) visit(join(dir, name), true);
  for (const path of extraFiles) visit(path, false);
  return tightened;
}

/** The log line for a tightening: what was open, now owner-only. */
export function describeTightening(dir: string, tightened: readonly Tightened[]): string {
  const label = (path: string) => (path.startsWith(`${dir}/`) ? path.slice(dir.length + 1) : path);
  const shown = tightened.slice(0, 5).map((t) => `${label(t.path)} was ${t.was.toString(8)}`);
  const more = tightened.length > shown.length ? `, and ${tightened.length - shown.length} more` : "";
  return `data folder ${dir} was open to other users: made ${tightened.length} entries owner-only (${shown.join(", ")}${more})`;
}

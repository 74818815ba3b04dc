/** The data folder: created if missing, and proven writable before anything else starts. */
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { HomedError } from "../errors/index.ts";

export class DataDirError extends HomedError {
  constructor(dir: string, reason: string, options?: ErrorOptions) {
    super("data_dir", `Cannot use data folder ${dir}: ${reason}`, options);
    this.name = "DataDirError";
  }
}

const REASONS: Record<string, string> = {
  EACCES: "permission denied",
  EPERM: "operation not permitted",
  ENOTDIR: "a part of the path is a file, not a folder",
  EROFS: "the file system is read-only",
  ENOSPC: "no space left on the device",
  EEXIST: "a file with that name exists",
};

/** Creates the folder (and its parents) and writes/removes a probe file in it. */
export function ensureWritableDir(dir: string): void {
  const probe = join(dir, `.write-probe-${process.pid}`);
  try {
    mkdirSync(dir, { recursive: true });
    writeFileSync(probe, "ok");
    rmSync(probe);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? "";
    throw new DataDirError(dir, REASONS[code] ?? (error as Error).message, { cause: error });
  }
}

/** A size-capped file's rotation, shared by the daemon log and the audit file. */
import { renameSync, rmSync } from "node:fs";

/** `part(N)` → `part(N+1)` (the last one, `part(keep)`, removed), then `current` → `part(1)`: a file's rotation. */
export function shiftRotated(current: string, part: (n: number) => string, keep: number): void {
  rmSync(part(keep), { force: true });
  for (let n = keep - 1; n >= 1; n--) renameIfThere(part(n), part(n + 1));
  if (keep > 0) renameSync(current, part(1));
  else rmSync(current, { force: true });
}

function renameIfThere(from: string, to: string): void {
  try {
    renameSync(from, to);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
  }
}

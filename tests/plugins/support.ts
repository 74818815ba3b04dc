/** Helpers for plugin tests. */
import { readFileSync } from "node:fs";
import { join } from "node:path";

export const FIXTURES = join(import.meta.dirname, "fixtures");

/** True while `pid` is a live process; a zombie (killed, not yet reaped) counts as gone. */
export function isRunning(pid: number): boolean {
  let stat: string;
  try {
    stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  } catch {
    return false;
  }
  return !/^\d+ \(.*\) Z /.test(stat);
}

/** Waits (yielding to the event loop, never sleeping) until `pid` is gone or `tries` runs out. */
export async function gone(pid: number, tries = 1000): Promise<boolean> {
  for (let i = 0; i < tries && isRunning(pid); i++) await new Promise((r) => setImmediate(r));
  return !isRunning(pid);
}

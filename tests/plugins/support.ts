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

/**
 * Waits until `pid` is gone, checking every few milliseconds up to `withinMs`: a killed
 * process disappears only once its parent (or init) reaps it, which takes a moment.
 */
export async function gone(pid: number, withinMs = 5000): Promise<boolean> {
  const until = Date.now() + withinMs;
  while (isRunning(pid) && Date.now() < until) await new Promise((r) => setTimeout(r, 5));
  return !isRunning(pid);
}

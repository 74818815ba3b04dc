/**
 * The process's soft limit on open files (RLIMIT_NOFILE), which bounds how many connections the
 * daemon can hold. Linux tells it in /proc/self/limits; elsewhere (or if unreadable) the common
 * default of 1024 is assumed, the safe side.
 */
import { readFileSync } from "node:fs";

export const ASSUMED_OPEN_FILES_LIMIT = 1024;

export function openFilesLimit(): number {
  try {
    const line = readFileSync("/proc/self/limits", "utf8")
      .split("\n")
      .find((l) => l.startsWith("Max open files"));
    const soft = line?.slice("Max open files".length).trim().split(/\s+/)[0];
    if (soft === "unlimited") return Number.MAX_SAFE_INTEGER;
    const value = Number(soft);
    return Number.isInteger(value) && value > 0 ? value : ASSUMED_OPEN_FILES_LIMIT;
  } catch {
    return ASSUMED_OPEN_FILES_LIMIT;
  }
}

/**
 * Linux's process table as homed reads it (/proc): a process's parent, start time, CPU time and
 * resident memory, its children, and the processes whose environment carries a marker. The
 * plugin host uses it to hold a plugin's whole process tree to its limits and to end all of it
 * (src/plugins/process-tree-guard.ts). Plain file reads, the same under Bun and Deno; on a system
 * without /proc every answer is empty, and the guard then does nothing but the group kill.
 */
import { readdirSync, readFileSync } from "node:fs";

/**
 * Clock ticks a second of /proc's CPU times (USER_HZ): 100 on every Linux architecture homed runs
 * on (the kernel fixes it for user space; `getconf CLK_TCK` says so).
 */
export const CLOCK_TICKS_PER_SECOND = 100;

export type ProcessSample = {
  pid: number;
  ppid: number;
  /** When it started, in clock ticks after boot: with the pid, it names one process even after the pid is reused. */
  startTicks: number;
  /** User plus system CPU time so far, in clock ticks. */
  cpuTicks: number;
  /** Resident memory (VmRSS), in bytes; 0 for a zombie. */
  rssBytes: number;
};

/** One process as /proc/<pid>/stat and /proc/<pid>/status show it now; null once it is gone. */
export function sampleProcess(pid: number): ProcessSample | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    // The command name (field 2) is in parentheses and may hold spaces or ")": fields after it
    // are counted from its last ")".
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    // fields[0] is field 3 (state): field n is fields[n - 3].
    // A zombie's status has no VmRSS line: it holds no memory.
    const rss = /^VmRSS:\s+(\d+) kB$/m.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
    return {
      pid,
      ppid: Number(fields[1]),
      startTicks: Number(fields[19]),
      cpuTicks: Number(fields[11]) + Number(fields[12]),
      rssBytes: rss ? Number(rss[1]) * 1024 : 0,
    };
  } catch {
    return null; // gone (or never there)
  }
}

/** The pids `pid` started and has not lost: every thread's children (a child belongs to the thread that forked it). */
export function childrenOf(pid: number): number[] {
  const children: number[] = [];
  let tasks: string[];
  try {
    tasks = readdirSync(`/proc/${pid}/task`);
  } catch {
    return children;
  }
  for (const task of tasks) {
    try {
      for (const child of readFileSync(`/proc/${pid}/task/${task}/children`, "utf8").split(" ")) if (child) children.push(Number(child));
    } catch {
      // the thread ended while we looked
    }
  }
  return children;
}

/**
 * The value of the variable `name` in each live process's environment (as it was started) that
 * has it, by pid: how the descendants that left a tree are found (a `setsid` child whose parent
 * exited is adopted by init) — they keep the environment they inherited. Only this user's
 * processes can be read; others are skipped.
 */
export function environmentValues(name: string): Map<number, string> {
  const found = new Map<number, string>();
  const prefix = `${name}=`;
  let pids: string[];
  try {
    pids = readdirSync("/proc");
  } catch {
    return found;
  }
  for (const pid of pids) {
    if (!/^\d+$/.test(pid)) continue;
    try {
      const entry = readFileSync(`/proc/${pid}/environ`, "utf8")
        .split("\0")
        .find((e) => e.startsWith(prefix));
      if (entry !== undefined) found.set(Number(pid), entry.slice(prefix.length));
    } catch {
      // another user's process, or one that ended while we looked
    }
  }
  return found;
}

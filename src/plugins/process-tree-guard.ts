/**
 * Holds one plugin's whole process tree — the plugin and everything it started, including
 * children that left its process group with `setsid` — to its limits, and ends all of it.
 *
 * How it measures, and why so:
 * - Memory is resident memory (VmRSS) summed over the tree, sampled every second, not an
 *   address-space rlimit (`prlimit --as`): Bun, Node and Deno reserve gigabytes of virtual space
 *   they never touch (node will not start under 1 GiB, bun under 2 GiB), so RLIMIT_AS would kill
 *   healthy plugins or have to be set so high it holds nothing. cgroups v2 would be exact, but a
 *   user's homed can rarely write to /sys/fs/cgroup (this machine mounts v1, root-owned). The
 *   price of sampling: a plugin can overshoot for up to a second before it is killed.
 * - CPU is user + system time summed over the tree within any minute, not RLIMIT_CPU: that one
 *   counts each process alone (a plugin escapes it by forking) and over its whole life (a plugin
 *   that ran fine for a week would be killed for it). A loop that never ends goes over; bursts of
 *   work do not.
 * - The tree is the live descendants of the plugin (/proc/<pid>/task/<tid>/children) plus every
 *   process seen in it before, as long as it lives (a `setsid` grandchild whose parent exited is
 *   adopted by init and is no one's descendant any more), plus, when it all ends, every process
 *   whose environment still carries this plugin's marker (`HOMED_PLUGIN_TREE`), which catches
 *   those that left between two samples. Making homed a child subreaper would keep orphans under
 *   homed instead, but Bun and Deno reap only the children they started, so every adopted orphan
 *   would stay a zombie in homed's process table.
 */
import { randomUUID } from "node:crypto";
import { childrenOf, CLOCK_TICKS_PER_SECOND, environmentValues, sampleProcess, type ProcessSample } from "../runtime/index.ts";
import type { PluginLimits } from "./spec.ts";

/**
 * The variable every process of a plugin's tree inherits, its value unique to that start:
 * `<homed's pid>-<its start time>.<plugin>.<uuid>`, so the processes of a homed that is gone
 * (killed with -9) are known as such by the next one (sweepOrphanedTrees).
 */
export const TREE_MARKER_ENV = "HOMED_PLUGIN_TREE";
/** This process as a marker's owner: its pid and start time (a pid alone may be reused). */
const OWNER = `${process.pid}-${sampleProcess(process.pid)?.startTicks ?? 0}`;
export const SAMPLE_INTERVAL_MS = 1000;
const CPU_WINDOW_MS = 60_000;
const MIB = 1024 * 1024;

type Known = { startTicks: number; cpuTicks: number };

export class ProcessTreeGuard {
  /** The marker's value: put it in the plugin's environment (TREE_MARKER_ENV) before it starts. */
  static newMarker(plugin: string): string {
    return `${OWNER}.${plugin}.${randomUUID()}`;
  }

  private readonly known = new Map<number, Known>();
  private cpuTicks = 0;
  /** CPU used so far at each sample of the last minute (and the one before it: the window's start). */
  private history: { at: number; cpuTicks: number }[] = [];
  private timer: ReturnType<typeof setInterval> | undefined;
  private tripped = false;
  /** The plugin's start time: once it has exited, its pid may name another process, which is no part of this tree. */
  private readonly rootStartTicks: number | undefined;

  constructor(
    private readonly rootPid: number,
    readonly marker: string,
    private readonly limits: PluginLimits,
    /** Called once, with the reason, when the tree goes over a limit; the tree is then killed. */
    private readonly onOverLimit: (reason: string) => void,
    private readonly now: () => number = () => performance.now(),
  ) {
    this.history.push({ at: now(), cpuTicks: 0 });
    this.rootStartTicks = sampleProcess(rootPid)?.startTicks;
    this.walk();
  }

  /** Samples every `intervalMs` until disposed. */
  start(intervalMs = SAMPLE_INTERVAL_MS): void {
    this.timer = setInterval(() => this.check(), intervalMs);
    // A plugin's guard must not keep homed (or a test) alive on its own.
    (this.timer as { unref?: () => void }).unref?.();
  }

  dispose(): void {
    clearInterval(this.timer);
    this.timer = undefined;
  }

  /**
   * Sends `signal` to every process of the tree; with `everywhere`, also to every process still
   * carrying the marker (a scan of /proc: done once, when the plugin ends). Returns how many were signalled.
   */
  signal(signal: NodeJS.Signals, everywhere = false): number {
    const pids = new Set(this.walk().map((p) => p.pid));
    if (everywhere) for (const [pid, marker] of environmentValues(TREE_MARKER_ENV)) if (marker === this.marker) pids.add(pid);
    let sent = 0;
    for (const pid of pids) {
      try {
        process.kill(pid, signal);
        sent++;
      } catch {
        // ESRCH: it ended meanwhile, which is what we wanted
      }
    }
    return sent;
  }

  /**
   * Looks at the tree now, so that what it holds is remembered: called before the plugin is asked
   * to stop, while its `setsid` children are still its children (once it exits they are init's).
   */
  remember(): void {
    this.walk();
  }

  /** One sample: the tree's memory and CPU against the limits; over either, the reason is told and the tree killed. */
  check(): void {
    if (this.tripped) return;
    const tree = this.walk();
    const rssBytes = tree.reduce((sum, p) => sum + p.rssBytes, 0);
    const at = this.now();
    this.history.push({ at, cpuTicks: this.cpuTicks });
    // Keep the newest sample at least a minute old: it is where the window starts.
    while (this.history.length > 1 && this.history[1]!.at <= at - CPU_WINDOW_MS) this.history.shift();
    const start = this.history[0]!.at <= at - CPU_WINDOW_MS ? this.history[0]!.cpuTicks : 0;
    const cpuSeconds = (this.cpuTicks - start) / CLOCK_TICKS_PER_SECOND;
    const processes = `${tree.length} process${tree.length === 1 ? "" : "es"}`;
    let reason: string | undefined;
    if (rssBytes > this.limits.memoryMb * MIB) reason = `memory ${Math.round(rssBytes / MIB)} MB (resident, summed over its ${processes}) is over its limit of ${this.limits.memoryMb} MB`;
    else if (cpuSeconds > this.limits.cpuSecondsPerMinute)
      reason = `CPU ${cpuSeconds.toFixed(1)} s within a minute (summed over its ${processes}) is over its limit of ${this.limits.cpuSecondsPerMinute} s a minute`;
    if (!reason) return;
    this.tripped = true;
    this.onOverLimit(`${reason}: killed with every process it started`);
    this.signal("SIGKILL");
  }

  /**
   * The tree now: the plugin, the processes seen in it before that still live (the same process:
   * same pid and start time), and all their descendants. Adds the CPU each used since it was last seen.
   */
  private walk(): ProcessSample[] {
    const tree: ProcessSample[] = [];
    const seen = new Set<number>();
    const visit = (pid: number, remembered: Known | undefined) => {
      if (seen.has(pid)) return;
      seen.add(pid);
      const sample = sampleProcess(pid);
      // Gone, or the pid now names another process (reused): no longer part of this tree.
      if (!sample || (remembered && sample.startTicks !== remembered.startTicks)) {
        if (remembered) this.known.delete(pid);
        return;
      }
      const before = this.known.get(pid);
      const sameProcess = before && before.startTicks === sample.startTicks;
      this.cpuTicks += Math.max(0, sample.cpuTicks - (sameProcess ? before.cpuTicks : 0));
      this.known.set(pid, { startTicks: sample.startTicks, cpuTicks: sample.cpuTicks });
      tree.push(sample);
      for (const child of childrenOf(pid)) visit(child, undefined);
    };
    if (this.rootStartTicks !== undefined) visit(this.rootPid, { startTicks: this.rootStartTicks, cpuTicks: 0 });
    for (const [pid, remembered] of [...this.known]) visit(pid, remembered);
    return tree;
  }
}

/**
 * Kills the plugin processes a homed that is no longer running left behind (it was killed with
 * -9, so it could end nothing): those whose marker names an owner that is gone. Like the shared
 * segments of a crashed kernel (sweepStaleSegments), they are cleared before new plugins start.
 * Returns the pids signalled.
 */
export function sweepOrphanedTrees(): number[] {
  const killed: number[] = [];
  for (const [pid, marker] of environmentValues(TREE_MARKER_ENV)) {
    const owner = /^(\d+)-(\d+)\./.exec(marker);
    if (!owner) continue;
    const ownerPid = Number(owner[1]);
    if (sampleProcess(ownerPid)?.startTicks === Number(owner[2])) continue; // its homed still runs
    try {
      process.kill(pid, "SIGKILL");
      killed.push(pid);
    } catch {
      // it ended meanwhile
    }
  }
  return killed;
}

/**
 * Runs a command and reports its peak resident memory: `bun bench/openvocab/peak-memory.ts CMD
 * ARGS…` prints one JSON line `{ code, seconds, peakKiB, stderr }`. The peak is the child's own
 * VmHWM (/proc/<pid>/status, the high-water mark of its address space since it ran its program),
 * read every 20 ms until it exits: unlike wait4's maxrss it never counts the memory of the process
 * it was forked from. Run as a small process of its own, so nothing of a benchmark's own memory is
 * near it. A peak reached in the last 20 ms before exit is missed; an import's peak comes well before.
 */
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";

const [command, ...args] = process.argv.slice(2);
if (!command) throw new Error("usage: peak-memory.ts COMMAND [ARGS…]");

function vmHwmKiB(pid: number): number | undefined {
  try {
    const match = /^VmHWM:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
    return match ? Number(match[1]) : undefined;
  } catch {
    return undefined; // gone between two reads
  }
}

const started = performance.now();
const child = spawn(command, args, { stdio: ["ignore", "ignore", "pipe"] });
let peakKiB = 0;
const sample = () => {
  const now = child.pid === undefined ? undefined : vmHwmKiB(child.pid);
  if (now !== undefined && now > peakKiB) peakKiB = now;
};
const sampler = setInterval(sample, 20);
let stderr = "";
child.stderr.setEncoding("utf8").on("data", (chunk: string) => {
  stderr = (stderr + chunk).slice(-4000);
});
child.on("exit", (code) => {
  clearInterval(sampler);
  console.log(JSON.stringify({ code, seconds: (performance.now() - started) / 1000, peakKiB, stderr }));
});

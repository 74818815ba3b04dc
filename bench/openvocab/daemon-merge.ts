/**
 * A daemon's memory while it merges an import's segments: `bun bench/openvocab/daemon-merge.ts
 * DIR` starts `homed -data DIR` (loopback, port 0), samples its VmRSS/VmHWM every 100 ms, watches
 * the store's segments until the merging is over (nothing staged or retired left and the live
 * count still for 10 s), then stops it and prints the merge's time, the daemon's peak RSS and its
 * RSS once merged. It writes to DIR: run it on a copy of a kept store's folder.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { createClient } from "@libsql/client";

const dir = process.argv[2];
if (!dir) throw new Error("usage: daemon-merge.ts DATA_DIR");
const MAIN = fileURLToPath(new URL("../../src/main.ts", import.meta.url));
const watcher = createClient({ url: `file:${join(dir, "homed.db")}` });
const segments = async () => {
  const rows = await watcher.execute("SELECT sum(state = 'live') AS live, sum(state <> 'live') AS other FROM search_segments");
  return { live: Number(rows.rows[0]!.live), other: Number(rows.rows[0]!.other ?? 0) };
};
const status = (pid: number, field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, "m").exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1] ?? 0) / 1024;

const before = await segments();
const daemon = Bun.spawn([process.execPath, MAIN, "-data", dir, "-addr", "127.0.0.1:0"], { stdout: "ignore", stderr: "ignore" });
const started = performance.now();
let peak = 0;
const sampler = setInterval(() => {
  peak = Math.max(peak, status(daemon.pid, "VmHWM"));
}, 100);
let last = before.live;
let stillSince = performance.now();
let mergedAt = 0;
for (;;) {
  await new Promise((resolve) => setTimeout(resolve, 1_000));
  const now = await segments();
  if (now.live !== last || now.other > 0) {
    last = now.live;
    stillSince = performance.now();
    mergedAt = 0;
  } else if (mergedAt === 0) mergedAt = performance.now();
  if (now.other === 0 && performance.now() - stillSince > 10_000) break;
}
const settled = status(daemon.pid, "VmRSS");
clearInterval(sampler);
peak = Math.max(peak, status(daemon.pid, "VmHWM"));
daemon.kill("SIGTERM");
await daemon.exited;
console.log(
  `live segments ${before.live} → ${last}; merged within ${((mergedAt - started) / 1000).toFixed(0)} s of the daemon's start; ` +
    `daemon peak RSS ${peak.toFixed(0)} MiB, ${settled.toFixed(0)} MiB once merged`,
);
watcher.close();

/**
 * Start-up cost of the compiled binary: size, median time from spawn to a healthy /healthz over
 * 5 runs next to `bun -e 0` (the bare runtime) measured in the same run, and idle RSS after start.
 */
import { execFileSync, spawn } from "node:child_process";
import { readFileSync, statSync } from "node:fs";
import { createServer, type AddressInfo } from "node:net";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { scratchDir } from "../scratch.ts";

const root = fileURLToPath(new URL("../..", import.meta.url));
const RUNS = 5;

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

function timeBareRuntime(): number {
  const started = performance.now();
  execFileSync(process.execPath, ["-e", "0"]);
  return performance.now() - started;
}

async function waitHealthy(url: string): Promise<void> {
  for (;;) {
    try {
      if ((await fetch(url)).ok) return;
    } catch (error) {
      // Not listening yet: connection refused is expected until the daemon binds.
      if (!/ECONNREFUSED|Unable to connect/i.test(String((error as Error & { code?: string }).code ?? error))) throw error;
    }
    await new Promise((r) => setTimeout(r, 5));
  }
}

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer();
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

async function timeStartToHealthy(bin: string): Promise<{ ms: number; rssKiB: number }> {
  const dir = scratchDir("homed-startup-");
  const port = await freePort();
  const started = performance.now();
  const child = spawn(bin, ["-data", join(dir, "data"), "-addr", `127.0.0.1:${port}`], { stdio: "ignore" });
  await waitHealthy(`http://127.0.0.1:${port}/healthz`);
  const ms = performance.now() - started;
  await new Promise((r) => setTimeout(r, 1000));
  const status = readFileSync(`/proc/${child.pid}/status`, "utf8");
  const rssKiB = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1]);
  const exited = new Promise((r) => child.on("exit", r));
  child.kill("SIGTERM");
  await exited;
  return { ms, rssKiB };
}

const bin = join(scratchDir("homed-bench-"), "homed");
execFileSync(process.execPath, [join(root, "scripts/build.ts"), bin], { stdio: "ignore" });
console.log(`binary size: ${(statSync(bin).size / 1e6).toFixed(1)} MB`);

const homed: number[] = [];
const bare: number[] = [];
const rss: number[] = [];
for (let i = 0; i < RUNS; i++) {
  bare.push(timeBareRuntime());
  const r = await timeStartToHealthy(bin);
  homed.push(r.ms);
  rss.push(r.rssKiB);
}
const h = median(homed);
const b = median(bare);
console.log(`start → healthy /healthz, median of ${RUNS}: ${h.toFixed(0)} ms (fresh data folder, migrations applied)`);
console.log(`bun -e 0, median of ${RUNS}:                ${b.toFixed(0)} ms`);
console.log(`ratio homed / bare runtime:                 ${(h / b).toFixed(1)}x`);
console.log(`idle RSS 1 s after start, median:           ${(median(rss) / 1024).toFixed(0)} MiB`);

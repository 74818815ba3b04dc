/**
 * What the connection guard (src/server/connection-guard.ts) costs: a /healthz-sized JSON answer
 * served by the runtime's server directly and through the guard, each in its own child process;
 * requests/s and latency over keep-alive connections (16 at once), and the latency of a request
 * on a fresh connection each time (connect + request + close), and the server process's CPU time
 * per request (steadier than requests/s on a shared machine). Run twice in turn. Usage: bun bench/connection-guard/run.ts (or deno run -A ...).
 */
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { connect } from "node:net";
import { scriptCommand } from "../../src/runtime/index.ts";

const SECONDS = 3;
const CONCURRENCY = 16;
const FRESH = 300;
const answer = () => Response.json({ ok: true, version: "bench" });

async function serveMode(mode: string): Promise<void> {
  const { serve } = await import("../../src/runtime/index.ts");
  const { serveGuarded, resolveConnectionLimits, ConnectionLimitsSchema } = await import("../../src/server/index.ts");
  const port =
    mode === "plain" ? serve("127.0.0.1", 0, answer).port : (await serveGuarded("127.0.0.1", 0, answer, resolveConnectionLimits(ConnectionLimitsSchema.parse({ perClient: 1000 }), 4096))).port;
  console.error(`listening on ${port}`);
}

/** User + system CPU time of a process in ms (Linux; clock ticks of 10 ms). */
const cpuMs = (pid: number) => {
  const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
  return (Number(fields[11]) + Number(fields[12])) * 10;
};

const percentile = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * p))]!;

function freshRequest(port: number): Promise<number> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const socket = connect({ host: "127.0.0.1", port }, () => socket.write("GET /healthz HTTP/1.1\r\nhost: 127.0.0.1\r\nconnection: close\r\n\r\n"));
    let text = "";
    socket.on("data", (d) => (text += d));
    socket.on("error", reject);
    socket.on("close", () => (text.startsWith("HTTP/1.1 200") ? resolve(performance.now() - started) : reject(new Error(`unexpected answer: ${text.slice(0, 60)}`))));
  });
}

async function measure(mode: string): Promise<string> {
  const [command, ...args] = scriptCommand(new URL(import.meta.url).pathname);
  const child = spawn(command!, [...args, "serve", mode], { stdio: ["ignore", "ignore", "pipe"] });
  const port = await new Promise<number>((resolve) => child.stderr!.on("data", (d) => /listening on (\d+)/.test(String(d)) && resolve(Number(/listening on (\d+)/.exec(String(d))![1]))));
  const url = `http://127.0.0.1:${port}/healthz`;
  for (let i = 0; i < 200; i++) await (await fetch(url)).arrayBuffer(); // warm-up
  const latencies: number[] = [];
  const cpuBefore = cpuMs(child.pid!);
  const end = performance.now() + SECONDS * 1000;
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (performance.now() < end) {
        const started = performance.now();
        await (await fetch(url)).arrayBuffer();
        latencies.push(performance.now() - started);
      }
    }),
  );
  const cpuPerRequest = ((cpuMs(child.pid!) - cpuBefore) * 1000) / latencies.length;
  const fresh: number[] = [];
  for (let i = 0; i < FRESH; i++) fresh.push(await freshRequest(port));
  child.kill("SIGTERM");
  const ms = (x: number) => x.toFixed(2);
  return `${mode.padEnd(8)} keep-alive: ${Math.round(latencies.length / SECONDS)} req/s, p50 ${ms(percentile(latencies, 0.5))} ms, p99 ${ms(percentile(latencies, 0.99))} ms, server CPU ${cpuPerRequest.toFixed(0)} µs/request; fresh connection: p50 ${ms(percentile(fresh, 0.5))} ms, p99 ${ms(percentile(fresh, 0.99))} ms`;
}

if (process.argv[2] === "serve") await serveMode(process.argv[3]!);
else for (const mode of ["plain", "guarded", "plain", "guarded"]) console.log(await measure(mode));

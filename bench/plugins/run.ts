/**
 * Plugin channel costs, all in one run: RPC round-trip latency of a tool call, and moving 1, 10
 * and 100 MB to and from a plugin process through its shared segment vs through stdio JSON
 * (base64) — next to an in-process memcpy of the same size, the physical limit; then files_read
 * of 1 to 256 MB files through the production files plugin (segment) vs the same plugin over stdio.
 *
 *   bun bench/plugins/run.ts
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { builtinSpec } from "../../plugins/index.ts";
import { createPluginHost, DEFAULT_INTAKE_LIMITS, PluginSpecSchema } from "../../src/plugins/index.ts";

const root = fileURLToPath(new URL("../..", import.meta.url));
const MB = 1 << 20;
const SIZES = [1, 10, 100];
const PINGS = 2000;

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const percentile = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * p))]!;
const runsFor = (mb: number) => (mb >= 100 ? 3 : mb >= 10 ? 5 : 15);

async function timed(runs: number, once: () => Promise<unknown> | unknown): Promise<number> {
  await once(); // warm-up: first-touch page faults, JIT
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const started = performance.now();
    await once();
    times.push(performance.now() - started);
  }
  return median(times);
}

const spec = PluginSpecSchema.parse({
  name: "blob",
  command: process.execPath,
  args: [join(root, "tests/plugins/fixtures/blob-plugin.ts")],
  sharedMemoryBytes: 256 * MB + MB,
  timeoutMs: 120_000,
});
// The channel itself, not the daemon's flood limits: bytes unpaced (the default paces a stream
// of large answers at 64 MiB/s after a 256 MiB burst; see src/plugins/intake.ts).
const host = createPluginHost([spec], { maxFrameBytes: 512 * MB, limits: { ...DEFAULT_INTAKE_LIMITS, stdoutBytes: Infinity, stdoutBurstBytes: Infinity } });
try {
  await host.start();
  const shared = host.shared("blob");
  if (!shared) throw new Error(`Cannot run the benchmark: blob plugin did not attach shared memory (${host.status("blob").logTail.join(" | ")})`);

  const latencies: number[] = [];
  for (let i = 0; i < 200; i++) await host.callTool("blob", "ping", {});
  for (let i = 0; i < PINGS; i++) {
    const started = performance.now();
    await host.callTool("blob", "ping", {});
    latencies.push((performance.now() - started) * 1000);
  }
  console.log(`RPC round trip (tools/call "ping", ${PINGS} calls): median ${median(latencies).toFixed(0)} µs, p99 ${percentile(latencies, 0.99).toFixed(0)} µs`);
  console.log("");
  console.log("| size | direction | shared segment | stdio JSON (base64) | in-process memcpy | stdio ÷ shared |");
  console.log("|---:|---|---:|---:|---:|---:|");

  for (const mb of SIZES) {
    const payload = new Uint8Array(mb * MB);
    for (let i = 0; i < payload.length; i += 4096) payload[i] = i & 0xff;
    const runs = runsFor(mb);
    const sink = new Uint8Array(payload.length);
    const memcpy = await timed(runs, () => sink.set(payload));

    const toShared = await timed(runs, async () => {
      const ref = shared.write(payload);
      await host.callTool("blob", "take_shared", { ref });
      shared.release(ref);
    });
    const toStdio = await timed(runs, () => host.callTool("blob", "take_base64", { data: Buffer.from(payload).toString("base64") }));

    const fromShared = await timed(runs, async () => {
      const result = await host.callTool("blob", "make_shared", { length: payload.length });
      const ref = (result.structuredContent as { ref: { offset: number; length: number } }).ref;
      sink.set(shared.read(ref));
      await shared.done(ref);
    });
    const fromStdio = await timed(runs, async () => {
      const result = await host.callTool("blob", "make_base64", { length: payload.length });
      sink.set(Buffer.from((result.content[0] as unknown as { text: string }).text, "base64"));
    });

    const row = (direction: string, viaShared: number, viaStdio: number) =>
      console.log(`| ${mb} MB | ${direction} | ${viaShared.toFixed(1)} ms | ${viaStdio.toFixed(1)} ms | ${memcpy.toFixed(2)} ms | ${(viaStdio / viaShared).toFixed(1)}× |`);
    row("kernel → plugin", toShared, toStdio);
    row("plugin → kernel", fromShared, fromStdio);
  }
  console.log("");
  console.log('Times are medians; "plugin → kernel" includes the plugin filling the payload (same work on both paths).');
} finally {
  await host.stopAll();
}

// Production: files_read of a text file through the built-in files plugin (its text through the
// segment above 64 KiB), next to the same plugin with every result over stdio, and to reading
// the file in this process (the floor: disk cache + UTF-8 decode).
const dir = mkdtempSync(join(tmpdir(), "homed-bench-files-"));
const files = createPluginHost(
  [
    builtinSpec("files", [process.execPath, join(root, "src/main.ts")], { root: dir }),
    { ...builtinSpec("files", [process.execPath, join(root, "bench/plugins/files-stdio.ts")], { root: dir }), name: "files-stdio", args: [join(root, "bench/plugins/files-stdio.ts")], provides: [] },
  ],
  { maxFrameBytes: 1 << 30, limits: { ...DEFAULT_INTAKE_LIMITS, stdoutBytes: Infinity, stdoutBurstBytes: Infinity } },
);
try {
  await files.start();
  console.log("");
  console.log("| files_read of | shared segment (production) | stdio JSON | readFile in process | stdio ÷ shared |");
  console.log("|---:|---:|---:|---:|---:|");
  for (const mb of [1, 10, 100, 256]) {
    const path = `f${mb}.txt`;
    writeFileSync(join(dir, path), "homed reads big files — 大きなファイル\n".repeat(Math.ceil((mb * MB) / 50)).slice(0, mb * MB));
    const read = (plugin: string) => async () => {
      const result = await files.callTool(plugin, "files_read", { path }, { timeoutMs: 600_000 });
      if (result.isError) throw new Error(`Cannot benchmark files_read: ${JSON.stringify(result.content)}`);
    };
    const runs = mb >= 100 ? 3 : runsFor(mb);
    const viaShared = await timed(runs, read("files"));
    const viaStdio = await timed(runs, read("files-stdio"));
    const local = await timed(runs, () => readFileSync(join(dir, path), "utf8"));
    console.log(`| ${mb} MB | ${viaShared.toFixed(1)} ms | ${viaStdio.toFixed(1)} ms | ${local.toFixed(1)} ms | ${(viaStdio / viaShared).toFixed(1)}× |`);
    rmSync(join(dir, path));
  }
} finally {
  await files.stopAll();
  rmSync(dir, { recursive: true, force: true });
}

/**
 * How much a noisy plugin slows the kernel: /healthz latency of a real daemon (from source)
 * with no plugins (the baseline), then with one plugin per flood mode, then all five at once.
 *
 *   bun bench/plugins/flood.ts
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { floodDataFolder, FLOOD_MODES, probeHealthz, type FloodMode } from "../../tests/support/flood-daemon.ts";
import { SOURCE_HOMED, startDaemon } from "../../tests/support/process.ts";

const PROBE_MS = 3000;
/** Plugins need a moment to start and fill their pipes before the probe means anything. */
const SETTLE_MS = 1500;

const scenarios: [string, FloodMode[]][] = [["no plugins (baseline)", []], ...FLOOD_MODES.map((m): [string, FloodMode[]] => [`one plugin: ${m}`, [m]]), ["all five at once", [...FLOOD_MODES]]];

console.log("| plugins | /healthz p50 | p95 | max | requests |");
console.log("|---|---:|---:|---:|---:|");
for (const [label, modes] of scenarios) {
  const dir = mkdtempSync(join(tmpdir(), "homed-flood-bench-"));
  floodDataFolder(dir, modes);
  const daemon = await startDaemon([...SOURCE_HOMED, "-data", dir, "-addr", "127.0.0.1:0"]);
  try {
    await new Promise((r) => setTimeout(r, SETTLE_MS));
    const l = await probeHealthz(daemon.url, PROBE_MS);
    console.log(`| ${label} | ${l.p50.toFixed(1)} ms | ${l.p95.toFixed(1)} ms | ${l.max.toFixed(0)} ms | ${l.n} |`);
  } finally {
    await daemon.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

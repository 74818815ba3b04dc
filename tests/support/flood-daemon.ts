/**
 * A daemon with misbehaving plugins (tests/plugins/fixtures/flood-plugin.ts, one per mode) and
 * no built-ins, plus a /healthz latency probe: what the test and the bench of issue 14.6 share.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { ROOT, scriptSpec } from "./process.ts";

export const FLOOD_MODES = ["notify", "request", "garbage", "oversized", "stderr"] as const;
export type FloodMode = (typeof FLOOD_MODES)[number];

/** Writes `<data>/homed.json` (built-ins off) and one external plugin per mode. */
export function floodDataFolder(data: string, modes: readonly FloodMode[]): void {
  mkdirSync(data, { recursive: true });
  writeFileSync(join(data, "homed.json"), JSON.stringify({ plugins: { enabled: [] } }));
  for (const mode of modes) {
    const folder = join(data, "plugins", `flood-${mode}`);
    mkdirSync(folder, { recursive: true });
    writeFileSync(join(folder, "plugin.json"), JSON.stringify(scriptSpec(join(ROOT, "tests/plugins/fixtures/flood-plugin.ts"), mode)));
  }
}

export type Latency = { n: number; p50: number; p90: number; p95: number; max: number };

/** Asks `/healthz` one request after another for `ms` milliseconds; latencies in ms. */
export async function probeHealthz(url: string, ms: number): Promise<Latency> {
  const times: number[] = [];
  const until = performance.now() + ms;
  while (performance.now() < until) {
    const started = performance.now();
    const response = await fetch(`${url}/healthz`);
    await response.arrayBuffer();
    if (!response.ok) throw new Error(`Cannot probe: /healthz answered ${response.status}`);
    times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  const at = (p: number) => times[Math.min(times.length - 1, Math.floor(times.length * p))]!;
  return { n: times.length, p50: at(0.5), p90: at(0.9), p95: at(0.95), max: times[times.length - 1]! };
}

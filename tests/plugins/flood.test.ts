/**
 * Noisy plugins cannot slow the kernel (issue 14.6): a real daemon runs five real plugin
 * processes that flood it — valid notifications, requests, non-JSON lines, oversized lines,
 * stderr — and /healthz must stay fast while they do. What the limits drop is counted in
 * /api/plugins and said in the daemon log. Before the limits, /healthz p50 rose from 0.1 ms to
 * 2.6 s with the notification flood alone (bench/plugins/flood.ts).
 */
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import type { PluginStatus } from "../../src/plugins/index.ts";
import { floodDataFolder, FLOOD_MODES, probeHealthz } from "../support/flood-daemon.ts";
import { startHeldLoop } from "../support/held-loop.ts";
import { SOURCE_HOMED, startDaemon, type Daemon } from "../support/process.ts";
import { tempDir } from "../support/temp-dir.ts";

describe("five misbehaving plugins flooding a real daemon", () => {
  const data = tempDir("homed-flood-").path;
  let daemon: Daemon;
  let headers: Record<string, string>;
  const plugins = async () => ((await (await fetch(`${daemon.url}/api/plugins`, { headers })).json()) as { plugins: PluginStatus[] }).plugins;

  /** When the plugins could start dropping: reports are bounded by the seconds since. */
  let started = 0;

  before(async () => {
    floodDataFolder(data, FLOOD_MODES);
    started = performance.now();
    daemon = await startDaemon([...SOURCE_HOMED, "-data", data, "-addr", "127.0.0.1:0"]);
    headers = { authorization: `Bearer ${readFileSync(join(data, "admin.token"), "utf8").trim()}` };
    // Every plugin handshakes and starts its flood before anything is measured.
    for (let i = 0; i < 200; i++) {
      const list = await plugins();
      if (list.length === FLOOD_MODES.length && list.every((p) => p.state === "running")) break;
      await new Promise((r) => setTimeout(r, 50));
    }
    await new Promise((r) => setTimeout(r, 1000));
  });
  after(async () => {
    await daemon?.stop();
    rmSync(data, { recursive: true, force: true });
  });

  test("/healthz p95 stays under 20 ms while they flood (or under what 20 ms of work takes at the moment)", async () => {
    // Asked at the same time: a loop holding 20 ms of CPU an answer (see held-loop.ts). Under
    // Deno at load average ~14 the daemon, given ~0.14 of a core, answered at p95 15-309 ms.
    const held = await startHeldLoop(20);
    try {
      const [latency, baseline] = await Promise.all([probeHealthz(daemon.url, 2000), probeHealthz(held.url, 2000)]);
      const bound = Math.max(20, baseline.p90);
      console.log(`healthz under five floods: ${JSON.stringify(latency)}; bound ${bound.toFixed(1)} ms (a loop holding 20 ms an answer: ${JSON.stringify(baseline)})`);
      assert.ok(latency.p95 < bound, `p95 ${latency.p95.toFixed(1)} ms over ${latency.n} requests, bound ${bound.toFixed(1)} ms`);
    } finally {
      await held.stop();
    }
  });

  test("they keep running; what was dropped is counted per plugin and said in the daemon log", async () => {
    const byName = new Map((await plugins()).map((p) => [p.name, p]));
    for (const mode of FLOOD_MODES) assert.equal(byName.get(`flood-${mode}`)?.state, "running", mode);
    assert.ok(byName.get("flood-notify")!.dropped!.messages > 0, "notifications over the limit are dropped");
    assert.ok(byName.get("flood-request")!.dropped!.messages > 0, "requests over the limit are dropped");
    assert.ok(byName.get("flood-garbage")!.dropped!.frameErrors > 0, "reports of unreadable frames over the limit are dropped");
    assert.ok(byName.get("flood-stderr")!.dropped!.logLines > 0, "stderr lines over the limit are dropped");
    const log = daemon.stderr();
    assert.match(log, /WARN {2}plugin flood-notify: dropped \d+ notifications and requests \(\d+ in all\): over the limit of 200 a second/);
    assert.match(log, /WARN {2}plugin flood-garbage: dropped \d+ reports of unreadable frames \(\d+ in all\): over the limit of 20 a second/);
    assert.match(log, /WARN {2}plugin flood-stderr: dropped \d+ stderr lines \(\d+ in all\): over the limit of 200 lines a second/);
    // At most one report a second per plugin and reason: the reports are not a flood themselves.
    // (Counted against the seconds the flood has lasted: on a loaded machine this file's steps
    // took over ten, and a fixed "10" failed with 11 honest reports.)
    const seconds = (performance.now() - started) / 1000;
    const reports = log.split("\n").filter((l) => l.includes("plugin flood-notify: dropped")).length;
    assert.ok(reports <= Math.ceil(seconds) + 1, `${reports} drop reports for one plugin in ${seconds.toFixed(1)} s`);
  });
});

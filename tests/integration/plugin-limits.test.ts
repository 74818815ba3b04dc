/**
 * External plugins in a real daemon: one that goes over the memory limit its plugin.json sets is
 * killed and said in the daemon log while the daemon answers on; one whose children left its
 * session (setsid, and an orphan adopted by init) leaves none of them behind when homed stops.
 */
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { startApiDaemon } from "../support/api-daemon.ts";
import { processesWhose, scriptSpec, until } from "../support/process.ts";
import { testDir } from "../support/temp-dir.ts";

const kill = (target: number) => {
  try {
    process.kill(target, "SIGKILL");
  } catch {
    // already gone
  }
};

const MISBEHAVE = join(import.meta.dirname, "../plugins/fixtures/misbehave.ts");

describe("external plugins' process trees in the daemon", () => {
  test("a memory hog is killed and said, the daemon answers on; on SIGTERM every escaped child ends too, within 5 s", async () => {
    const data = testDir("homed-plugin-limits-");
    const marker = `daemon-escapee-${process.pid}-${Date.now()}`;
    const plugin = (name: string, body: object) => {
      mkdirSync(join(data, "plugins", name), { recursive: true });
      writeFileSync(join(data, "plugins", name, "plugin.json"), JSON.stringify(body));
    };
    plugin("hog", { ...scriptSpec(MISBEHAVE, "hog"), limits: { memoryMb: 200 } });
    plugin("escaper", { ...scriptSpec(MISBEHAVE, "escape"), env: { ESCAPE_MARKER: marker } });
    writeFileSync(join(data, "homed.json"), JSON.stringify({ plugins: { enabled: [] } }));
    const escaped = () => [...processesWhose("cmdline", marker), ...processesWhose("environ", marker)];
    const daemon = await startApiDaemon(data);
    try {
      await until(() => /plugin hog: exited \(code null, signal SIGKILL, over its limits\); crash 1 within 5 minutes: restarting in 1 s/.test(daemon.stderr()), "the hog to be killed", 30_000).catch(
        (error) => assert.fail(`${error.message}; daemon log:\n${daemon.stderr()}`),
      );
      assert.match(daemon.stderr(), /WARN +plugin hog: memory \d+ MB \(resident, summed over its 1 process\) is over its limit of 200 MB: killed with every process it started/);
      assert.equal((await fetch(`${daemon.url}/healthz`)).status, 200);
      const { plugins } = (await (await fetch(`${daemon.url}/api/plugins`, { headers: daemon.headers })).json()) as {
        plugins: { name: string; state: string; error: string | null; lastExit: { signal: string } | null }[];
      };
      const hog = plugins.find((p) => p.name === "hog")!;
      assert.equal(hog.lastExit?.signal, "SIGKILL");
      assert.equal(plugins.find((p) => p.name === "escaper")!.state, "running");
      // The plugin, its setsid'd sh and the orphaned sleep.
      await until(() => escaped().length === 3, "the escaper's children to run", 10_000);
    } finally {
      const { code, ms } = await daemon.stop("SIGTERM");
      assert.equal(code, 0, daemon.stderr());
      assert.ok(ms < 5000, `stopped in ${(ms / 1000).toFixed(1)} s`);
    }
    try {
      await until(() => escaped().length === 0, "no escaped child to outlive the daemon", 5000);
    } finally {
      endEscapees(marker);
    }
  });

  test("what a homed killed with -9 left running is ended by the next one that starts (those that kept their environment)", async () => {
    const data = testDir("homed-plugin-limits-");
    const marker = `killed-daemon-escapee-${process.pid}-${Date.now()}`;
    mkdirSync(join(data, "plugins", "escaper"), { recursive: true });
    writeFileSync(join(data, "plugins", "escaper", "plugin.json"), JSON.stringify({ ...scriptSpec(MISBEHAVE, "escape"), env: { ESCAPE_MARKER: marker } }));
    writeFileSync(join(data, "homed.json"), JSON.stringify({ plugins: { enabled: [] } }));
    // The plugin and the orphaned sleep carry the marker in their environment; the setsid sh, whose environment is empty, in its command line.
    const withEnvironment = () => processesWhose("environ", marker);
    try {
      const first = await startApiDaemon(data);
      await until(() => withEnvironment().length === 2 && processesWhose("cmdline", marker).length === 1, "the escaper and its children to run", 20_000);
      await first.stop("SIGKILL");
      // The plugin may go by itself once its stdin closes; the orphaned sleep does not.
      await new Promise((r) => setTimeout(r, 500));
      assert.ok(withEnvironment().length >= 1, "kill -9 ended nothing: the orphan still runs");

      const other = testDir("homed-plugin-limits-");
      writeFileSync(join(other, "homed.json"), JSON.stringify({ plugins: { enabled: [] } }));
      const next = await startApiDaemon(other);
      try {
        await until(() => withEnvironment().length === 0, "the next homed to end them", 5000);
        assert.match(next.stderr(), /WARN +ended \d+ plugin process(es)? left running by a homed that is gone \(pid \d+/);
      } finally {
        assert.equal((await next.stop()).code, 0);
      }
    } finally {
      endEscapees(marker);
    }
  });
});

/** Whatever a failed check let escape is ended here (the setsid child with its group). */
function endEscapees(marker: string): void {
  for (const pid of processesWhose("cmdline", marker)) kill(-pid);
  for (const pid of processesWhose("environ", marker)) kill(pid);
}

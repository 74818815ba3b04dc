/**
 * A plugin's whole process tree, real processes: held to its memory and CPU limits (killed,
 * said, counted as a crash) and ended with the plugin — children that called setsid and orphans
 * adopted by init included.
 */
import { after, describe, test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { FIXTURES, isRunning } from "./support.ts";
import { LogRing, ManualClock, type Exit, PluginChild, PluginSpecSchema, Supervisor, type PluginSpecInput } from "../../src/plugins/index.ts";
import { processesWhose, scriptSpec, until } from "../support/process.ts";

const spec = (mode: string, extra: Partial<PluginSpecInput> = {}) => PluginSpecSchema.parse({ name: `tree-${mode}`, ...scriptSpec(join(FIXTURES, "misbehave.ts"), mode), timeoutMs: 10_000, ...extra });

describe("a plugin's process tree", () => {
  const children: PluginChild[] = [];
  const supervisors: Supervisor[] = [];
  const markers: string[] = [];
  after(async () => {
    await Promise.all([...children.map((c) => c.stop(200)), ...supervisors.map((s) => s.stop())]);
    // Whatever a broken guard let escape is killed here, so a failed run leaves nothing behind.
    // The setsid child leads its own group (its sleep is in it): the group goes.
    const kill = (target: number) => {
      try {
        process.kill(target, "SIGKILL");
      } catch {
        // already gone
      }
    };
    for (const marker of markers) {
      for (const pid of processesWhose("cmdline", marker)) kill(-pid);
      for (const pid of processesWhose("environ", marker)) kill(pid);
    }
  });

  /** A plugin in escape mode, and what to look for: its setsid'd `sh` (command line) and the orphaned `sleep` (environment). */
  const escaping = async () => {
    const marker = `escapee-${process.pid}-${Date.now()}-${markers.length}`;
    markers.push(marker);
    const log = new LogRing(100);
    const child = PluginChild.spawn(spec("escape", { env: { ESCAPE_MARKER: marker } }), { log });
    children.push(child);
    await child.connect();
    const setsidChild = () => processesWhose("cmdline", marker);
    const orphan = () => processesWhose("environ", marker).filter((pid) => pid !== child.pid);
    await until(() => setsidChild().length === 1 && orphan().length === 1, "both escapees to run", 10_000);
    return { child, setsidChild, orphan };
  };

  test("stopping the plugin ends a child in its own session and an orphan adopted by init", async () => {
    const { child, setsidChild, orphan } = await escaping();
    const [sh] = setsidChild();
    assert.notEqual(readPgid(sh!), child.pid, "the setsid child left the plugin's process group");
    await child.stop(500);
    await until(() => setsidChild().length === 0, "the setsid child to end", 5000);
    await until(() => orphan().length === 0, "the orphan to end", 5000);
  });

  test("a plugin that dies on its own takes them with it (the setsid child once a sample has seen it)", async () => {
    const { child, setsidChild, orphan } = await escaping();
    // Once its parent is gone, the setsid child (empty environment) is known only from a sample.
    await new Promise((r) => setTimeout(r, 1500));
    process.kill(child.pid!, "SIGKILL");
    await child.exited;
    await until(() => setsidChild().length === 0 && orphan().length === 0, "the escapees to end", 5000);
  });

  test("past its memory limit the plugin is killed with its tree, saying how much it held", async () => {
    const reports: string[] = [];
    const log = new LogRing(100);
    const child = PluginChild.spawn(spec("hog", { limits: { memoryMb: 200 } }), { log, report: (line) => reports.push(line) });
    children.push(child);
    const exit = await exitWithin(child, 15_000);
    assert.equal(exit.signal, "SIGKILL");
    assert.match(child.killedFor ?? "", /^memory \d+ MB \(resident, summed over its \d+ process(es)?\) is over its limit of 200 MB: killed with every process it started$/);
    assert.ok(log.tail().includes(`[homed] ${child.killedFor}`), "said in the plugin's log");
    assert.deepEqual(reports, [child.killedFor], "and in the daemon's");
    assert.equal(isRunning(child.pid!), false);
  });

  test("past its CPU limit (a minute's seconds) the plugin is killed", async () => {
    const log = new LogRing(100);
    const child = PluginChild.spawn(spec("burn", { limits: { cpuSecondsPerMinute: 1 } }), { log });
    children.push(child);
    await child.connect();
    const exit = await exitWithin(child, 15_000);
    assert.equal(exit.signal, "SIGKILL");
    assert.match(child.killedFor ?? "", /^CPU \d+\.\d s within a minute \(summed over its 1 process\) is over its limit of 1 s a minute: killed/);
  });

  test("a plugin under its limits is left alone", async () => {
    const child = PluginChild.spawn(spec("burn", { limits: { cpuSecondsPerMinute: 120 } }), { log: new LogRing(100), sampleIntervalMs: 200 });
    children.push(child);
    await child.connect();
    await new Promise((r) => setTimeout(r, 2500));
    assert.equal(child.exit, undefined, "still running after 2.5 s of one busy core");
    assert.equal(child.killedFor, undefined);
  });

  test("for the supervisor a kill for its limits is a crash: counted, said, restarted after the back-off", async () => {
    const lines: string[] = [];
    const clock = new ManualClock(1_000_000);
    const s = new Supervisor(spec("hog", { limits: { memoryMb: 200 } }), { clock, graceMs: 300, report: (level, line) => lines.push(`${level} ${line}`) });
    supervisors.push(s);
    await s.start();
    await within(
      s.until((x) => x.currentState === "backoff"),
      15_000,
    );
    const status = s.status();
    assert.equal(status.crashesInWindow, 1);
    assert.match(status.error ?? "", /^Killed for going over its limits: memory \d+ MB .* over its limit of 200 MB/);
    assert.ok(
      lines.some((l) => /^warn plugin tree-hog: exited \(code null, signal SIGKILL, over its limits\); crash 1 within 5 minutes: restarting in 1 s/.test(l)),
      lines.join("\n"),
    );
    assert.deepEqual(clock.pending(), [1000]);
  });
});

/** What `promise` resolves to, or a failure once `ms` passed without it (a limit that does not hold must not hang the test). */
async function within<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`nothing after ${ms} ms`)), ms)));
  try {
    return await Promise.race([promise, late]);
  } finally {
    clearTimeout(timer);
  }
}

const exitWithin = (child: PluginChild, ms: number): Promise<Exit> => within(child.exited, ms);

/** The process group of `pid` (field 5 of /proc/<pid>/stat). */
function readPgid(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  return Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[2]);
}

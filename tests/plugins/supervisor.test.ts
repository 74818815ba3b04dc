/** Crash loops on an injected clock, the 5-minute window, manual restart, and stop without orphans. */
import { after, describe, test } from "node:test";
import assert from "node:assert/strict";
import { join } from "node:path";
import { FIXTURES, gone } from "./support.ts";
import { ManualClock, PluginSpecSchema, Supervisor, type Report } from "../../src/plugins/index.ts";
import { scriptSpec } from "../support/process.ts";

const spec = (mode: string, name = `p-${mode}`) => PluginSpecSchema.parse({ name, ...scriptSpec(join(FIXTURES, "misbehave.ts"), mode), timeoutMs: 10_000 });

describe("supervisor", () => {
  const all: Supervisor[] = [];
  after(async () => {
    await Promise.all(all.map((s) => s.stop()));
  });
  const supervise = (mode: string, clock: ManualClock, report?: Report) => {
    const s = new Supervisor(spec(mode), { clock, graceMs: 300, ...(report ? { report } : {}) });
    all.push(s);
    return s;
  };

  test("a crash loop restarts after 1 s, 2 s, 3 s and stops at the 4th crash until restarted by hand", async () => {
    const clock = new ManualClock(1_000_000);
    const s = supervise("crash", clock);
    await s.start();
    for (const delay of [1000, 2000, 3000]) {
      await s.until((x) => x.currentState === "backoff");
      assert.deepEqual(clock.pending(), [delay], `after crash ${delay / 1000}`);
      assert.equal(s.status().nextRestartAt, clock.now() + delay);
      clock.advance(delay - 1);
      assert.equal(s.currentState, "backoff", "restarted too early");
      clock.advance(1);
      assert.equal(s.currentState, "starting");
    }
    await s.until((x) => x.currentState === "failed");
    assert.deepEqual(clock.pending(), [], "no restart is scheduled after the 4th crash");
    const status = s.status();
    assert.equal(status.restarts, 3);
    assert.equal(status.crashesInWindow, 4);
    assert.equal(status.lastExit?.code, 3);
    assert.match(status.logTail.join("\n"), /restarts stopped/);
    clock.advance(60_000);
    assert.equal(s.currentState, "failed", "time alone does not resume restarts");

    await s.restart();
    await s.until((x) => x.currentState === "backoff");
    assert.deepEqual(clock.pending(), [1000], "a manual restart forgets the crash history");
    await s.stop();
  });

  test("each crash is a WARN line and the failed state an ERROR line in the daemon log, with the plugin's last stderr line", async () => {
    const clock = new ManualClock(1_000_000);
    const told: string[] = [];
    const s = supervise("crash", clock, (level, line) => told.push(`${level.toUpperCase()} ${line}`));
    await s.start();
    for (const delay of [1000, 2000, 3000]) {
      await s.until((x) => x.currentState === "backoff");
      clock.advance(delay);
    }
    await s.until((x) => x.currentState === "failed");
    const crashes = told.filter((l) => l.includes("exited (code 3"));
    assert.equal(crashes.length, 4, told.join("\n"));
    for (const [i, line] of crashes.slice(0, 3).entries()) {
      assert.match(
        line,
        new RegExp(`^WARN plugin p-crash: exited \\(code 3, signal null\\); crash ${i + 1} within 5 minutes: restarting in ${i + 1} s; last stderr: "misbehave: cannot go on \\(crash mode\\)"$`),
      );
    }
    assert.match(
      crashes[3]!,
      /^ERROR plugin p-crash: .*crash 4 within 5 minutes: failed, crashed 4 times within 5 minutes; restarts stopped until restarted by hand; last stderr: "misbehave: cannot go on/,
    );
    await s.restart();
    assert.ok(told.includes("INFO plugin p-crash: restart requested"), told.join("\n"));
    await s.stop();
  });

  test("crashes older than 5 minutes do not count toward the back-off or the stop", async () => {
    const clock = new ManualClock(0);
    const s = supervise("ok", clock);
    await s.start();
    const crashAndRecover = async (expectedDelay: number) => {
      process.kill(s.status().pid!, "SIGKILL");
      await s.until((x) => x.currentState === "backoff");
      assert.deepEqual(clock.pending(), [expectedDelay]);
      clock.advance(expectedDelay);
      await s.until((x) => x.currentState === "running");
      clock.advance(200_000);
    };
    await crashAndRecover(1000); // crash at 0
    await crashAndRecover(2000); // at 201 s: the first still counts
    await crashAndRecover(2000); // at 403 s: the first has aged out
    await crashAndRecover(2000);
    await crashAndRecover(2000);
    assert.equal(s.currentState, "running");
    assert.equal(s.status().restarts, 5);
  });

  test("a running plugin reports its tools, pid and protocol; stop leaves no process", async () => {
    const clock = new ManualClock(0);
    const s = supervise("ok", clock);
    await s.start();
    const status = s.status();
    assert.equal(status.state, "running");
    assert.deepEqual(status.tools, ["ping"]);
    assert.equal(status.protocol, "initialize 2025-06-18");
    assert.equal(status.manifest, null);
    const pid = status.pid!;
    await s.stop();
    assert.equal(s.currentState, "stopped");
    assert.ok(await gone(pid));
    assert.deepEqual(clock.pending(), [], "a stop is not a crash: nothing restarts");
  });
});

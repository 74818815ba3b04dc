/**
 * The terminal plugin in its own process (`homed plugin run terminal`) with a real PTY: input
 * and key in order under one lock, reading on demand, resize, terminal_gone from every tool,
 * opt-in pushes through the shared segment (none by default, `clear` silences), and refusal
 * to serve without its channel.
 */
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { builtinSpec } from "../../plugins/index.ts";
import { createPluginHost, LogRing, PluginChild, type PluginHost } from "../../src/plugins/index.ts";
import { SOURCE_HOMED } from "../support/process.ts";
import { gone, isRunning } from "./support.ts";
import { tempDir } from "../support/temp-dir.ts";

type Answer = Record<string, unknown> & { isError: boolean };

describe("terminal plugin", () => {
  const dir = tempDir("homed-terminal-").path;
  let host: PluginHost;
  const events: { terminal: string; reason: string; output: string; exitCode?: number | null }[] = [];
  const eventWaiters: (() => void)[] = [];

  before(async () => {
    host = createPluginHost([builtinSpec("terminal", SOURCE_HOMED, { cwd: dir })], { graceMs: 1000 });
    host.onEvent((_plugin, event) => {
      events.push(event as (typeof events)[number]);
      for (const wake of eventWaiters.splice(0)) wake();
    });
    await host.start();
  });
  after(async () => {
    await host?.stopAll();
    rmSync(dir, { recursive: true, force: true });
  });

  const call = async (tool: string, args: Record<string, unknown>): Promise<Answer> => {
    const result = await host.callTool("terminal", tool, args);
    return { isError: result.isError ?? false, ...(result.structuredContent as Record<string, unknown>) };
  };
  const create = async () => String((await call("terminal_create", {})).terminal);
  /** Reads until `pattern` shows up in everything read so far (each read waits for new output). */
  const readUntil = async (terminal: string, pattern: RegExp) => {
    let all = "";
    for (let i = 0; i < 20 && !pattern.test(all); i++) {
      const answer = await call("terminal_read", { terminal, waitMs: 2000 });
      all += String(answer.output);
      if (answer.exited && !pattern.test(all)) break;
    }
    assert.match(all, pattern);
    return all;
  };
  const nextEvent = async (predicate: (e: (typeof events)[number]) => boolean) => {
    for (;;) {
      const found = events.find(predicate);
      if (found) return found;
      await new Promise<void>((resolve) => eventWaiters.push(resolve));
    }
  };

  test("the plugin runs with its shared-memory channel", () => {
    const status = host.status("terminal");
    assert.equal(status.state, "running", status.logTail.join("\n"));
    assert.ok(status.sharedMemory);
    assert.deepEqual(status.tools.sort(), ["terminal_close", "terminal_create", "terminal_read", "terminal_resize", "terminal_watch", "terminal_write"]);
  });

  test('{"input":"…","key":"enter"} sends the input, then the key: the command runs', async () => {
    const t = await create();
    await call("terminal_write", { terminal: t, input: "echo result-$((6*7))", key: "enter" });
    await readUntil(t, /result-42/);
    await call("terminal_close", { terminal: t });
  });

  test("two writes sent at once do not interleave: each input is followed by its own key", async () => {
    const t = await create();
    await Promise.all([call("terminal_write", { terminal: t, input: "echo first-$((1+1))", key: "enter" }), call("terminal_write", { terminal: t, input: "echo second-$((2+2))", key: "enter" })]);
    const output = await readUntil(t, /second-4\r?\n/);
    assert.match(output, /first-2\r?\n/);
    await call("terminal_close", { terminal: t });
  });

  test("a resize is seen by programs in the terminal; exit codes are reported", async () => {
    const t = await create();
    await call("terminal_resize", { terminal: t, cols: 101, rows: 33 });
    await call("terminal_write", { terminal: t, input: "stty size", key: "enter" });
    await readUntil(t, /33 101/);
    await call("terminal_write", { terminal: t, input: "exit 3", key: "enter" });
    let answer: Answer;
    do answer = await call("terminal_read", { terminal: t, waitMs: 2000 });
    while (!answer.exited);
    assert.equal(answer.exitCode, 3);
    assert.equal((await call("terminal_write", { terminal: t, input: "x" })).error, "terminal_gone");
  });

  test("an unknown or closed terminal answers terminal_gone from all five tools", async () => {
    const closed = await create();
    await call("terminal_close", { terminal: closed });
    for (const terminal of ["t_nosuch", closed]) {
      for (const [tool, args] of [
        ["terminal_write", { input: "ls", key: "enter" }],
        ["terminal_read", {}],
        ["terminal_resize", { cols: 80, rows: 24 }],
        ["terminal_close", {}],
        ["terminal_watch", { onExit: true }],
      ] as const) {
        const answer = await call(tool, { terminal, ...args });
        assert.equal(answer.isError, true, `${tool} ${terminal}`);
        assert.equal(answer.error, "terminal_gone", `${tool} ${terminal}`);
        assert.equal(answer.terminal, terminal);
        assert.match(String(answer.next_action), /terminal_create/);
      }
    }
  });

  test("nothing is pushed by default nor after clear; pushing on bytes, on exit and on an interval is opt-in", async () => {
    const quiet = await create();
    const cleared = await create();
    // The shell's first prompt must be out before the watch: printed between the watch and the
    // clear, it is rightly pushed (seen on a loaded machine), and this test is about after clear.
    await readUntil(cleared, /[$#] $/);
    await call("terminal_watch", { terminal: cleared, everyBytes: 1, onExit: true });
    await call("terminal_watch", { terminal: cleared, clear: true });
    await call("terminal_write", { terminal: quiet, input: "echo quiet-out", key: "enter" });
    await call("terminal_write", { terminal: cleared, input: "echo cleared-out", key: "enter" });
    await readUntil(quiet, /quiet-out\r?\n/);
    await readUntil(cleared, /cleared-out\r?\n/);
    await call("terminal_write", { terminal: quiet, input: "exit", key: "enter" });

    // Events arrive in order through the ring: anything from quiet or cleared would come first.
    const loud = await create();
    await call("terminal_watch", { terminal: loud, everyBytes: 1 });
    await call("terminal_write", { terminal: loud, input: "echo loud-out", key: "enter" });
    await nextEvent((e) => e.terminal === loud && /loud-out/.test(e.output));
    assert.deepEqual([...new Set(events.map((e) => e.terminal))], [loud]);
    assert.equal(events[0]!.reason, "bytes");

    await call("terminal_watch", { terminal: loud, clear: true });
    await call("terminal_watch", { terminal: loud, onExit: true });
    await call("terminal_write", { terminal: loud, input: "exit 5", key: "enter" });
    const exit = await nextEvent((e) => e.terminal === loud && e.reason === "exit");
    assert.equal(exit.exitCode, 5);

    const ticking = await create();
    await call("terminal_watch", { terminal: ticking, everySeconds: 0.05 });
    await call("terminal_write", { terminal: ticking, input: "echo tick-out", key: "enter" });
    await nextEvent((e) => e.terminal === ticking && e.reason === "interval" && /tick-out/.test(e.output));
    await call("terminal_close", { terminal: ticking });
    await call("terminal_close", { terminal: cleared });
    assert.ok(!events.some((e) => e.terminal === quiet || e.terminal === cleared));
  });

  test("an exit push is urgent (it wakes a turn) only when the watch asked for wake", async () => {
    const plain = await create();
    const waking = await create();
    await call("terminal_watch", { terminal: plain, onExit: true });
    assert.deepEqual((await call("terminal_watch", { terminal: waking, onExit: true, wake: true })).push, { onExit: true, everyMs: null, everyBytes: null, wake: true });
    await call("terminal_write", { terminal: plain, input: "exit 1", key: "enter" });
    await call("terminal_write", { terminal: waking, input: "exit 2", key: "enter" });
    const plainExit = (await nextEvent((e) => e.terminal === plain && e.reason === "exit")) as Record<string, unknown>;
    const wakingExit = (await nextEvent((e) => e.terminal === waking && e.reason === "exit")) as Record<string, unknown>;
    assert.equal(plainExit.urgent, undefined, "an exit push waits for the next turn unless asked");
    assert.equal(wakingExit.urgent, true);
    assert.equal(wakingExit.exitCode, 2);
  });

  test("stopping the plugin ends the programs in its terminals, even those that ignore SIGHUP", async () => {
    const created = await call("terminal_create", { command: "/bin/sh", args: ["-c", "trap '' HUP; echo hangup-ignored; sleep 300"] });
    const pid = Number(created.pid);
    try {
      // Only once the trap is set does the test prove anything.
      await readUntil(String(created.terminal), /hangup-ignored/);
      await host.stopAll();
      assert.ok(await gone(pid), "the terminal's program outlived the plugin");
    } finally {
      // Even when the assertion fails, leave no process behind.
      if (isRunning(pid)) process.kill(-pid, "SIGKILL");
    }
    await host.restart("terminal");
  });
});

describe("terminal plugin without its channel", () => {
  const children: PluginChild[] = [];
  after(async () => {
    await Promise.all(children.map((c) => c.stop(500)));
  });

  test("refuses to serve tools instead of running without pushes, and a bad segment fails the attach", async () => {
    const spec = builtinSpec("terminal", SOURCE_HOMED, { cwd: tmpdir() });
    const child = PluginChild.spawn(spec, { log: new LogRing() });
    children.push(child);
    await child.connect();
    assert.equal((await child.client.manifest())?.sharedMemory, true);
    await assert.rejects(child.client.listTools(), /shared-memory channel was not registered/);
    await assert.rejects(child.client.call("homed/shm_attach", { name: "/homed-no-such-segment", size: 1 << 20 }), /ENOENT/);
    await assert.rejects(child.client.callTool("terminal_create", {}), /not registered/);
  });
});

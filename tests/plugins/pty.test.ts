/**
 * The PTY under a stalled event loop (what heavy CPU load looks like from inside the process):
 * output and exit that happen before anyone listens are kept for the first listener, never
 * dropped. The terminal plugin listens only after `spawnPty` resolves, so on a busy machine a
 * program's first line used to vanish.
 */
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { spawnPty } from "../../src/runtime/index.ts";
import { until } from "../support/process.ts";
import { testDir } from "../support/temp-dir.ts";

/** Blocks this thread (no timers, no I/O callbacks) until `done` holds or `ms` pass: the stall. */
function stallUntil(done: () => boolean, ms: number): void {
  const deadline = Date.now() + ms;
  while (!done() && Date.now() < deadline);
}
/** One turn of the timers: every timer already due (the PTY's read poll) runs before this resolves. */
const timersTurn = () => new Promise((resolve) => setTimeout(resolve, 0));

describe("pty", () => {
  test("output and exit that come before the first listener reach it", async () => {
    const dir = testDir("homed-pty-");
    const marker = join(dir, "printed");
    const env = { PATH: process.env.PATH ?? "/usr/bin:/bin", TERM: "xterm-256color" };
    const pty = await spawnPty("/bin/sh", ["-c", `echo early-line; touch ${marker}`], { cwd: dir, env, cols: 80, rows: 24 });
    // The program prints, makes the marker and exits while this process is busy elsewhere (for
    // longer than the PTY's 8 ms read poll, as under load)...
    const stalled = Date.now();
    stallUntil(() => existsSync(marker) && Date.now() - stalled > 50, 10_000);
    assert.ok(existsSync(marker), "the program ran");
    // ...and the PTY's poll, due by now, reads that output and sees the exit before anyone listens.
    await timersTurn();
    await timersTurn();
    let output = "";
    let exit: number | null | undefined;
    pty.onData((text) => (output += text));
    pty.onExit((code) => (exit = code));
    await until(() => exit !== undefined && output.includes("early-line"), `the early line and the exit (got ${JSON.stringify(output)}, exit ${exit})`, 5000);
    assert.equal(exit, 0);
  });
});

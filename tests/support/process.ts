/**
 * Child-process helpers for tests: run a command to completion, or start the daemon and wait
 * for its "listening on" line (never a sleep) to learn the port it bound.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { fileURLToPath } from "node:url";
import { readdirSync, readFileSync } from "node:fs";
import { scriptCommand } from "../../src/runtime/self.ts";

export const ROOT = fileURLToPath(new URL("../..", import.meta.url));
export const MAIN = `${ROOT}src/main.ts`;
/** The command that runs homed from source with the runtime running the tests: [bun, src/main.ts] or [deno, run, ...]. */
export const SOURCE_HOMED = scriptCommand(MAIN);

export { scriptCommand, evalCommand } from "../../src/runtime/self.ts";

/** A plugin's `command` and `args` that run the TypeScript file `script` with the runtime running the tests. */
export function scriptSpec(script: string, ...args: string[]): { command: string; args: string[] } {
  const [command, ...leading] = scriptCommand(script);
  return { command: command!, args: [...leading, ...args] };
}

/** Daemons started by tests; killed when the test process exits, even after a failed test. */
const started = new Set<ChildProcess>();
process.on("exit", () => {
  for (const child of started) child.kill("SIGKILL");
});

export type Finished = { code: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string };

/** Runs a command to completion, collecting stdout, stderr and the exit status together. */
export function run(cmd: string[], options: { cwd?: string; env?: NodeJS.ProcessEnv; input?: string } = {}): Promise<Finished> {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd[0]!, cmd.slice(1), { cwd: options.cwd, env: options.env ?? process.env });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d) => (stdout += d));
    child.stderr.on("data", (d) => (stderr += d));
    child.on("error", reject);
    child.on("close", (code, signal) => resolve({ code, signal, stdout, stderr }));
    child.stdin.end(options.input ?? "");
  });
}

export type Daemon = {
  child: ChildProcess;
  port: number;
  url: string;
  stderr: () => string;
  /** Resolves with the exit code and how long the exit took after `stop()` was called. */
  stop(signal?: NodeJS.Signals): Promise<{ code: number | null; ms: number }>;
};

/** Starts the daemon and resolves once it logs the address it listens on. */
export function startDaemon(cmd: string[], options: { cwd?: string; timeoutMs?: number; env?: NodeJS.ProcessEnv } = {}): Promise<Daemon> {
  const child = spawn(cmd[0]!, cmd.slice(1), { cwd: options.cwd, env: options.env ?? process.env, stdio: ["ignore", "pipe", "pipe"] });
  started.add(child);
  child.on("exit", () => started.delete(child));
  let stderr = "";
  const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error(`daemon did not start within ${options.timeoutMs ?? 20000} ms; stderr:\n${stderr}`));
    }, options.timeoutMs ?? 20000);
    child.stdout!.resume();
    child.stderr!.on("data", (d) => {
      stderr += d;
      const match = /listening on http:\/\/([^\s:]+):(\d+)/.exec(stderr);
      if (!match) return;
      clearTimeout(timer);
      const port = Number(match[2]);
      resolve({
        child,
        port,
        url: `http://127.0.0.1:${port}`,
        stderr: () => stderr,
        async stop(signal = "SIGTERM") {
          const started = performance.now();
          // process.kill, not child.kill: after child.kill, Deno's child_process reports the
          // signal as the exit (code null) even when the process caught it and exited 0 itself.
          // A daemon a test already stopped has no process left to signal (kill would throw ESRCH).
          if (child.exitCode === null && child.signalCode === null) process.kill(child.pid!, signal);
          const code = await exited;
          return { code, ms: performance.now() - started };
        },
      });
    });
    exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`daemon exited with ${code} before listening; stderr:\n${stderr}`));
    });
    // A command that cannot be run at all (ENOENT) says so at once: without this the test waited
    // out the timeout and said "did not start" with an empty stderr (runtime binary deleted mid-run).
    child.on("error", (error) => {
      clearTimeout(timer);
      reject(new Error(`Cannot start ${cmd[0]}: ${error.message}`));
    });
  });
}

/**
 * Resolves once `condition` holds, checking every few milliseconds; fails after `timeoutMs`. A
 * wait, not a speed check (a test that times something passes its own bound): the default is
 * generous because a fresh daemon's first turn waits for its default plugins (three processes) to
 * start, and with two CPU hogs at load average ~13 `homed chat`'s first turn took 7-8 s to reach
 * the model, and once more than the old 10 s.
 */
export async function until(condition: () => boolean, what: string, timeoutMs = 60_000): Promise<void> {
  const started = performance.now();
  while (!condition()) {
    if (performance.now() - started > timeoutMs) throw new Error(`Timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 5));
  }
}

/**
 * Live processes whose `/proc/<pid>/environ` or `cmdline` holds `text` (a marker a test gave its
 * children): how tests check that nothing outlives what should have ended it.
 */
export function processesWhose(file: "environ" | "cmdline", text: string): number[] {
  return readdirSync("/proc")
    .filter((pid) => /^\d+$/.test(pid))
    .filter((pid) => {
      try {
        return readFileSync(`/proc/${pid}/${file}`, "utf8").includes(text);
      } catch {
        return false; // the process ended while we looked
      }
    })
    .map(Number);
}

/**
 * One command to completion, with a deadline and a cap on what it may print. The command
 * leads its own process group so that a timeout kills everything it started. The shell
 * plugin runs `sh -c`; the code plugin its sandboxed interpreter.
 */
import { spawn } from "node:child_process";

export type ShellResult = {
  exitCode: number | null;
  signal: string | null;
  timedOut: boolean;
  stdout: string;
  stderr: string;
  /** True when output went past the cap and the rest was discarded. */
  truncated: boolean;
  ms: number;
};

export type ShellOptions = { cwd: string; timeoutMs: number; maxOutputBytes: number; signal?: AbortSignal; env?: Record<string, string> };

export function runShell(command: string, options: ShellOptions): Promise<ShellResult> {
  return runProcess(["/bin/sh", "-c", command], options);
}

export function runProcess(argv: readonly string[], options: ShellOptions): Promise<ShellResult> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const child = spawn(argv[0]!, argv.slice(1), { cwd: options.cwd, env: options.env, stdio: ["ignore", "pipe", "pipe"], detached: true });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    let used = 0;
    let truncated = false;
    let timedOut = false;
    const take = (into: Buffer[]) => (chunk: Buffer) => {
      const room = options.maxOutputBytes - used;
      if (room <= 0) {
        truncated = true;
        return;
      }
      if (chunk.length > room) truncated = true;
      const kept = chunk.subarray(0, room);
      into.push(kept);
      used += kept.length;
    };
    child.stdout.on("data", take(out));
    child.stderr.on("data", take(err));
    const killGroup = () => {
      try {
        process.kill(-child.pid!, "SIGKILL");
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== "ESRCH") throw error;
      }
    };
    const timer = setTimeout(() => {
      timedOut = true;
      killGroup();
    }, options.timeoutMs);
    options.signal?.addEventListener("abort", killGroup, { once: true });
    child.on("error", (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.on("close", (code, signal) => {
      clearTimeout(timer);
      options.signal?.removeEventListener("abort", killGroup);
      // Background jobs of the command must not outlive it either.
      killGroup();
      resolve({
        exitCode: code,
        signal,
        timedOut,
        stdout: Buffer.concat(out).toString("utf8"),
        stderr: Buffer.concat(err).toString("utf8"),
        truncated,
        ms: Math.round(performance.now() - started),
      });
    });
  });
}

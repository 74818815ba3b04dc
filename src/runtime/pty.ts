/**
 * Pseudo-terminals through FFI: bun-pty ships prebuilt Rust PTY libraries (nothing is compiled
 * at install); Bun uses bun-pty itself, Deno the same library through pty-deno.ts. Loaded on
 * first use only: the library is a native file that the kernel itself never needs, only the
 * terminal plugin's process.
 */
import { RUNTIME } from "./which.ts";

export interface Pty {
  readonly pid: number;
  write(data: string): void;
  resize(cols: number, rows: number): void;
  /** Ends the process (and its terminal); `onExit` fires once either way. */
  kill(): void;
  /** Output produced before the first listener came is handed to it on registration. */
  onData(listener: (text: string) => void): void;
  /** Fires once; at registration when the process has already exited. */
  onExit(listener: (exitCode: number | null) => void): void;
}

export type PtyOptions = { cwd: string; env: Record<string, string>; cols: number; rows: number };

export async function spawnPty(command: string, args: readonly string[], options: PtyOptions): Promise<Pty> {
  const { spawn } = RUNTIME === "bun" ? await import("bun-pty") : await import("./pty-deno.ts");
  const terminal = spawn(command, [...args], { name: options.env.TERM ?? "xterm-256color", cwd: options.cwd, env: options.env, cols: options.cols, rows: options.rows });
  // The terminal starts reading at once and drops output nobody listens to; the caller can listen
  // only after this resolves, and on a busy machine the program has printed (even exited) by
  // then. So listen from the start and keep what comes early for the first listener.
  const dataListeners: ((text: string) => void)[] = [];
  let early: string[] = [];
  terminal.onData((text) => {
    if (dataListeners.length === 0) early.push(text);
    for (const listener of dataListeners) listener(text);
  });
  let exitCode: number | null | undefined;
  const exitListeners: ((code: number | null) => void)[] = [];
  const exit = (code: number | null) => {
    if (exitCode !== undefined) return;
    exitCode = code;
    for (const listener of exitListeners) listener(code);
  };
  terminal.onExit((event) => exit(typeof event.exitCode === "number" ? event.exitCode : null));
  return {
    pid: terminal.pid,
    write: (data) => terminal.write(data),
    resize: (cols, rows) => terminal.resize(cols, rows),
    kill: () => {
      if (exitCode !== undefined) return;
      // The terminal's kill reports exit code 0 for a killed process; report "no code" instead.
      exit(null);
      // The PTY's program leads its own session and process group: kill the whole group, so
      // that programs which ignore the hang-up (nohup, trap '' HUP) go too.
      try {
        process.kill(-terminal.pid, "SIGKILL");
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== "ESRCH") throw error;
      }
      terminal.kill();
    },
    onData: (listener) => {
      dataListeners.push(listener);
      const kept = early;
      early = [];
      if (kept.length) listener(kept.join(""));
    },
    onExit: (listener) => {
      // An exit that came before the listener is reported to it at once (after any early output).
      if (exitCode !== undefined) listener(exitCode);
      else exitListeners.push(listener);
    },
  };
}

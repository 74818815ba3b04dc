/**
 * Pseudo-terminals through Bun's FFI (bun-pty ships prebuilt Rust PTY libraries, so nothing is
 * compiled at install). Loaded on first use only: the library is a native file that the
 * kernel itself never needs, only the terminal plugin's process.
 */
export interface Pty {
  readonly pid: number;
  write(data: string): void;
  resize(cols: number, rows: number): void;
  /** Ends the process (and its terminal); `onExit` fires once either way. */
  kill(): void;
  onData(listener: (text: string) => void): void;
  onExit(listener: (exitCode: number | null) => void): void;
}

export type PtyOptions = { cwd: string; env: Record<string, string>; cols: number; rows: number };

export async function spawnPty(command: string, args: readonly string[], options: PtyOptions): Promise<Pty> {
  const { spawn } = await import("bun-pty");
  const terminal = spawn(command, [...args], { name: options.env.TERM ?? "xterm-256color", cwd: options.cwd, env: options.env, cols: options.cols, rows: options.rows });
  let exited = false;
  const exitListeners: ((code: number | null) => void)[] = [];
  terminal.onExit((event) => {
    if (exited) return;
    exited = true;
    for (const listener of exitListeners) listener(typeof event.exitCode === "number" ? event.exitCode : null);
  });
  return {
    pid: terminal.pid,
    write: (data) => terminal.write(data),
    resize: (cols, rows) => terminal.resize(cols, rows),
    kill: () => {
      if (exited) return;
      // bun-pty's kill reports exit code 0 for a killed process; report "no code" instead.
      exited = true;
      for (const listener of exitListeners) listener(null);
      // The PTY's program leads its own session and process group: kill the whole group, so
      // that programs which ignore the hang-up (nohup, trap '' HUP) go too.
      try {
        process.kill(-terminal.pid, "SIGKILL");
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== "ESRCH") throw error;
      }
      terminal.kill();
    },
    onData: (listener) => void terminal.onData(listener),
    onExit: (listener) => void exitListeners.push(listener),
  };
}

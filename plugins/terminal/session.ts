/**
 * One terminal: a PTY, the output it produced (the newest bytes kept, addressed by absolute
 * offsets so a reader can say "since offset N"), one write lock, and its push policy.
 * By default a terminal pushes nothing: output waits to be read. Pushing on exit, every N
 * seconds or every N bytes is chosen per terminal, and `clear` returns to silence.
 */
import type { Pty } from "../../src/runtime/index.ts";
import { KEYS, type KeyName } from "./keys.ts";

/** `wake`: the exit push is urgent — it wakes a turn of the terminal's session rather than waiting for the next. */
export type PushPolicy = { onExit: boolean; everyMs: number | null; everyBytes: number | null; wake: boolean };
export const SILENT: PushPolicy = { onExit: false, everyMs: null, everyBytes: null, wake: false };
export type Push = { terminal: string; reason: "exit" | "interval" | "bytes"; output: string; offset: number; exitCode?: number | null; urgent?: true };

/** Pause between the input and its key: full-screen programs treat text and Enter that arrive in one read as a paste. */
const KEY_DELAY_MS = 30;

export class TerminalSession {
  private chunks: string[] = [];
  private kept = 0;
  /** Absolute offset (in characters) of the first kept character. */
  private start = 0;
  private readCursor = 0;
  private pushCursor = 0;
  private lock: Promise<void> = Promise.resolve();
  private timer: ReturnType<typeof setInterval> | undefined;
  private waiters: (() => void)[] = [];
  policy: PushPolicy = SILENT;
  exitCode: number | null | undefined = undefined;

  constructor(
    readonly id: string,
    private readonly pty: Pty,
    private readonly push: (push: Push) => void,
    private readonly maxKeptChars: number,
  ) {
    pty.onData((text) => this.append(text));
    pty.onExit((code) => {
      this.exitCode = code;
      this.wake();
      this.stopTimer();
      if (this.policy.onExit) this.pushNew("exit");
    });
  }

  get exited(): boolean {
    return this.exitCode !== undefined;
  }

  get end(): number {
    return this.start + this.kept;
  }

  /** Sends input then key, in that order, with no other write between them. */
  write(input: string | undefined, key: KeyName | undefined): Promise<void> {
    const run = async () => {
      if (input) this.pty.write(input);
      if (input && key) await new Promise((resolve) => setTimeout(resolve, KEY_DELAY_MS));
      if (key) this.pty.write(KEYS[key]);
    };
    const next = this.lock.then(run);
    // The lock must survive a failed write, or one error would block the terminal for good.
    this.lock = next.catch(() => {});
    return next;
  }

  /** Resolves when output past the read cursor exists, the process exited, or `ms` passed. */
  async waitForOutput(ms: number): Promise<void> {
    if (ms <= 0 || this.end > this.readCursor || this.exited) return;
    let timer: ReturnType<typeof setTimeout> | undefined;
    await new Promise<void>((resolve) => {
      this.waiters.push(resolve);
      timer = setTimeout(resolve, ms);
    });
    clearTimeout(timer);
  }

  /** Output since `since` (default: where the last read stopped); moves the read cursor. */
  read(since?: number): { output: string; from: number; offset: number; dropped: number } {
    const from = Math.max(since ?? this.readCursor, this.start);
    const dropped = from - (since ?? this.readCursor);
    const output = this.slice(from);
    this.readCursor = this.end;
    return { output, from, offset: this.end, dropped: Math.max(0, dropped) };
  }

  resize(cols: number, rows: number): void {
    this.pty.resize(cols, rows);
  }

  watch(policy: PushPolicy): void {
    this.stopTimer();
    this.policy = policy;
    this.pushCursor = this.end;
    if (policy.everyMs !== null) this.timer = setInterval(() => this.pushNew("interval"), policy.everyMs);
  }

  close(): void {
    this.stopTimer();
    this.policy = SILENT;
    this.pty.kill();
  }

  private append(text: string): void {
    this.chunks.push(text);
    this.kept += text.length;
    // Trim in batches (at 1.5× the limit) so a chatty program does not cost a join per chunk.
    if (this.kept > this.maxKeptChars * 1.5) {
      const all = this.chunks.join("");
      const cut = all.length - this.maxKeptChars;
      this.chunks = [all.slice(cut)];
      this.kept = this.maxKeptChars;
      this.start += cut;
    }
    if (this.policy.everyBytes !== null && this.end - this.pushCursor >= this.policy.everyBytes) this.pushNew("bytes");
    this.wake();
  }

  private wake(): void {
    const waiters = this.waiters;
    this.waiters = [];
    for (const resolve of waiters) resolve();
  }

  private pushNew(reason: Push["reason"]): void {
    const from = Math.max(this.pushCursor, this.start);
    if (from >= this.end && reason !== "exit") return;
    this.pushCursor = this.end;
    this.push({
      terminal: this.id,
      reason,
      output: this.slice(from),
      offset: this.end,
      ...(reason === "exit" ? { exitCode: this.exitCode ?? null, ...(this.policy.wake ? { urgent: true as const } : {}) } : {}),
    });
  }

  private slice(from: number): string {
    if (this.chunks.length > 1) this.chunks = [this.chunks.join("")];
    return (this.chunks[0] ?? "").slice(from - this.start);
  }

  private stopTimer(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
  }
}

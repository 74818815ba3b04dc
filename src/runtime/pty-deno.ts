/**
 * bun-pty's terminal for Deno: the same prebuilt Rust library (node_modules/bun-pty/rust-pty)
 * through `Deno.dlopen`, with bun-pty's calling convention — spawn takes one shell-words
 * command line, a NUL-separated environment; read is non-blocking (0: nothing yet, -2: the
 * child exited) — and the same polling read loop (8 ms when idle).
 */
import { fileURLToPath } from "node:url";
import { cString } from "./c-string.ts";
import { deno } from "./deno-api.ts";

const CHILD_EXITED = -2;
const IDLE_POLL_MS = 8;

function load() {
  const file = process.arch === "arm64" ? "librust_pty_arm64.so" : "librust_pty.so";
  const path = fileURLToPath(new URL(`../../node_modules/bun-pty/rust-pty/target/release/${file}`, import.meta.url));
  return deno().dlopen(path, {
    bun_pty_spawn: { parameters: ["buffer", "buffer", "buffer", "i32", "i32"], result: "i32" },
    bun_pty_write: { parameters: ["i32", "buffer", "i32"], result: "i32" },
    bun_pty_read: { parameters: ["i32", "buffer", "i32"], result: "i32" },
    bun_pty_resize: { parameters: ["i32", "i32", "i32"], result: "i32" },
    bun_pty_kill: { parameters: ["i32"], result: "i32" },
    bun_pty_get_pid: { parameters: ["i32"], result: "i32" },
    bun_pty_get_exit_code: { parameters: ["i32"], result: "i32" },
    bun_pty_close: { parameters: ["i32"], result: "void" },
  }).symbols;
}
let symbols: ReturnType<typeof load> | undefined;
const lib = () => (symbols ??= load());

/** Quoted for the library's shell-words split (no shell runs): keeps each argument whole. */
const shellQuote = (word: string) => `'${word.replace(/'/g, `'\\''`)}'`;

type SpawnOptions = { name: string; cwd: string; env: Record<string, string>; cols: number; rows: number };

export function spawn(command: string, args: string[], options: SpawnOptions) {
  const commandLine = [command, ...args].map(shellQuote).join(" ");
  const environment = Object.entries(options.env)
    .map(([key, value]) => `${key}=${value}\0`)
    .join("");
  const handle: number = lib().bun_pty_spawn(cString(commandLine), cString(options.cwd), cString(environment), options.cols, options.rows);
  if (handle < 0) throw new Error(`Cannot start ${command} in a terminal`);
  const pid: number = lib().bun_pty_get_pid(handle);
  const dataListeners: ((text: string) => void)[] = [];
  const exitListeners: ((event: { exitCode: number }) => void)[] = [];
  let closing = false;

  async function readLoop() {
    const buffer = new Uint8Array(4096);
    // Streaming: a character split across two reads is decoded whole.
    const decoder = new TextDecoder("utf-8");
    while (!closing) {
      const n: number = lib().bun_pty_read(handle, buffer, buffer.length);
      if (n > 0) {
        const text = decoder.decode(buffer.subarray(0, n), { stream: true });
        if (text) for (const listener of dataListeners) listener(text);
      } else if (n === 0) {
        await new Promise((resolve) => setTimeout(resolve, IDLE_POLL_MS));
      } else {
        const rest = decoder.decode();
        if (rest) for (const listener of dataListeners) listener(rest);
        if (n === CHILD_EXITED) {
          const exitCode: number = lib().bun_pty_get_exit_code(handle);
          for (const listener of exitListeners) listener({ exitCode });
        }
        return;
      }
    }
  }
  queueMicrotask(() => void readLoop());

  return {
    pid,
    write(data: string) {
      if (closing) return;
      const bytes = new TextEncoder().encode(data);
      lib().bun_pty_write(handle, bytes, bytes.length);
    },
    resize(cols: number, rows: number) {
      if (!closing) lib().bun_pty_resize(handle, cols, rows);
    },
    kill() {
      if (closing) return;
      closing = true;
      lib().bun_pty_kill(handle);
      lib().bun_pty_close(handle);
      for (const listener of exitListeners) listener({ exitCode: 0 });
    },
    onData: (listener: (text: string) => void) => void dataListeners.push(listener),
    onExit: (listener: (event: { exitCode: number }) => void) => void exitListeners.push(listener),
  };
}

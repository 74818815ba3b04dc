/**
 * mpv as the player: started by the plugin on the first `play` (`--idle --no-video`, its JSON IPC
 * server on a Unix socket) and ended with it. Requests are mpv's documented IPC
 * (https://mpv.io/manual/stable/#json-ipc): one JSON object a line, `{"command":[…],"request_id":n}`,
 * answered by `{"error":"success","data":…,"request_id":n}`; the event lines mpv sends between
 * answers (`{"event":…}`) are skipped.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { rmSync } from "node:fs";
import { connect, type Socket } from "node:net";
import { ToolFailure } from "../sdk/index.ts";
import type { Player, PlayerStatus } from "./player.ts";

type Pending = { resolve: (data: unknown) => void; reject: (error: Error) => void; timer: ReturnType<typeof setTimeout> };

export class MpvPlayer implements Player {
  readonly name = "mpv";
  private child: ChildProcess | null = null;
  private socket: Socket | null = null;
  private starting: Promise<Socket> | null = null;
  private readonly pending = new Map<number, Pending>();
  private nextId = 1;

  constructor(
    private readonly program: string,
    private readonly socketPath: string,
    private readonly timeoutMs: number,
    private readonly log: (line: string) => void,
  ) {}

  async play(paths: string[]): Promise<void> {
    const [first, ...rest] = paths;
    if (!first) return;
    await this.request(["loadfile", first, "replace"], true);
    for (const path of rest) await this.request(["loadfile", path, "append"]);
    await this.request(["set_property", "pause", false]);
  }

  async setPaused(paused: boolean): Promise<void> {
    await this.request(["set_property", "pause", paused]);
  }

  async next(): Promise<void> {
    await this.request(["playlist-next", "weak"]).catch((error: unknown) => {
      // mpv refuses "playlist-next" on the last entry: nothing comes next.
      throw error instanceof ToolFailure ? new ToolFailure("end_of_queue", "Cannot skip: this is the last track of the queue", {}) : error;
    });
  }

  async setVolume(level: number): Promise<void> {
    await this.request(["set_property", "volume", level]);
  }

  async status(): Promise<PlayerStatus> {
    if (!this.socket) return { state: "stopped", path: null, position: null, duration: null, volume: null, index: null, count: 0 };
    const get = (name: string) => this.request(["get_property", name]).catch(() => null);
    const [idle, paused, path, position, duration, volume, index, count] = await Promise.all(
      ["idle-active", "pause", "path", "time-pos", "duration", "volume", "playlist-pos", "playlist-count"].map(get),
    );
    const number = (v: unknown) => (typeof v === "number" && Number.isFinite(v) ? v : null);
    return {
      state: idle === true || typeof path !== "string" ? "stopped" : paused === true ? "paused" : "playing",
      path: typeof path === "string" ? path : null,
      position: number(position),
      duration: number(duration),
      volume: number(volume),
      index: number(index) !== null && (index as number) >= 0 ? (index as number) : null,
      count: number(count) ?? 0,
    };
  }

  async close(): Promise<void> {
    this.socket?.destroy();
    this.socket = null;
    this.child?.kill("SIGTERM");
    this.child = null;
    rmSync(this.socketPath, { force: true });
  }

  /** Sends one command; `start` starts mpv when it is not running (only `play` does: the others need something playing). */
  private async request(command: unknown[], start = false): Promise<unknown> {
    const socket = this.socket ?? (start ? await this.start() : null);
    if (!socket) throw new ToolFailure("not_playing", "Nothing is playing: call music_play first", { next_action: "call music_play" });
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pending.delete(id);
        reject(new ToolFailure("player_timeout", `mpv did not answer ${String(command[0])} within ${this.timeoutMs} ms`));
      }, this.timeoutMs);
      this.pending.set(id, { resolve, reject, timer });
      socket.write(`${JSON.stringify({ command, request_id: id })}\n`);
    });
  }

  private start(): Promise<Socket> {
    this.starting ??= this.launch().finally(() => (this.starting = null));
    return this.starting;
  }

  private async launch(): Promise<Socket> {
    rmSync(this.socketPath, { force: true });
    const child = spawn(this.program, ["--idle=yes", "--no-video", "--no-terminal", "--really-quiet", `--input-ipc-server=${this.socketPath}`], { stdio: ["ignore", "ignore", "pipe"] });
    this.child = child;
    let stderr = "";
    child.stderr?.setEncoding("utf8").on("data", (chunk: string) => (stderr = (stderr + chunk).slice(-500)));
    const exited = new Promise<never>((_, reject) => {
      child.once("error", (error) => reject(new ToolFailure("player_failed", `Cannot start mpv (${this.program}): ${error.message}`)));
      child.once("exit", (code, signal) => {
        if (this.child === child) {
          this.child = null;
          this.disconnect(new ToolFailure("player_failed", `mpv ended (${signal ?? `exit ${code}`})${stderr ? `: ${stderr.trim()}` : ""}`));
        }
        reject(new ToolFailure("player_failed", `mpv ended before opening its IPC socket (${signal ?? `exit ${code}`})${stderr ? `: ${stderr.trim()}` : ""}`));
      });
    });
    exited.catch(() => {});
    const deadline = Date.now() + this.timeoutMs;
    for (;;) {
      const socket = await Promise.race([tryConnect(this.socketPath), exited]);
      if (socket) {
        this.attach(socket);
        this.log(`music: mpv started (pid ${child.pid}), IPC at ${this.socketPath}`);
        return socket;
      }
      if (Date.now() > deadline) {
        child.kill("SIGKILL");
        throw new ToolFailure("player_timeout", `mpv did not open its IPC socket ${this.socketPath} within ${this.timeoutMs} ms`);
      }
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
  }

  private attach(socket: Socket): void {
    this.socket = socket;
    let buffered = "";
    socket.setEncoding("utf8");
    socket.on("data", (chunk: string) => {
      buffered += chunk;
      for (let end = buffered.indexOf("\n"); end !== -1; end = buffered.indexOf("\n")) {
        const line = buffered.slice(0, end);
        buffered = buffered.slice(end + 1);
        this.answer(line);
      }
    });
    socket.on("close", () => {
      if (this.socket === socket) this.disconnect(new ToolFailure("player_failed", "mpv closed its IPC socket"));
    });
    socket.on("error", () => {});
  }

  private answer(line: string): void {
    let reply: { request_id?: unknown; error?: unknown; data?: unknown };
    try {
      reply = JSON.parse(line) as typeof reply;
    } catch {
      return;
    }
    if (typeof reply.request_id !== "number") return; // an event
    const pending = this.pending.get(reply.request_id);
    if (!pending) return;
    this.pending.delete(reply.request_id);
    clearTimeout(pending.timer);
    if (reply.error === "success") pending.resolve(reply.data ?? null);
    else pending.reject(new ToolFailure("player_error", `mpv refused the request: ${String(reply.error)}`));
  }

  private disconnect(error: Error): void {
    if (this.socket) this.socket.destroy();
    this.socket = null;
    for (const [id, pending] of this.pending) {
      clearTimeout(pending.timer);
      pending.reject(error);
      this.pending.delete(id);
    }
  }
}

function tryConnect(path: string): Promise<Socket | null> {
  return new Promise((resolve) => {
    const socket = connect(path);
    socket.once("connect", () => resolve(socket));
    socket.once("error", () => resolve(null));
  });
}

/**
 * MPD as the player, over its TCP protocol (https://mpd.readthedocs.io/en/stable/protocol.html):
 * the server greets with `OK MPD <version>`, each command is a line, each answer `key: value`
 * lines ending in `OK`, or one `ACK [error@n] {command} message` line. One connection per tool
 * call (MPD drops idle clients after its connection_timeout anyway).
 *
 * MPD plays only what is in its own music_directory, and over TCP it takes paths relative to it:
 * the plugin sends each file's path relative to the indexed folder, so MPD's music_directory must
 * be that folder.
 */
import { connect, type Socket } from "node:net";
import { isAbsolute, join, relative } from "node:path";
import { ToolFailure } from "../sdk/index.ts";
import type { Player, PlayerStatus } from "./player.ts";

export type MpdAddress = { host: string; port: number; password?: string | undefined };

/** One command's answer: its `key: value` lines, in order. */
type Answer = [string, string][];

export class MpdPlayer implements Player {
  readonly name = "mpd";

  constructor(
    private readonly address: MpdAddress,
    private readonly folder: string,
    private readonly timeoutMs: number,
  ) {}

  /** True when an MPD answers at the address with its greeting (within a second). */
  static async answers(address: MpdAddress): Promise<boolean> {
    try {
      const session = await MpdSession.open(address, 1000);
      session.close();
      return true;
    } catch {
      return false;
    }
  }

  async play(paths: string[]): Promise<void> {
    await this.session(async (send) => {
      await send("clear");
      for (const path of paths) {
        const inside = relative(this.folder, path);
        if (inside.startsWith("..") || isAbsolute(inside)) throw new ToolFailure("player_error", `Cannot queue ${path} in MPD: it is outside the music folder ${this.folder}`);
        await send(`add ${quote(inside)}`);
      }
      await send("play 0");
    });
  }

  async setPaused(paused: boolean): Promise<void> {
    await this.session((send) => send(`pause ${paused ? 1 : 0}`));
  }

  async next(): Promise<void> {
    await this.session((send) => send("next"));
  }

  async setVolume(level: number): Promise<void> {
    await this.session((send) => send(`setvol ${Math.round(level)}`));
  }

  async status(): Promise<PlayerStatus> {
    return this.session(async (send) => {
      const status = Object.fromEntries(await send("status"));
      const song = Object.fromEntries(await send("currentsong"));
      const number = (v: string | undefined) => (v !== undefined && v !== "" && Number.isFinite(Number(v)) ? Number(v) : null);
      const state = status.state === "play" ? "playing" : status.state === "pause" ? "paused" : "stopped";
      const volume = number(status.volume);
      return {
        state,
        path: state !== "stopped" && song.file ? join(this.folder, song.file) : null,
        position: number(status.elapsed),
        duration: number(status.duration) ?? number(song.duration),
        // MPD says -1 when it cannot tell (no mixer).
        volume: volume !== null && volume >= 0 ? volume : null,
        index: number(status.song),
        count: number(status.playlistlength) ?? 0,
      };
    });
  }

  async close(): Promise<void> {}

  private async session<T>(work: (send: (command: string) => Promise<Answer>) => Promise<T>): Promise<T> {
    const session = await MpdSession.open(this.address, this.timeoutMs).catch((error: unknown) => {
      throw new ToolFailure("player_failed", `Cannot reach MPD at ${this.address.host}:${this.address.port}: ${(error as Error).message}`);
    });
    try {
      if (this.address.password !== undefined) await session.send(`password ${quote(this.address.password)}`);
      return await work((command) => session.send(command));
    } finally {
      session.close();
    }
  }
}

/** One connection: the greeting read, then commands one at a time. */
class MpdSession {
  private buffered = "";
  private waiting: ((line: string | null) => void) | null = null;
  private readonly lines: string[] = [];
  private ended = false;

  private constructor(
    private readonly socket: Socket,
    private readonly timeoutMs: number,
  ) {
    socket.setEncoding("utf8");
    socket.on("data", (chunk: string) => {
      this.buffered += chunk;
      for (let end = this.buffered.indexOf("\n"); end !== -1; end = this.buffered.indexOf("\n")) {
        this.push(this.buffered.slice(0, end));
        this.buffered = this.buffered.slice(end + 1);
      }
    });
    socket.on("close", () => {
      this.ended = true;
      this.waiting?.(null);
    });
    socket.on("error", () => {});
  }

  static async open(address: MpdAddress, timeoutMs: number): Promise<MpdSession> {
    const socket = await new Promise<Socket>((resolve, reject) => {
      const socket = connect({ host: address.host, port: address.port });
      const timer = setTimeout(() => {
        socket.destroy();
        reject(new Error(`no answer within ${timeoutMs} ms`));
      }, timeoutMs);
      socket.once("connect", () => {
        clearTimeout(timer);
        resolve(socket);
      });
      socket.once("error", (error) => {
        clearTimeout(timer);
        reject(error);
      });
    });
    const session = new MpdSession(socket, timeoutMs);
    const greeting = await session.line();
    if (!greeting.startsWith("OK MPD ")) {
      session.close();
      throw new Error(`not an MPD server (it said ${JSON.stringify(greeting.slice(0, 80))})`);
    }
    return session;
  }

  async send(command: string): Promise<Answer> {
    this.socket.write(`${command}\n`);
    const answer: Answer = [];
    for (;;) {
      const line = await this.line();
      if (line === "OK") return answer;
      if (line.startsWith("ACK ")) throw new ToolFailure("player_error", `MPD refused ${command.split(" ")[0]}: ${line}`);
      const colon = line.indexOf(": ");
      if (colon > 0) answer.push([line.slice(0, colon), line.slice(colon + 2)]);
    }
  }

  close(): void {
    // Said, then half-closed: MPD ends its side, and the socket is freed when it has.
    if (!this.ended) this.socket.end("close\n");
  }

  private push(line: string): void {
    if (this.waiting) {
      const waiting = this.waiting;
      this.waiting = null;
      waiting(line);
    } else this.lines.push(line);
  }

  private line(): Promise<string> {
    const queued = this.lines.shift();
    if (queued !== undefined) return Promise.resolve(queued);
    if (this.ended) return Promise.reject(new ToolFailure("player_failed", "MPD closed the connection"));
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.waiting = null;
        reject(new ToolFailure("player_timeout", `MPD did not answer within ${this.timeoutMs} ms`));
      }, this.timeoutMs);
      this.waiting = (line) => {
        clearTimeout(timer);
        if (line === null) reject(new ToolFailure("player_failed", "MPD closed the connection"));
        else resolve(line);
      };
    });
  }
}

/** An argument in MPD's quoting: double quotes, with `"` and `\` escaped. */
function quote(value: string): string {
  return `"${value.replace(/[\\"]/g, (c) => `\\${c}`)}"`;
}

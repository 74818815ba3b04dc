/**
 * What the playback tools need of a player, and which player there is: mpv (started by the
 * plugin, driven through its JSON IPC socket) or MPD (a running server, driven over TCP). Chosen
 * on the first playback call and kept while it works; without either, every playback tool fails
 * with `no_player`, naming both and how to install one.
 */
import { accessSync, constants } from "node:fs";
import { delimiter, join } from "node:path";
import { ToolFailure } from "../sdk/index.ts";

export type PlayerStatus = {
  state: "playing" | "paused" | "stopped";
  /** The file playing (absolute), or null when stopped. */
  path: string | null;
  /** Seconds into the track, and its length, when the player knows them. */
  position: number | null;
  duration: number | null;
  /** 0–100. */
  volume: number | null;
  /** Place in the play queue (0-based) and the queue's length. */
  index: number | null;
  count: number;
};

export interface Player {
  readonly name: "mpv" | "mpd";
  /** Replaces the queue with these files (absolute paths) and plays the first. */
  play(paths: string[]): Promise<void>;
  setPaused(paused: boolean): Promise<void>;
  next(): Promise<void>;
  setVolume(level: number): Promise<void>;
  status(): Promise<PlayerStatus>;
  close(): Promise<void>;
}

/** A program name looked up on PATH (or a path, checked as is); null when it is not there. */
export function findProgram(program: string, path = process.env.PATH ?? ""): string | null {
  const candidates = program.includes("/")
    ? [program]
    : path
        .split(delimiter)
        .filter(Boolean)
        .map((dir) => join(dir, program));
  for (const candidate of candidates) {
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // not here
    }
  }
  return null;
}

export const INSTALL_HINT = "install mpv (Debian/Ubuntu: apt install mpv; Fedora: dnf install mpv) and it is used at once, or run MPD and set its address in homed.json";

export function noPlayer(reasons: string[]): ToolFailure {
  return new ToolFailure(
    "no_player",
    `Cannot play music: no player found (${reasons.join("; ")}). Supported: mpv (through its JSON IPC socket) and MPD (over TCP). To play, ${INSTALL_HINT}. Search works without one.`,
    {
      supported: ["mpv", "mpd"],
      install: "apt install mpv",
      next_action: "tell the user which player to install; music_search still works",
    },
  );
}

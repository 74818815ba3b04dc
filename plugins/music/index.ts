/**
 * music: indexes a music folder by its tags (artist, title, album, year, duration, lyrics), searches
 * it in any script, and plays through mpv (its JSON IPC socket) or MPD (its TCP protocol) when one
 * is present. Search works without a player; playback without one says which to install.
 */
import { homedir } from "node:os";
import { join, resolve } from "node:path";
import { definePlugin, type z } from "../sdk/index.ts";
import { ConfigSchema } from "./config.ts";

export const musicPlugin = definePlugin({
  name: "music",
  version: "1.0.0",
  description: "Search the music folder by artist, title, album or lyrics, and play it through mpv or MPD (play, pause, resume, next, volume, now playing).",
  provides: ["music"],
  config: ConfigSchema,
  // The tag reader loads in this plugin's process only, when it starts.
  tools: async (config: z.infer<typeof ConfigSchema>, lifecycle) =>
    (await import("./tools.ts")).musicTools({ ...config, folder: resolve(config.folder ?? join(homedir(), "Music")) }, lifecycle, (line) => process.stderr.write(`${line}\n`)),
});

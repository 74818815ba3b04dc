/** The music plugin's settings (homed.json's `plugins.music`), apart from the plugin so its tools can take their type without importing the plugin's entry. */
import { z } from "../sdk/index.ts";

export const ConfigSchema = z.object({
  /** Where the index is kept (the daemon gives `<data>/music`). */
  dir: z.string().min(1),
  /** The music folder indexed; `~/Music` of the user homed runs as when absent. */
  folder: z.string().min(1).optional(),
  /** `auto`: mpv when it is on PATH, else MPD when it answers at `mpd`'s address. */
  player: z.enum(["auto", "mpv", "mpd"]).default("auto"),
  /** The mpv program: a name looked up on PATH, or a path. */
  mpv: z.string().min(1).default("mpv"),
  mpd: z
    .object({
      host: z.string().min(1).default("127.0.0.1"),
      port: z.number().int().min(1).max(65_535).default(6600),
      password: z.string().optional(),
    })
    .prefault({}),
  /** Audio files indexed at most; the walk stops there and says so. */
  maxFiles: z.number().int().positive().default(200_000),
  /** The share of one core the indexing may take (the plugin's CPU limit is 50 s a minute). */
  cpuShare: z.number().min(0.05).max(1).default(0.5),
  /** How often the folder is walked again for changes (by modification time); 0: only at start and on request. */
  rescanMinutes: z.number().min(0).default(60),
  /** Deadline of each request to the player. */
  timeoutMs: z.number().int().positive().default(5000),
});
/** The settings as the tools get them: the folder resolved. */
export type Config = z.infer<typeof ConfigSchema> & { folder: string };

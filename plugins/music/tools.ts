import { tmpdir } from "node:os";
import { join } from "node:path";
import { defineTool, ToolFailure, z, type Lifecycle, type ToolDefinition } from "../sdk/index.ts";
import type { Config } from "./config.ts";
import { Library, trackId, type Track } from "./library.ts";
import { MpdPlayer } from "./mpd.ts";
import { MpvPlayer } from "./mpv.ts";
import { findProgram, noPlayer, type Player } from "./player.ts";
import { searchTracks } from "./search.ts";

/** Tracks queued by one music_play at most. */
const QUEUE_MAX = 1000;
/** How long music_library {wait: true} waits for a walk (a tool call's deadline is 30 s). */
const WAIT_MS = 20_000;

/** The music plugin's tools, loaded only in its own process (the tag reader stays out of the others'). */
export function musicTools(config: Config, lifecycle: Lifecycle, log: (line: string) => void): ToolDefinition[] {
  const library = new Library({ dir: config.dir, folder: config.folder, maxFiles: config.maxFiles, cpuShare: config.cpuShare, log });
  void library.scan();
  const rescan = config.rescanMinutes > 0 ? setInterval(() => void library.scan(), config.rescanMinutes * 60_000) : null;
  const players = new Players(config, log);
  lifecycle.onClose(async () => {
    if (rescan) clearInterval(rescan);
    await players.close();
  });

  const describe = (track: Track) => ({
    id: trackId(track.path),
    title: track.title,
    artist: track.artist,
    album: track.album,
    year: track.year,
    duration: track.duration,
    path: track.path,
  });
  /** The index's state, given with search results while a walk is still adding to it. */
  const indexState = () => {
    const { running, filesSeen, audioFiles, read, error, truncated } = library.progress;
    return { folder: library.folder, tracks: library.size, scanning: running, filesSeen, audioFiles, read, ...(truncated ? { truncated } : {}), ...(error ? { error } : {}) };
  };
  const nowPlaying = async (player: Player) => {
    const status = await player.status();
    const track = status.path ? library.byPath(status.path) : undefined;
    return {
      player: player.name,
      state: status.state,
      track: track ? describe(track) : status.path ? { path: status.path } : null,
      position: status.position,
      duration: status.duration,
      volume: status.volume,
      queue: { index: status.index, count: status.count },
    };
  };
  const control = (name: string, description: string, act: (player: Player) => Promise<void>) =>
    defineTool({
      name,
      description,
      input: z.object({}),
      run: async () => {
        const player = await players.get();
        await act(player);
        return nowPlaying(player);
      },
    });

  return [
    defineTool({
      name: "music_search",
      description:
        "Search the music library by artist, title, album or lyrics (any language; every word must match). Returns tracks best first, with ids for music_play, and the lyrics line that matched.",
      input: z.object({ query: z.string().min(1).max(500), limit: z.number().int().positive().max(200).default(20) }),
      run: ({ query, limit }) => {
        const { total, hits } = searchTracks(library.all(), query, limit);
        return {
          total,
          tracks: hits.map((hit) => ({ ...describe(hit.track), matched: hit.matched, ...(hit.lyricsExcerpt ? { lyrics: hit.lyricsExcerpt } : {}) })),
          index: indexState(),
        };
      },
    }),
    defineTool({
      name: "music_play",
      description: `Play tracks, replacing the queue: ids from music_search (one, or several as a playlist, in order), or a query whose results (best first, up to limit) become the playlist. At most ${QUEUE_MAX} tracks.`,
      input: z
        .object({
          ids: z.array(z.string().min(1)).min(1).max(QUEUE_MAX).optional(),
          query: z.string().min(1).max(500).optional(),
          limit: z.number().int().positive().max(QUEUE_MAX).default(50),
        })
        .refine((a) => (a.ids === undefined) !== (a.query === undefined), { message: "give ids or query (one of them)" }),
      run: async ({ ids, query, limit }) => {
        let tracks: Track[];
        if (ids) {
          const unknown = ids.filter((id) => !library.byTrackId(id));
          if (unknown.length > 0) throw new ToolFailure("track_not_found", `No track with id ${unknown.join(", ")} in the library`, { ids: unknown, next_action: "call music_search for ids" });
          tracks = ids.map((id) => library.byTrackId(id)!);
        } else {
          tracks = searchTracks(library.all(), query!, limit).hits.map((hit) => hit.track);
          if (tracks.length === 0) throw new ToolFailure("not_found", `Nothing in the library matches ${JSON.stringify(query)}`, { index: indexState() });
        }
        const player = await players.get();
        await player.play(tracks.map((t) => t.path));
        return { queued: tracks.length, ...(await nowPlaying(player)) };
      },
    }),
    control("music_pause", "Pause playback.", (player) => player.setPaused(true)),
    control("music_resume", "Resume paused playback.", (player) => player.setPaused(false)),
    control("music_next", "Skip to the next track of the queue.", (player) => player.next()),
    defineTool({
      name: "music_volume",
      description: "Set the player's volume, 0–100.",
      input: z.object({ level: z.number().min(0).max(100) }),
      run: async ({ level }) => {
        const player = await players.get();
        await player.setVolume(level);
        return nowPlaying(player);
      },
    }),
    defineTool({
      name: "music_now_playing",
      description: "What is playing: the track, its position, the volume and the place in the queue.",
      input: z.object({}),
      run: async () => nowPlaying(await players.get()),
    }),
    defineTool({
      name: "music_library",
      description: `The library: its folder, how many tracks, and the indexing walk's progress. rescan: true walks the folder again for new, changed (by modification time) and removed files; wait: true waits for the walk (up to ${WAIT_MS / 1000} s).`,
      input: z.object({ rescan: z.boolean().default(false), wait: z.boolean().default(false) }),
      run: async ({ rescan: again, wait }) => {
        const walking = again ? library.scan() : null;
        const running = walking ?? (library.progress.running ? library.scan() : null);
        if (wait && running) {
          let timer: ReturnType<typeof setTimeout> | undefined;
          await Promise.race([running, new Promise((resolve) => (timer = setTimeout(resolve, WAIT_MS)))]);
          clearTimeout(timer);
        }
        return { ...indexState(), scan: library.progress };
      },
    }),
  ];
}

/**
 * The player: chosen on the first playback call (mpv when `config.player` allows it and it is on
 * PATH, else MPD when it answers) and kept; looked for again on each call until one is found.
 */
class Players {
  private chosen: Player | null = null;

  constructor(
    private readonly config: Config,
    private readonly log: (line: string) => void,
  ) {}

  async get(): Promise<Player> {
    if (this.chosen) return this.chosen;
    const reasons: string[] = [];
    const { config } = this;
    if (config.player !== "mpd") {
      const mpv = findProgram(config.mpv);
      if (mpv) return this.choose(new MpvPlayer(mpv, join(tmpdir(), `homed-music-mpv-${process.pid}.sock`), config.timeoutMs, this.log));
      reasons.push(`mpv: ${JSON.stringify(config.mpv)} is not ${config.mpv.includes("/") ? "an executable file" : "on PATH"}`);
    }
    if (config.player !== "mpv") {
      if (await MpdPlayer.answers(config.mpd)) return this.choose(new MpdPlayer(config.mpd, config.folder, config.timeoutMs));
      reasons.push(`MPD: nothing answers at ${config.mpd.host}:${config.mpd.port}`);
    }
    throw noPlayer(reasons);
  }

  async close(): Promise<void> {
    await this.chosen?.close();
  }

  private choose(player: Player): Player {
    this.log(`music: playing through ${player.name}`);
    this.chosen = player;
    return player;
  }
}

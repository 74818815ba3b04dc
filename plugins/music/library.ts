/**
 * The music folder's index: one record per audio file (its tags, modification time and size),
 * kept in `<dir>/library.json` and brought up to date by walking the folder again — a file whose
 * modification time and size are unchanged is not read again, a new or changed one is, a gone one
 * is dropped. The walk streams (one folder open at a time, never the whole tree in memory), is
 * paced to a share of one core, and can be asked about while it runs.
 */
import { createHash } from "node:crypto";
import { opendir, stat } from "node:fs/promises";
import { basename, extname, join } from "node:path";
import { parseFile } from "music-metadata";
import { JsonListFile, z } from "../sdk/index.ts";

const TrackSchema = z.object({
  path: z.string(),
  mtimeMs: z.number(),
  size: z.number(),
  title: z.string(),
  artist: z.string(),
  album: z.string(),
  year: z.number().nullable(),
  /** Seconds, from the file's headers (estimated for an MP3 without a Xing header). */
  duration: z.number().nullable(),
  lyrics: z.string().nullable(),
  /** Why the tags could not be read (the file is still listed, by its name, and not read again until it changes). */
  unreadable: z.string().optional(),
});
export type Track = z.infer<typeof TrackSchema>;

/** What music-metadata reads that a player plays; by extension, so a walk reads no other file. */
export const AUDIO_EXTENSIONS = new Set([".mp3", ".flac", ".ogg", ".oga", ".opus", ".m4a", ".mp4", ".aac", ".wav", ".wma", ".ape", ".wv", ".aiff", ".aif", ".dsf", ".mka", ".webm"]);

/** A track's id: short and stable for its path, so a search result can be played later. */
export function trackId(path: string): string {
  return createHash("sha1").update(path).digest("hex").slice(0, 12);
}

export type ScanProgress = {
  running: boolean;
  startedAt: string | null;
  finishedAt: string | null;
  /** Entries the walk has passed (every file, audio or not). */
  filesSeen: number;
  audioFiles: number;
  /** Files whose tags were read in this walk (new or changed); the others were kept as indexed. */
  read: number;
  removed: number;
  unreadable: number;
  /** Folders that could not be opened (permissions). */
  skippedFolders: number;
  /** The walk stopped at `maxFiles` audio files. */
  truncated: boolean;
  error: string | null;
};

export type LibraryOptions = {
  dir: string;
  folder: string;
  maxFiles: number;
  cpuShare: number;
  log: (line: string) => void;
  /** How often a running walk saves what it has and logs its progress. */
  checkpointMs?: number;
};

export class Library {
  private readonly file: JsonListFile<Track>;
  private readonly tracks = new Map<string, Track>();
  private readonly byId = new Map<string, Track>();
  private scanning: Promise<ScanProgress> | null = null;
  private loading: Promise<void> | null = null;
  progress: ScanProgress = { running: false, startedAt: null, finishedAt: null, filesSeen: 0, audioFiles: 0, read: 0, removed: 0, unreadable: 0, skippedFolders: 0, truncated: false, error: null };

  constructor(private readonly options: LibraryOptions) {
    this.file = new JsonListFile(options.dir, "library.json", "tracks", TrackSchema);
  }

  /**
   * Reads the saved index, once; the first walk waits for it. Not in the constructor: 50,000
   * saved tracks take a second or more to parse and check, and the plugin must answer its
   * handshake first.
   */
  load(): Promise<void> {
    this.loading ??= new Promise<void>((resolve) => setTimeout(resolve, 0)).then(() => {
      let saved: Track[] = [];
      try {
        saved = this.file.read();
      } catch (error) {
        // The index is only a cache of the folder's tags: a damaged one is rebuilt by the walk.
        this.options.log(`music: ${(error as Error).message.replace(/\s+/g, " ").slice(0, 300)}; the index is rebuilt from the folder`);
      }
      for (const track of saved) if (!this.tracks.has(track.path)) this.put(track);
    });
    return this.loading;
  }

  get folder(): string {
    return this.options.folder;
  }

  all(): Iterable<Track> {
    return this.tracks.values();
  }

  get size(): number {
    return this.tracks.size;
  }

  byTrackId(id: string): Track | undefined {
    return this.byId.get(id);
  }

  byPath(path: string): Track | undefined {
    return this.tracks.get(path);
  }

  /** Starts a walk unless one is running; resolves with its final progress. */
  scan(): Promise<ScanProgress> {
    // Running from now: a search while the saved index loads must not read as "nothing indexed, nothing to come".
    if (!this.scanning) this.progress = { ...this.progress, running: true };
    this.scanning ??= this.load()
      .then(() => this.walkAll())
      .finally(() => (this.scanning = null));
    return this.scanning;
  }

  private put(track: Track): void {
    this.tracks.set(track.path, track);
    this.byId.set(trackId(track.path), track);
  }

  private drop(path: string): void {
    this.tracks.delete(path);
    this.byId.delete(trackId(path));
  }

  private async walkAll(): Promise<ScanProgress> {
    const { folder, maxFiles, log } = this.options;
    const progress: ScanProgress = {
      running: true,
      startedAt: new Date().toISOString(),
      finishedAt: null,
      filesSeen: 0,
      audioFiles: 0,
      read: 0,
      removed: 0,
      unreadable: 0,
      skippedFolders: 0,
      truncated: false,
      error: null,
    };
    this.progress = progress;
    const seen = new Set<string>();
    const pace = cpuPacer(this.options.cpuShare);
    const checkpointMs = this.options.checkpointMs ?? 30_000;
    let checkpoint = Date.now();
    let complete = false;
    try {
      for await (const path of walk(folder, () => progress.skippedFolders++)) {
        progress.filesSeen++;
        if (!AUDIO_EXTENSIONS.has(extname(path).toLowerCase())) continue;
        if (seen.size >= maxFiles) {
          progress.truncated = true;
          break;
        }
        await this.index(path, seen, progress);
        await pace();
        if (Date.now() - checkpoint >= checkpointMs) {
          checkpoint = Date.now();
          this.save();
          log(`music: indexing ${folder}: ${progress.filesSeen} files seen, ${progress.audioFiles} audio, ${progress.read} read`);
        }
      }
      complete = !progress.truncated;
    } catch (error) {
      progress.error = (error as Error).message;
    }
    // Only a whole walk knows what is gone; a cut one keeps what it did not reach.
    if (complete) {
      for (const path of [...this.tracks.keys()]) {
        if (!seen.has(path)) {
          this.drop(path);
          progress.removed++;
        }
      }
    }
    this.save();
    progress.running = false;
    progress.finishedAt = new Date().toISOString();
    log(
      `music: indexed ${folder}: ${this.tracks.size} tracks (${progress.read} read, ${progress.removed} removed, ${progress.unreadable} unreadable) of ${progress.filesSeen} files${progress.truncated ? `, stopped at maxFiles ${maxFiles}` : ""}${progress.error ? `; ${progress.error}` : ""}`,
    );
    return progress;
  }

  private async index(path: string, seen: Set<string>, progress: ScanProgress): Promise<void> {
    let info: Awaited<ReturnType<typeof stat>>;
    try {
      info = await stat(path);
    } catch {
      return; // gone between the listing and now (or a dangling link)
    }
    if (!info.isFile()) return;
    seen.add(path);
    progress.audioFiles++;
    const known = this.tracks.get(path);
    if (known && known.mtimeMs === info.mtimeMs && known.size === info.size) return;
    progress.read++;
    this.put(await readTrack(path, info.mtimeMs, info.size));
    if (this.tracks.get(path)?.unreadable) progress.unreadable++;
  }

  private save(): void {
    this.file.write([...this.tracks.values()]);
  }
}

/** One file's tags; a file the reader refuses is kept by its name, with the reason. */
async function readTrack(path: string, mtimeMs: number, size: number): Promise<Track> {
  const named = { path, mtimeMs, size, title: basename(path, extname(path)), artist: "", album: "", year: null, duration: null, lyrics: null };
  try {
    // Covers are skipped (megabytes the index never uses); duration comes from the headers only.
    const { common, format } = await parseFile(path, { skipCovers: true, duration: false });
    const lyrics = (common.lyrics ?? [])
      .map((l) => l.text ?? l.syncText.map((s) => s.text).join("\n"))
      .filter(Boolean)
      .join("\n\n");
    return {
      ...named,
      title: common.title?.trim() || named.title,
      artist: common.artist ?? common.artists?.join(", ") ?? common.albumartist ?? "",
      album: common.album ?? "",
      year: common.year ?? null,
      duration: format.duration !== undefined && Number.isFinite(format.duration) ? Math.round(format.duration * 10) / 10 : null,
      lyrics: lyrics || null,
    };
  } catch (error) {
    return { ...named, unreadable: (error as Error).message.slice(0, 200) };
  }
}

/**
 * Every file under `root`, depth first, one folder open at a time. Links to folders are not
 * followed (a link back up would loop); links to files are. A folder that cannot be opened is
 * counted and skipped.
 */
async function* walk(root: string, skipped: () => void): AsyncGenerator<string> {
  const pending = [root];
  while (pending.length > 0) {
    const folder = pending.pop()!;
    let dir: Awaited<ReturnType<typeof opendir>>;
    try {
      dir = await opendir(folder);
    } catch (error) {
      if (folder === root) throw new Error(`Cannot read the music folder ${root}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
      skipped();
      continue;
    }
    for await (const entry of dir) {
      const path = join(folder, entry.name);
      if (entry.isDirectory()) pending.push(path);
      else if (entry.isFile() || entry.isSymbolicLink()) yield path;
    }
  }
}

/**
 * Waits as long as needed to keep this process's CPU time at `share` of the time since the walk
 * began: 50,000 files read flat out would hold a core for minutes, and the plugin's CPU limit
 * kills a plugin that does.
 */
function cpuPacer(share: number): () => Promise<void> {
  const startCpu = process.cpuUsage();
  const startWall = performance.now();
  return async () => {
    const used = process.cpuUsage(startCpu);
    const cpuMs = (used.user + used.system) / 1000;
    const owed = cpuMs / share - (performance.now() - startWall);
    // Otherwise yield once, so tool calls are answered between files even when nothing is owed.
    await new Promise((resolve) => (owed > 5 ? setTimeout(resolve, Math.min(owed, 1000)) : setImmediate(resolve)));
  };
}

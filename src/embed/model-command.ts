/**
 * `homed model pull NAME|URL [--mirror HUB | --url BASE]` and `homed model list`: installs a
 * model into `<data>/models/` (every file checked by sha256, resumable, progress on stderr)
 * and lists the catalog and what is installed.
 *
 * NAME is a catalog entry (model-catalog.ts): a sentence encoder becomes the text embedder in
 * use, Chinese-CLIP the image model (and the text one when no sentence encoder is installed);
 * the daemon picks either up at its next start. Where the files come from: model-source.ts. A
 * URL is a folder publishing `homed-model.json` (the catalog's entry shape, checksums included).
 * A file the entry gives no checksum for is trusted on first download: its sha256 is printed
 * and recorded in `homed-pull.json`, and a later pull must match it.
 */
import { basename } from "node:path";
import { UsageError, type CommandIo, type ParsedArgs, type Settings } from "../config/index.ts";
import { ModelEntrySchema, type ModelEntry } from "./model-catalog.ts";
import { catalogOf, readModelsSection } from "./models-config.ts";
import { DownloadError } from "./model-download.ts";
import { pullModel } from "./model-pull.ts";
import { modelSource } from "./model-source.ts";
import { pullProgress } from "./pull-progress.ts";
import { listSentenceFolders } from "./sentence-folder.ts";
import { CLIP_FOLDER_NAME } from "./clip-folder.ts";
import { findClipModel, findSentenceModel, modelRoots } from "./model-roots.ts";

export type ModelCommandIo = Pick<CommandIo, "stdout" | "stderr" | "isTty">;

/** The entry a URL publishes in `homed-model.json`; its files are relative to the URL. */
async function entryAt(url: string): Promise<ModelEntry> {
  const base = url.replace(/\/+$/, "");
  let response: Response;
  try {
    response = await fetch(`${base}/homed-model.json`);
  } catch (error) {
    throw new DownloadError(`Cannot reach ${base}/homed-model.json: ${(error as Error).message}`, { cause: error });
  }
  if (!response.ok) throw new DownloadError(`Cannot read ${base}/homed-model.json: HTTP ${response.status}`);
  const parsed = ModelEntrySchema.safeParse({ baseUrl: base, ...((await response.json()) as object) });
  if (!parsed.success) throw new DownloadError(`${base}/homed-model.json is not a model description: ${parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; ")}`);
  return parsed.data;
}

type PullFlags = { url?: string; mirror?: string };

async function pull(what: string, flags: PullFlags, settings: Settings, io: ModelCommandIo): Promise<number> {
  const isUrl = /^https?:\/\//.test(what);
  const section = readModelsSection(settings.dataDir);
  const catalog = catalogOf(section);
  const known = isUrl ? undefined : catalog.find((e) => e.name === what);
  if (!isUrl && !known) throw new UsageError(`homed model pull: no model ${what} in the catalog (${catalog.map((e) => e.name).join(", ")}); give a URL for another`);
  const entry = isUrl ? await entryAt(what) : known!;
  const source = isUrl ? { kind: "folder" as const, base: entry.baseUrl!, from: "the URL", via: "url" as const } : modelSource({ ...flags, envMirror: settings.embed.mirror, section });
  io.stderr(`pulling ${entry.name} (${entry.size}) from ${source.kind === "hub" ? source.endpoint : source.base} (${source.from})\n`);
  const progress = pullProgress(io);
  let dir: string;
  try {
    dir = await pullModel(entry, source, settings.embed.modelsDir, progress);
  } finally {
    progress.stop();
  }
  const role =
    entry.kind === "clip"
      ? `homed finds it there: photos get Chinese-CLIP vectors${findSentenceModel(settings.embed) ? " (beside the sentence encoder in use for text)" : ", and text too while no sentence encoder is installed"}`
      : "it is now the text embedder (stored memory is re-embedded in the background)";
  io.stdout(`installed ${entry.name} in ${dir}; ${role}; restart the daemon to use it\n`);
  return 0;
}

function list(settings: Settings, io: ModelCommandIo): number {
  const catalog = catalogOf(readModelsSection(settings.dataDir));
  const installed = new Set(modelRoots(settings.embed).flatMap(listSentenceFolders));
  const active = findSentenceModel(settings.embed);
  const clip = findClipModel(settings.embed);
  const rows: string[][] = [["", "name", "dim", "size", "licence", "languages", "about"]];
  const names = [...new Set([...catalog.map((e) => e.name), ...installed])];
  for (const name of names) {
    const entry = catalog.find((e) => e.name === name);
    const mark = active && basename(active) === name ? "*" : installed.has(name) || (entry?.kind === "clip" && clip) ? "+" : "";
    rows.push([mark, name, String(entry?.dimension ?? "?"), entry?.size ?? "", entry?.licence ?? "", entry?.languages.join(",") ?? "", entry?.about ?? "(not in the catalog)"]);
  }
  const widths = rows[0]!.map((_, c) => Math.max(...rows.map((r) => r[c]!.length)));
  for (const row of rows) io.stdout(`${row.map((cell, c) => (c === row.length - 1 ? cell : cell.padEnd(widths[c]!))).join("  ")}\n`);
  // Beside a sentence encoder, CLIP embeds only images (in its own vector space); alone it embeds both.
  const clipRole = active ? "for images" : "for text and images";
  io.stdout(`\n* in use for text, + installed (in ${modelRoots(settings.embed).join(" or ")})${clip ? `; Chinese-CLIP in ${clip} (${clipRole})` : `; no Chinese-CLIP (${CLIP_FOLDER_NAME})`}\n`);
  return 0;
}

export async function runModelCommand(rest: string[], args: ParsedArgs, settings: Settings, io: ModelCommandIo): Promise<number> {
  const [verb, what, ...extra] = rest;
  const flag = (name: string) => {
    const value = args.flags.get(name);
    return typeof value === "string" && value ? value : undefined;
  };
  if (verb === "list" && !what) return list(settings, io);
  if (verb === "pull" && what && extra.length === 0) {
    try {
      return await pull(what, { url: flag("url"), mirror: flag("mirror") }, settings, io);
    } catch (error) {
      if (!(error instanceof DownloadError)) throw error;
      io.stderr(`homed: ${error.message}\n`);
      return 1;
    }
  }
  throw new UsageError("usage: homed model pull NAME|URL [--mirror HUB | --url BASE] | homed model list");
}

/**
 * `homed model pull NAME|URL [--url BASE]` and `homed model list`: installs a sentence encoder
 * into `<data>/models/NAME/` (every file checked by sha256, resumable, a progress bar on a
 * terminal) and makes it the text embedder in use; lists the catalog and what is installed.
 *
 * NAME is a catalog entry (model-catalog.ts), `--url` a mirror of its files. A URL is a folder
 * publishing `homed-model.json` (the catalog's entry shape, checksums included). A file the
 * entry gives no checksum for is trusted on first download: its sha256 is printed and recorded
 * in `homed-pull.json`, and a later pull must match it.
 */
import { SingleBar } from "cli-progress";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { z } from "zod";
import { UsageError, type CommandIo, type ParsedArgs, type Settings } from "../config/index.ts";
import { catalogEntry, CATALOG, ModelEntrySchema, type ModelEntry } from "./model-catalog.ts";
import { DownloadError, downloadFile, sha256File } from "./model-download.ts";
import { ACTIVE_FILE, activeSentenceFolder, listSentenceFolders, PULL_RECORD, PullRecordSchema, SENTENCE_CONFIG } from "./sentence-folder.ts";
import { CLIP_FOLDER_NAME, findClipFolder } from "./clip-folder.ts";

export type ModelCommandIo = Pick<CommandIo, "stdout" | "stderr" | "isTty">;

type PullRecord = z.infer<typeof PullRecordSchema>;

function readPullRecord(dir: string): PullRecord {
  const path = join(dir, PULL_RECORD);
  if (!existsSync(path)) return { files: {} };
  const parsed = PullRecordSchema.safeParse(JSON.parse(readFileSync(path, "utf8")));
  return parsed.success ? parsed.data : { files: {} };
}

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

async function pull(what: string, mirror: string | undefined, settings: Settings, io: ModelCommandIo): Promise<number> {
  const isUrl = /^https?:\/\//.test(what);
  const known = isUrl ? undefined : catalogEntry(what);
  if (!isUrl && !known) throw new UsageError(`homed model pull: no model ${what} in the catalog (${CATALOG.map((e) => e.name).join(", ")}); give a URL for another`);
  const entry = isUrl ? await entryAt(what) : { ...known!, baseUrl: mirror?.replace(/\/+$/, "") ?? known!.baseUrl };
  const dir = join(settings.embed.modelsDir, entry.name);
  mkdirSync(dir, { recursive: true });
  const record = readPullRecord(dir);
  for (const file of entry.files) {
    const url = `${entry.baseUrl}/${file.path}`;
    const dest = join(dir, file.save);
    const expected = file.sha256 ?? record.files[file.save]?.sha256;
    if (expected && existsSync(dest) && (await sha256File(dest)) === expected) {
      io.stderr(`${file.save}: already here, sha256 matches\n`);
      continue;
    }
    const bar = io.isTty ? new SingleBar({ format: `${file.save} [{bar}] {percentage}% {value}/{total} bytes`, hideCursor: true }) : undefined;
    let started = false;
    const hash = await downloadFile(url, dest, {
      sha256: expected,
      onProgress: ({ received, total }) => {
        if (!bar) return;
        if (!started) bar.start(total ?? received, received);
        started = true;
        bar.setTotal(total ?? received);
        bar.update(received);
      },
    }).finally(() => bar?.stop());
    if (!expected) io.stderr(`${file.save}: trusted sha256 ${hash} on first download (recorded in ${join(dir, PULL_RECORD)}; later pulls must match)\n`);
    else io.stderr(`${file.save}: sha256 ${hash} verified\n`);
    record.files[file.save] = { url, sha256: hash };
    writeFileSync(join(dir, PULL_RECORD), `${JSON.stringify(record, null, 2)}\n`);
  }
  writeFileSync(join(dir, SENTENCE_CONFIG), `${JSON.stringify({ name: entry.name, ...entry.config }, null, 2)}\n`);
  writeFileSync(join(settings.embed.modelsDir, ACTIVE_FILE), `${entry.name}\n`);
  io.stdout(`installed ${entry.name} in ${dir}; it is now the text embedder (restart the daemon; stored memory is re-embedded in the background)\n`);
  return 0;
}

function list(settings: Settings, io: ModelCommandIo): number {
  const { modelsDir } = settings.embed;
  const installed = new Set(listSentenceFolders(modelsDir));
  const active = activeSentenceFolder(modelsDir);
  const rows: string[][] = [["", "name", "dim", "size", "licence", "about"]];
  const names = [...new Set([...CATALOG.map((e) => e.name), ...installed])];
  for (const name of names) {
    const entry = catalogEntry(name);
    const mark = active === join(modelsDir, name) ? "*" : installed.has(name) ? "+" : "";
    rows.push([mark, name, String(entry?.dimension ?? "?"), entry?.size ?? "", entry?.licence ?? "", entry?.about ?? "(not in the catalog)"]);
  }
  const widths = rows[0]!.map((_, c) => Math.max(...rows.map((r) => r[c]!.length)));
  for (const row of rows) io.stdout(`${row.map((cell, c) => (c === row.length - 1 ? cell : cell.padEnd(widths[c]!))).join("  ")}\n`);
  const clip = findClipFolder(modelsDir);
  // Beside a sentence encoder, CLIP embeds only images (in its own vector space); alone it embeds both.
  const clipRole = active ? "for images" : "for text and images";
  io.stdout(`\n* in use for text, + installed (in ${modelsDir})${clip ? `; Chinese-CLIP in ${clip} (${clipRole})` : `; no Chinese-CLIP (${CLIP_FOLDER_NAME})`}\n`);
  return 0;
}

export async function runModelCommand(rest: string[], args: ParsedArgs, settings: Settings, io: ModelCommandIo): Promise<number> {
  const [verb, what, ...extra] = rest;
  const url = args.flags.get("url");
  if (verb === "list" && !what) return list(settings, io);
  if (verb === "pull" && what && extra.length === 0) {
    try {
      return await pull(what, typeof url === "string" && url ? url : undefined, settings, io);
    } catch (error) {
      if (!(error instanceof DownloadError)) throw error;
      io.stderr(`homed: ${error.message}\n`);
      return 1;
    }
  }
  throw new UsageError("usage: homed model pull NAME|URL [--url BASE] | homed model list");
}

/**
 * Installs one model into `<models>/<folder>/`: each file downloaded (resumable, sha256-checked),
 * the checksums recorded in `homed-pull.json` (trust on first use for files the entry gives
 * none), a `LICENCE.txt` saying what the model is, where it came from and under which licence
 * (what a package built from the folder carries), and for a sentence encoder its homed-embed.json
 * and the mark that makes it the text model. Chinese-CLIP needs no mark: homed finds its folder.
 *
 * Shared by `homed model pull` (terminal progress) and anything else that pulls (events only).
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { z } from "zod";
import { installFolder, type ModelEntry } from "./model-catalog.ts";
import { DownloadError, downloadFile, sha256File, type DownloadProgress } from "./model-download.ts";
import { fileUrl, type ModelSource } from "./model-source.ts";
import { ACTIVE_FILE, PULL_RECORD, PullRecordSchema, SENTENCE_CONFIG } from "./sentence-folder.ts";

type PullRecord = z.infer<typeof PullRecordSchema>;

export const LICENCE_NOTE = "LICENCE.txt";

export type PullEvents = {
  /** A file starts downloading: the `index`th (from 1) of the model's `of`. */
  onFile?(file: { save: string; url: string; index: number; of: number }): void;
  onProgress?(file: { save: string }, progress: DownloadProgress): void;
  /** One line for the person pulling: a file skipped, verified or trusted. */
  onNote?(line: string): void;
};

function readPullRecord(dir: string): PullRecord {
  const path = join(dir, PULL_RECORD);
  if (!existsSync(path)) return { files: {} };
  const parsed = PullRecordSchema.safeParse(JSON.parse(readFileSync(path, "utf8")));
  return parsed.success ? parsed.data : { files: {} };
}

function licenceNote(entry: ModelEntry, urls: string[]): string {
  return [
    `${entry.name}: ${entry.about}`,
    `Licence: ${entry.licence}`,
    ...(entry.licenceUrl ? [`Licence text: ${entry.licenceUrl}`] : []),
    ...(entry.licenceNote ? [entry.licenceNote] : []),
    `Languages: ${entry.languages.join(", ") || "?"}`,
    "Files, as downloaded by homed model pull (sha256 in homed-pull.json):",
    ...urls.map((url) => `  ${url}`),
    "",
  ].join("\n");
}

/** Pulls `entry` from `source` into `modelsDir`; resolves with the model's folder. Throws DownloadError. */
export async function pullModel(entry: ModelEntry, source: ModelSource, modelsDir: string, events: PullEvents = {}): Promise<string> {
  const dir = join(modelsDir, installFolder(entry));
  mkdirSync(dir, { recursive: true });
  const record = readPullRecord(dir);
  record.name = entry.name;
  const urls: string[] = [];
  const licenceTexts: string[] = [];
  for (const [i, file] of entry.files.entries()) {
    const url = fileUrl(entry, file, source);
    urls.push(url);
    const dest = join(dir, file.save);
    const expected = file.sha256 ?? record.files[file.save]?.sha256;
    if (expected && existsSync(dest) && (await sha256File(dest)) === expected) {
      events.onNote?.(`${file.save}: already here, sha256 matches`);
      if (file.licence) licenceTexts.push(readFileSync(dest, "utf8"));
      continue;
    }
    events.onFile?.({ save: file.save, url, index: i + 1, of: entry.files.length });
    let hash: string;
    try {
      // A licence text is not the model: tried once, and missing (a mirror of the Hub holds no GitHub file) it is said, not fatal.
      hash = await downloadFile(url, dest, { sha256: expected, attempts: file.licence ? 1 : undefined, onProgress: (progress) => events.onProgress?.(file, progress) });
    } catch (error) {
      if (!file.licence || !(error instanceof DownloadError)) throw error;
      events.onNote?.(`${file.save}: the licence text was not fetched (${error.message}); ${LICENCE_NOTE} says where it is`);
      continue;
    }
    if (file.licence) licenceTexts.push(readFileSync(dest, "utf8"));
    if (!expected) events.onNote?.(`${file.save}: trusted sha256 ${hash} on first download (recorded in ${join(dir, PULL_RECORD)}; later pulls must match)`);
    else events.onNote?.(`${file.save}: sha256 ${hash} verified`);
    record.files[file.save] = { url, sha256: hash };
    writeFileSync(join(dir, PULL_RECORD), `${JSON.stringify(record, null, 2)}\n`);
  }
  writeFileSync(join(dir, PULL_RECORD), `${JSON.stringify(record, null, 2)}\n`);
  writeFileSync(join(dir, LICENCE_NOTE), [licenceNote(entry, urls), ...licenceTexts].join("\n"));
  if (entry.kind === "sentence") {
    writeFileSync(join(dir, SENTENCE_CONFIG), `${JSON.stringify({ name: entry.name, ...entry.config }, null, 2)}\n`);
    writeFileSync(join(modelsDir, ACTIVE_FILE), `${entry.name}\n`);
  }
  return dir;
}

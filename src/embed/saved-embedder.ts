/**
 * The embedder saved from the console: an OpenAI-compatible endpoint in `<data>/homed.json`
 * (`"embedder": {"url", "model", "dimensions"?, "apiKey"?}`). Its key is sealed with the data
 * folder's secrets.key, as provider keys are (store/secret-box.ts), and kept beside its settings
 * rather than in the database, so that every command that opens the embedder — the daemon,
 * import, recall, mcp, doctor, embed — reads the same choice from the folder alone, without a
 * database read first. A copy of homed.json shows no key.
 *
 * `-embed-url` (flag or HOMED_EMBED_URL) is the explicit choice of whoever started homed and
 * wins over the saved one.
 */
import { renameSync, writeFileSync } from "node:fs";
import { z } from "zod";
import { ConfigFileError, readConfigFile } from "../config/index.ts";
import { openSecretBox, SecretBox } from "../store/index.ts";
import type { EmbedSettings } from "./select.ts";

export const EMBEDDER_SECTION = "embedder";
/** The name bound into the key's seal: a sealed value moved elsewhere does not open. */
const KEY_NAME = "embedder:apiKey";
/** A query's time budget when the endpoint came from homed.json (the -embed-timeout default). */
const QUERY_BUDGET_MS = 1200;

export const SavedEmbedderSchema = z
  .object({
    url: z.string().regex(/^https?:\/\/[^\s]+$/, "expected an http:// or https:// URL"),
    model: z.string().min(1).max(200),
    dimensions: z.number().int().min(1).max(65536).optional(),
    /** Sealed (homed-secret-v1:…); a key written by hand in plain text is used as it is. */
    apiKey: z.string().min(1).optional(),
  })
  .strict();
export type SavedEmbedder = z.output<typeof SavedEmbedderSchema>;

/** The saved embedder, or undefined; a malformed section is an error naming the file and field. */
export function readSavedEmbedder(dataDir: string): SavedEmbedder | undefined {
  const file = readConfigFile(dataDir);
  const raw = file.values[EMBEDDER_SECTION];
  if (raw === undefined) return undefined;
  const parsed = SavedEmbedderSchema.safeParse(raw);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0]!;
  throw new ConfigFileError(`Cannot read ${file.path}: ${[EMBEDDER_SECTION, ...issue.path].join(".")}: ${issue.message}`);
}

/**
 * Writes (or with undefined removes) the section, keeping every other section as it is. The
 * file is replaced whole by a rename, so a crash leaves the old file or the new, never half.
 */
export function writeSavedEmbedder(dataDir: string, value: { url: string; model: string; dimensions?: number; apiKey?: string } | undefined): void {
  const file = readConfigFile(dataDir);
  const values = { ...file.values };
  if (value) {
    const apiKey = value.apiKey ? openSecretBox(dataDir).box.seal(KEY_NAME, value.apiKey) : undefined;
    values[EMBEDDER_SECTION] = SavedEmbedderSchema.parse({ url: value.url, model: value.model, dimensions: value.dimensions, apiKey });
  } else delete values[EMBEDDER_SECTION];
  const temporary = `${file.path}.${process.pid}.tmp`;
  writeFileSync(temporary, `${JSON.stringify(values, null, 2)}\n`, { mode: 0o600 });
  renameSync(temporary, file.path);
}

/** The embedder settings a process uses: the flags', else the saved endpoint's, else the models folder's. */
export function withSavedEmbedder(dataDir: string, settings: EmbedSettings): EmbedSettings {
  if (settings.http) return settings;
  const saved = readSavedEmbedder(dataDir);
  if (!saved) return settings;
  const apiKey = saved.apiKey && SecretBox.isSealed(saved.apiKey) ? openSecretBox(dataDir).box.open(KEY_NAME, saved.apiKey) : saved.apiKey;
  return { ...settings, http: { baseUrl: saved.url, model: saved.model, dimension: saved.dimensions, apiKey, queryBudgetMs: QUERY_BUDGET_MS, source: "homed.json" } };
}

/**
 * A BERT-family sentence encoder's folder (the shape `bge-small-zh-v1.5`, `bge-small-en-v1.5`
 * and `all-MiniLM-L6-v2` are published in as ONNX): `model.onnx` (or `onnx/model.onnx`), its
 * WordPiece vocabulary as `vocab.txt` or inside `tokenizer.json`, and `homed-embed.json` naming
 * how a vector is made from the model's `last_hidden_state`: pooling (the [CLS] row or the
 * attention-masked mean), L2 normalisation, and the prefixes the model was trained with for
 * queries and passages. The config file is what marks a folder as a sentence encoder.
 */
import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { z } from "zod";
import { HomedError } from "../errors/index.ts";

export const SENTENCE_CONFIG = "homed-embed.json";
/** Names the sentence encoder in use when several are installed (written by `homed model pull`). */
export const ACTIVE_FILE = "active-text-model";

export const SentenceConfigSchema = z.object({
  /** Names the vector space (with the width): `bge-small-zh-v1.5` → `bge-small-zh-v1.5@512`. */
  name: z.string().regex(/^[\w.-]+$/, "letters, digits, '.', '_' or '-'"),
  pooling: z.enum(["cls", "mean"]),
  normalize: z.boolean().default(true),
  /** Put before a recall query (bge: "Represent this sentence for searching relevant passages: "). */
  queryPrefix: z.string().default(""),
  /** Put before a stored text (e5: "passage: "). */
  passagePrefix: z.string().default(""),
  /** Tokens the model reads, [CLS] and [SEP] included. */
  maxTokens: z.number().int().min(3).max(8192).default(512),
});
export type SentenceConfig = z.output<typeof SentenceConfigSchema>;

export type SentenceFolder = { dir: string; config: SentenceConfig; model: Uint8Array; vocab: string };

export class SentenceFolderError extends HomedError {
  constructor(dir: string, reason: string, options?: ErrorOptions) {
    super("model_folder", `Cannot load the sentence encoder in ${dir}: ${reason}`, options);
    this.name = "SentenceFolderError";
  }
}

/** What `homed model pull` recorded: each file's source and the sha256 it verified or trusted. */
export const PULL_RECORD = "homed-pull.json";
export const PullRecordSchema = z.object({
  /** The catalog's (or homed-model.json's) name: `make dist MODELS=DIR` names its package after it. */
  name: z.string().optional(),
  files: z.record(z.string(), z.object({ url: z.string(), sha256: z.string() })),
});

/**
 * A pulled folder's files are checked against the pull's record at every load, so a file
 * truncated or changed since (a disk error, a hand edit) is named instead of silently giving
 * other vectors. A folder put together by hand has no record and is not checked.
 */
function verifyPulled(dir: string): void {
  if (!existsSync(join(dir, PULL_RECORD))) return;
  const record = PullRecordSchema.safeParse(JSON.parse(readFileSync(join(dir, PULL_RECORD), "utf8")));
  if (!record.success) throw new SentenceFolderError(dir, `${PULL_RECORD} is malformed; pull the model again`);
  for (const [name, { sha256 }] of Object.entries(record.data.files)) {
    if (!existsSync(join(dir, name))) throw new SentenceFolderError(dir, `${name} is missing; pull the model again`);
    const hash = createHash("sha256")
      .update(readFileSync(join(dir, name)))
      .digest("hex");
    if (hash !== sha256) throw new SentenceFolderError(dir, `${name} changed since it was pulled (sha256 ${hash.slice(0, 12)}…, expected ${sha256.slice(0, 12)}…); pull the model again`);
  }
}

/** tokenizer.json's WordPiece model: the vocabulary as token → id. */
const TokenizerJsonSchema = z.object({ model: z.object({ type: z.literal("WordPiece"), vocab: z.record(z.string(), z.number().int().nonnegative()) }) });

/** Folders under `modelsDir` holding a sentence encoder, by name. */
export function listSentenceFolders(modelsDir: string): string[] {
  if (!existsSync(modelsDir)) return [];
  return readdirSync(modelsDir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && existsSync(join(modelsDir, entry.name, SENTENCE_CONFIG)))
    .map((entry) => entry.name)
    .sort();
}

/** The folder of the sentence encoder in use: the one ACTIVE_FILE names, else the first installed. */
export function activeSentenceFolder(modelsDir: string): string | undefined {
  const installed = listSentenceFolders(modelsDir);
  const chosen = existsSync(join(modelsDir, ACTIVE_FILE)) ? readFileSync(join(modelsDir, ACTIVE_FILE), "utf8").trim() : "";
  const name = installed.includes(chosen) ? chosen : installed[0];
  return name === undefined ? undefined : join(modelsDir, name);
}

/** The vocabulary as vocab.txt's text (one token per line, id = line), from either file. */
function readVocab(dir: string): string {
  if (existsSync(join(dir, "vocab.txt"))) return readFileSync(join(dir, "vocab.txt"), "utf8");
  if (!existsSync(join(dir, "tokenizer.json"))) throw new SentenceFolderError(dir, "neither vocab.txt nor tokenizer.json is there");
  let parsed: z.infer<typeof TokenizerJsonSchema>;
  try {
    parsed = TokenizerJsonSchema.parse(JSON.parse(readFileSync(join(dir, "tokenizer.json"), "utf8")));
  } catch (error) {
    // bge-m3 and other XLM-R models use a SentencePiece (Unigram) tokenizer, which homed does not have.
    throw new SentenceFolderError(dir, "tokenizer.json holds no WordPiece vocabulary (only BERT-style WordPiece tokenizers are supported)", { cause: error });
  }
  const lines: string[] = [];
  for (const [token, id] of Object.entries(parsed.model.vocab)) lines[id] = token;
  return Array.from(lines, (token) => token ?? "").join("\n");
}

export function readSentenceFolder(dir: string): SentenceFolder {
  let config: SentenceConfig;
  try {
    config = SentenceConfigSchema.parse(JSON.parse(readFileSync(join(dir, SENTENCE_CONFIG), "utf8")));
  } catch (error) {
    const why = error instanceof z.ZodError ? error.issues.map((i) => `${i.path.join(".") || "(root)"}: ${i.message}`).join("; ") : (error as Error).message;
    throw new SentenceFolderError(dir, `${SENTENCE_CONFIG} is not valid: ${why}`, { cause: error });
  }
  verifyPulled(dir);
  const modelPath = [join(dir, "model.onnx"), join(dir, "onnx", "model.onnx")].find((path) => existsSync(path));
  if (!modelPath) throw new SentenceFolderError(dir, "model.onnx is missing (looked in the folder and in onnx/)");
  return { dir, config, model: new Uint8Array(readFileSync(modelPath)), vocab: readVocab(dir) };
}

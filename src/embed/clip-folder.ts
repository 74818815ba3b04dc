/**
 * The Chinese-CLIP model folder: finds the files of the official ONNX export
 * (`vit-b-16.{txt,img}.{fp32,fp16}.onnx`, fp16 with its `.extra_file`, plus `vocab.txt`), reads
 * them, and guards them with a manifest. The first successful read records each file's size
 * and sha256 in `homed-manifest.json`; every later read compares, so a truncated download, a
 * flipped bit or a swapped file is named instead of silently producing different vectors.
 */
import { createHash } from "node:crypto";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { z } from "zod";
import { HomedError } from "../errors/index.ts";

/** Default folder name under `-models`. */
export const CLIP_FOLDER_NAME = "chinese-clip-vit-b16-onnx";
const MANIFEST_NAME = "homed-manifest.json";
const PREFIX = "vit-b-16";

export type Precision = "fp32" | "fp16";
export type EncoderFiles = { precision: Precision; model: Uint8Array; modelName: string; extra?: { name: string; data: Uint8Array } };
export type ClipFolder = {
  dir: string;
  vocab: string;
  text: EncoderFiles;
  image?: EncoderFiles;
  /** Every file read, by name: what the manifest covers. */
  files: Map<string, Uint8Array>;
  /** True when a manifest existed and every file matched it. */
  verified: boolean;
};

class ModelFolderError extends HomedError {
  constructor(dir: string, reason: string, options?: ErrorOptions) {
    super("model_folder", `Cannot load Chinese-CLIP from ${dir}: ${reason}`, options);
    this.name = "ModelFolderError";
  }
}

const ManifestSchema = z.object({
  format: z.literal(1),
  files: z.record(z.string(), z.object({ size: z.number().int().nonnegative(), sha256: z.string().regex(/^[0-9a-f]{64}$/) })),
});
type Manifest = z.infer<typeof ManifestSchema>;

/** `dir` itself when it holds the export, else `dir/chinese-clip-vit-b16-onnx`; undefined when neither does. */
export function findClipFolder(modelsDir: string): string | undefined {
  for (const dir of [modelsDir, join(modelsDir, CLIP_FOLDER_NAME)]) {
    const names = [`${PREFIX}.txt.fp32.onnx`, `${PREFIX}.txt.fp16.onnx`, "vocab.txt"];
    if (names.some((name) => existsSync(join(dir, name)))) return dir;
  }
  return undefined;
}

/** Picks fp32 when present (exact), else fp16 with its external-data file. */
function readEncoder(dir: string, kind: "txt" | "img", files: Map<string, Uint8Array>): EncoderFiles | undefined {
  for (const precision of ["fp32", "fp16"] as const) {
    const modelName = `${PREFIX}.${kind}.${precision}.onnx`;
    if (!existsSync(join(dir, modelName))) continue;
    const read = (name: string) => {
      const data = new Uint8Array(readFileSync(join(dir, name)));
      files.set(name, data);
      return data;
    };
    const model = read(modelName);
    const extraName = `${modelName}.extra_file`;
    if (existsSync(join(dir, extraName))) return { precision, model, modelName, extra: { name: extraName, data: read(extraName) } };
    if (precision === "fp16") throw new ModelFolderError(dir, `${modelName} needs ${extraName} beside it (the fp16 export keeps its weights there)`);
    return { precision, model, modelName };
  }
  return undefined;
}

function sha256(data: Uint8Array): string {
  return createHash("sha256").update(data).digest("hex");
}

function readManifest(dir: string): Manifest | undefined {
  const path = join(dir, MANIFEST_NAME);
  if (!existsSync(path)) return undefined;
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(path, "utf8"));
  } catch (error) {
    throw new ModelFolderError(dir, `${MANIFEST_NAME} is not JSON; delete it to record the folder anew`, { cause: error });
  }
  const parsed = ManifestSchema.safeParse(raw);
  if (!parsed.success) throw new ModelFolderError(dir, `${MANIFEST_NAME} is malformed; delete it to record the folder anew`);
  return parsed.data;
}

/** Compares the files about to be used with the manifest; false when there is none yet. */
function verifyManifest(dir: string, files: Map<string, Uint8Array>): boolean {
  const manifest = readManifest(dir);
  if (manifest) {
    for (const [name, data] of files) {
      const known = manifest.files[name];
      const accept = `delete ${MANIFEST_NAME} if you replaced it on purpose`;
      if (!known) throw new ModelFolderError(dir, `${name} was not there when the folder was first loaded; ${accept}`);
      if (known.size !== data.byteLength) {
        throw new ModelFolderError(dir, `${name} is ${data.byteLength} bytes, the manifest says ${known.size} (truncated or swapped); ${accept}`);
      }
      const hash = sha256(data);
      if (hash !== known.sha256) {
        throw new ModelFolderError(dir, `${name} changed since first load (sha256 ${hash.slice(0, 12)}…, expected ${known.sha256.slice(0, 12)}…); ${accept}`);
      }
    }
    return true;
  }
  return false;
}

/**
 * Records the manifest, called only after the model loaded and answered, so a folder that was
 * already broken on first load is never blessed. Returns a phrase for the status line.
 */
export function recordManifest(folder: ClipFolder): string {
  const { dir, files } = folder;
  if (folder.verified) return `verified ${files.size} files against ${MANIFEST_NAME}`;
  const record: Manifest = { format: 1, files: {} };
  for (const [name, data] of files) record.files[name] = { size: data.byteLength, sha256: sha256(data) };
  try {
    writeFileSync(join(dir, MANIFEST_NAME), `${JSON.stringify(record, null, 2)}\n`);
    return `recorded ${files.size} files in ${MANIFEST_NAME}`;
  } catch (error) {
    // A read-only model folder still works; it just cannot be guarded.
    return `could not write ${MANIFEST_NAME} (${(error as NodeJS.ErrnoException).code ?? (error as Error).message}), so corruption will go unnoticed`;
  }
}

/** Reads the folder; throws ModelFolderError naming what is missing or wrong. */
export function readClipFolder(dir: string): ClipFolder {
  const files = new Map<string, Uint8Array>();
  const vocabPath = join(dir, "vocab.txt");
  if (!existsSync(vocabPath)) throw new ModelFolderError(dir, "vocab.txt is missing (it comes with the model, from Chinese-CLIP's cn_clip/clip/vocab.txt)");
  const vocabBytes = new Uint8Array(readFileSync(vocabPath));
  files.set("vocab.txt", vocabBytes);
  const text = readEncoder(dir, "txt", files);
  if (!text) throw new ModelFolderError(dir, `no text encoder (${PREFIX}.txt.fp32.onnx or ${PREFIX}.txt.fp16.onnx)`);
  const image = readEncoder(dir, "img", files);
  const verified = verifyManifest(dir, files);
  return { dir, vocab: new TextDecoder().decode(vocabBytes), text, image, files, verified };
}

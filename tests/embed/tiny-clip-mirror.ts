/**
 * A tiny Chinese-CLIP served the way the Hub serves the real one: the catalog entry's
 * repositories, pinned revisions and file names (written out here, so a change of any fails the
 * tests), the export's tensor names (the fixture's), and an image tower that puts a red photo
 * along the text "猫". With `tinyCatalog`, a data folder's homed.json carries the catalog's own
 * entry with the tiny files' checksums in place of the real ones.
 */
import { createHash } from "node:crypto";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { CATALOG } from "../../src/embed/model-catalog.ts";
import { TINY_CLIP_DIR, tinyImageModel } from "../fixtures/make-tiny-clip.ts";
import { startModelMirror, type ModelMirror } from "./model-mirror.ts";
import { catAlignedWeight } from "./tiny-clip.ts";

export const sha = (bytes: Uint8Array) => createHash("sha256").update(bytes).digest("hex");
const fixture = (name: string) => new Uint8Array(readFileSync(join(TINY_CLIP_DIR, "fp16", name)));

const aligned = tinyImageModel("fp16", catAlignedWeight);
/** The tiny model, by file name. */
export const TINY: Record<string, Uint8Array> = {
  "vit-b-16.txt.fp16.onnx": fixture("vit-b-16.txt.fp16.onnx"),
  "vit-b-16.txt.fp16.onnx.extra_file": fixture("vit-b-16.txt.fp16.onnx.extra_file"),
  "vit-b-16.img.fp16.onnx": aligned.model,
  "vit-b-16.img.fp16.onnx.extra_file": aligned.extra!,
  "vocab.txt": fixture("vocab.txt"),
};

const EXPORT = "/eisneim/cn-clip_vit-b-16/resolve/0ab0e0ce47e796c2b98d2e3cc4d1190c9b3d426d";
const VOCAB = "/OFA-Sys/chinese-clip-vit-base-patch16/resolve/7e73595040fe9356e6c892252acd6325a00c21ae";
/** Where the Hub keeps each file. */
export const HUB_PATHS: Record<string, string> = {
  "vit-b-16.txt.fp16.onnx": `${EXPORT}/vit-b-16.txt.fp16.onnx`,
  "vit-b-16.txt.fp16.onnx.extra_file": `${EXPORT}/vit-b-16.txt.fp16.onnx.extra_file`,
  "vit-b-16.img.fp16.onnx": `${EXPORT}/vit-b-16.img.fp16.onnx`,
  "vit-b-16.img.fp16.onnx.extra_file": `${EXPORT}/vit-b-16.img.fp16.onnx.extra_file`,
  "vocab.txt": `${VOCAB}/vocab.txt`,
};

/** Where the licence text is served (the catalog's is on GitHub, which a test must not reach). */
export const LICENCE_PATH = "/licence/MIT-LICENSE.txt";
export const LICENCE_TEXT = "A licence text, served on loopback.\n";

/** A mirror on loopback serving the tiny model under the Hub's paths, and the licence text. */
export async function tinyClipMirror(): Promise<ModelMirror> {
  const mirror = await startModelMirror();
  for (const [name, path] of Object.entries(HUB_PATHS)) mirror.files.set(path, TINY[name]!);
  mirror.files.set(LICENCE_PATH, new TextEncoder().encode(LICENCE_TEXT));
  return mirror;
}

/**
 * Writes homed.json's `models` section: the built-in entry with the tiny checksums and its
 * licence text at `licenceBase` + LICENCE_PATH, and `extra` (a mirror).
 */
export function tinyCatalog(data: string, licenceBase: string, extra: object = {}): void {
  const real = CATALOG.find((e) => e.name === "chinese-clip-vit-b16")!;
  const files = real.files.map((f) => (f.licence ? { ...f, url: `${licenceBase}${LICENCE_PATH}` } : f.sha256 ? { ...f, sha256: sha(TINY[f.save]!) } : f));
  writeFileSync(join(data, "homed.json"), JSON.stringify({ models: { catalog: [{ ...real, files }], ...extra } }));
}

/** Copies of the tiny Chinese-CLIP folders in temp dirs (loading writes a manifest beside the files). */
import { cpSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { TINY_CLIP_DIR } from "../fixtures/make-tiny-clip.ts";

export function tinyClipCopy(precision: "fp32" | "fp16"): string {
  const dir = join(mkdtempSync(join(tmpdir(), "homed-clip-")), "chinese-clip-vit-b16-onnx");
  cpSync(join(TINY_CLIP_DIR, precision), dir, { recursive: true });
  return dir;
}

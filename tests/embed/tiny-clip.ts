/**
 * Copies of the tiny Chinese-CLIP folders in temp dirs (loading writes a manifest beside the
 * files), and the vectors those models must give, worked out from the fixture's weight formulas.
 */
import assert from "node:assert/strict";
import { cpSync } from "node:fs";
import { join } from "node:path";
import { CONTEXT_LENGTH, IMAGE_FEATURES, imageWeight, TINY_CLIP_DIR, TINY_DIM, textWeight, tinyVocab } from "../fixtures/make-tiny-clip.ts";
import { testDir } from "../support/temp-dir.ts";

export function tinyClipCopy(precision: "fp32" | "fp16"): string {
  const dir = join(testDir("homed-clip-"), "chinese-clip-vit-b16-onnx");
  cpSync(join(TINY_CLIP_DIR, precision), dir, { recursive: true });
  return dir;
}

/** OpenAI CLIP's published normalisation, which Chinese-CLIP reuses (written out, not imported). */
export const REF_MEAN = [0.48145466, 0.4578275, 0.40821073];
export const REF_STD = [0.26862954, 0.26130258, 0.27577711];

function unit(v: number[]): number[] {
  const n = Math.sqrt(v.reduce((s, x) => s + x * x, 0));
  return v.map((x) => x / n);
}

/** Σᵢ idᵢ·W_text[i], normalised. */
export function expectedText(ids: number[]): number[] {
  const padded = [...ids, ...new Array(CONTEXT_LENGTH - ids.length).fill(0)];
  return unit(Array.from({ length: TINY_DIM }, (_, j) => padded.reduce((s, id, i) => s + id * textWeight(i, j), 0)));
}

/** Quadrant means per channel (c·4 + q, q = TL, TR, BL, BR) through W_image, normalised. */
export function expectedImage(quadrants: [number, number, number][]): number[] {
  const features: number[] = [];
  for (let c = 0; c < 3; c++) for (const rgb of quadrants) features.push((rgb[c]! / 255 - REF_MEAN[c]!) / REF_STD[c]!);
  assert.equal(features.length, IMAGE_FEATURES);
  return unit(Array.from({ length: TINY_DIM }, (_, j) => features.reduce((s, f, i) => s + f * imageWeight(i, j), 0)));
}

/** "猫" as the CLIP tokenizer frames it: [CLS] 猫 [SEP]. */
export const CAT_IDS = [tinyVocab().indexOf("[CLS]"), tinyVocab().indexOf("猫"), tinyVocab().indexOf("[SEP]")];
/** The un-normalised text tower output for "猫": Σᵢ idᵢ·W_text[i]. */
const catRaw = (j: number) => CAT_IDS.reduce((s, id, i) => s + id * textWeight(i, j), 0);
/**
 * An image tower's weights under which a photo whose top-left red channel is above the mean
 * lies exactly along the text "猫" (below it: exactly opposite) — what real CLIP learns from
 * captioned photos. Feature 0 (red, top-left) maps onto "猫"; the other eleven onto nothing.
 */
export const catAlignedWeight = (i: number, j: number) => (i === 0 ? catRaw(j) : 0);

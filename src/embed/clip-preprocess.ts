/**
 * CLIP image preprocessing: resize the shorter side to 224 with bicubic resampling, centre-crop
 * 224×224, scale to [0, 1], normalise with CLIP's mean/std, lay out as NCHW float32.
 *
 * The resampler follows PIL's (which torchvision's Resize uses on images): separable passes,
 * the a = -0.5 cubic kernel widened by the scale factor when shrinking (so downscaling
 * averages instead of aliasing), weights normalised per output pixel, 8-bit result. No npm
 * library offers that exact filter for raw pixel buffers without pulling in a whole image
 * toolkit, and matching it is what keeps vectors close to the reference implementation.
 */
import type { RgbImage } from "./image-decode.ts";

export const CLIP_IMAGE_SIZE = 224;
const CLIP_MEAN = [0.48145466, 0.4578275, 0.40821073] as const;
const CLIP_STD = [0.26862954, 0.26130258, 0.27577711] as const;

function cubic(x: number): number {
  const a = -0.5;
  x = Math.abs(x);
  if (x < 1) return ((a + 2) * x - (a + 3)) * x * x + 1;
  if (x < 2) return (((x - 5) * x + 8) * x - 4) * a;
  return 0;
}

type Taps = { start: Int32Array; count: Int32Array; weights: Float64Array; width: number };

/** For each output position, the input positions it reads and their normalised weights. */
function taps(inSize: number, outSize: number): Taps {
  const scale = inSize / outSize;
  const filterScale = Math.max(scale, 1);
  const support = 2 * filterScale;
  const width = Math.ceil(support) * 2 + 1;
  const start = new Int32Array(outSize);
  const count = new Int32Array(outSize);
  const weights = new Float64Array(outSize * width);
  for (let o = 0; o < outSize; o++) {
    const center = (o + 0.5) * scale;
    const lo = Math.max(Math.floor(center - support + 0.5), 0);
    const hi = Math.min(Math.floor(center + support + 0.5), inSize);
    let sum = 0;
    for (let i = lo; i < hi; i++) {
      const w = cubic((i - center + 0.5) / filterScale);
      weights[o * width + i - lo] = w;
      sum += w;
    }
    if (sum !== 0) for (let i = 0; i < hi - lo; i++) weights[o * width + i]! /= sum;
    start[o] = lo;
    count[o] = hi - lo;
  }
  return { start, count, weights, width };
}

/** One separable pass along x (`horizontal`) or y, rounding to 8 bits as PIL does. */
function pass(src: RgbImage, outW: number, outH: number, horizontal: boolean): RgbImage {
  const t = horizontal ? taps(src.width, outW) : taps(src.height, outH);
  const out = new Uint8Array(outW * outH * 3);
  for (let y = 0; y < outH; y++) {
    for (let x = 0; x < outW; x++) {
      const o = horizontal ? x : y;
      const first = t.start[o]!;
      let r = 0;
      let g = 0;
      let b = 0;
      for (let k = 0; k < t.count[o]!; k++) {
        const w = t.weights[o * t.width + k]!;
        const s = horizontal ? (y * src.width + first + k) * 3 : ((first + k) * src.width + x) * 3;
        r += src.data[s]! * w;
        g += src.data[s + 1]! * w;
        b += src.data[s + 2]! * w;
      }
      const d = (y * outW + x) * 3;
      // Uint8Array assignment truncates and wraps; round and clamp like PIL's clip8.
      out[d] = Math.min(255, Math.max(0, Math.round(r)));
      out[d + 1] = Math.min(255, Math.max(0, Math.round(g)));
      out[d + 2] = Math.min(255, Math.max(0, Math.round(b)));
    }
  }
  return { width: outW, height: outH, data: out };
}

function resizeBicubic(image: RgbImage, width: number, height: number): RgbImage {
  let out = image;
  if (width !== out.width) out = pass(out, width, out.height, true);
  if (height !== out.height) out = pass(out, width, height, false);
  return out;
}

/** torchvision's Resize(int): the shorter side becomes `size`, the longer keeps the aspect (floored). */
function resizeShorterSide(image: RgbImage, size = CLIP_IMAGE_SIZE): RgbImage {
  const { width: w, height: h } = image;
  if (w <= h) return resizeBicubic(image, size, Math.floor((size * h) / w));
  return resizeBicubic(image, Math.floor((size * w) / h), size);
}

/** Python's round(): halves go to the even neighbour, as torchvision's CenterCrop offsets do. */
function roundHalfEven(x: number): number {
  const r = Math.round(x);
  return Math.abs(x % 1) === 0.5 && r % 2 !== 0 ? r - 1 : r;
}

function centerCrop(image: RgbImage, size = CLIP_IMAGE_SIZE): RgbImage {
  if (image.width < size || image.height < size) {
    throw new Error(`Cannot crop: ${image.width}×${image.height} is smaller than ${size}×${size}`);
  }
  const top = roundHalfEven((image.height - size) / 2);
  const left = roundHalfEven((image.width - size) / 2);
  const data = new Uint8Array(size * size * 3);
  for (let y = 0; y < size; y++) {
    const from = ((top + y) * image.width + left) * 3;
    data.set(image.data.subarray(from, from + size * 3), y * size * 3);
  }
  return { width: size, height: size, data };
}

/** A square RGB image to CLIP's input: float32 [1, 3, H, W], (v/255 − mean) / std per channel. */
function toClipTensor(image: RgbImage): Float32Array {
  const plane = image.width * image.height;
  const out = new Float32Array(3 * plane);
  for (let p = 0; p < plane; p++) {
    for (let c = 0; c < 3; c++) out[c * plane + p] = (image.data[p * 3 + c]! / 255 - CLIP_MEAN[c]!) / CLIP_STD[c]!;
  }
  return out;
}

export function preprocessForClip(image: RgbImage, size = CLIP_IMAGE_SIZE): Float32Array {
  return toClipTensor(centerCrop(resizeShorterSide(image, size), size));
}

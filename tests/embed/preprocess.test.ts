/**
 * Image decoding and CLIP preprocessing against pixel values worked out by hand here, not by
 * calling the code under test: uniform colours, crop placement, a bicubic step edge whose
 * overshoot distinguishes bicubic from bilinear, and a linear ramp that bicubic reproduces.
 */
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { encode as encodePng } from "fast-png";
import { decodeImage, preprocessForClip, type RgbImage } from "../../src/embed/index.ts";
import { jpegFile, pngFile, webpFile, type Pixel } from "./images.ts";
import { REF_MEAN as CLIP_MEAN, REF_STD as CLIP_STD } from "./tiny-clip.ts";

const SIZE = 224;
const PLANE = SIZE * SIZE;
const norm = (value: number, c: number) => (value / 255 - CLIP_MEAN[c]!) / CLIP_STD[c]!;
const at = (t: Float32Array, c: number, x: number, y: number) => t[c * PLANE + y * SIZE + x]!;

function image(width: number, height: number, pixel: Pixel): RgbImage {
  const data = new Uint8Array(width * height * 3);
  for (let y = 0; y < height; y++) for (let x = 0; x < width; x++) data.set(pixel(x, y), (y * width + x) * 3);
  return { width, height, data };
}

describe("image decoding", () => {
  test("PNG is decoded exactly, alpha dropped", async () => {
    const png = pngFile(3, 2, (x, y) => [x * 50, y * 100, 7]);
    const out = await decodeImage(png);
    assert.deepEqual([out.width, out.height], [3, 2]);
    assert.deepEqual(Array.from(out.data), [0, 0, 7, 50, 0, 7, 100, 0, 7, 0, 100, 7, 50, 100, 7, 100, 100, 7]);
  });

  test("grey and 16-bit PNGs become 8-bit RGB", async () => {
    const grey = encodePng({ width: 2, height: 1, data: Uint8Array.from([10, 200]), channels: 1, depth: 8 });
    assert.deepEqual(Array.from((await decodeImage(grey)).data), [10, 10, 10, 200, 200, 200]);
    const deep = encodePng({ width: 1, height: 1, data: Uint16Array.from([0x1234, 0xff00, 0x0100]), channels: 3, depth: 16 });
    assert.deepEqual(Array.from((await decodeImage(deep)).data), [0x12, 0xff, 0x01]);
  });

  test("JPEG is decoded close to its source colours", async () => {
    const out = await decodeImage(jpegFile(16, 16, () => [200, 30, 90]));
    assert.deepEqual([out.width, out.height], [16, 16]);
    for (const [i, want] of [200, 30, 90].entries()) assert.ok(Math.abs(out.data[i]! - want) <= 3, `channel ${i}: ${out.data[i]}`);
  });

  test("lossless WebP is decoded exactly", async () => {
    const out = await decodeImage(await webpFile(4, 2, (x, y) => [x * 60, y * 9, 250]));
    assert.deepEqual(Array.from(out.data.subarray(0, 6)), [0, 0, 250, 60, 0, 250]);
    assert.deepEqual(Array.from(out.data.subarray(21, 24)), [180, 9, 250]);
  });

  test("anything else is refused with a reason", async () => {
    await assert.rejects(decodeImage(new TextEncoder().encode("GIF89a....")), /Cannot decode image: not JPEG, PNG or WebP \(starts with 47 49 46 38\)/);
    const png = pngFile(8, 8, () => [1, 2, 3]);
    await assert.rejects(decodeImage(png.subarray(0, 40)), /Cannot decode image: broken png data/);
  });
});

describe("CLIP preprocessing", () => {
  test("a uniform image becomes (v/255 − mean)/std in every pixel of each NCHW plane", () => {
    const t = preprocessForClip(image(300, 200, () => [10, 128, 250]));
    assert.equal(t.length, 3 * PLANE);
    for (const [c, v] of [10, 128, 250].entries()) {
      for (const [x, y] of [
        [0, 0],
        [223, 223],
        [100, 17],
      ] as const)
        assert.ok(Math.abs(at(t, c, x, y) - norm(v, c)) < 1e-6);
    }
  });

  test("the centre is cropped: a 448×224 half-red/half-blue image splits at x = 112", () => {
    const t = preprocessForClip(image(448, 224, (x) => (x < 224 ? [255, 0, 0] : [0, 0, 255])));
    assert.ok(Math.abs(at(t, 0, 111, 50) - norm(255, 0)) < 1e-6);
    assert.ok(Math.abs(at(t, 0, 112, 50) - norm(0, 0)) < 1e-6);
    assert.ok(Math.abs(at(t, 2, 111, 50) - norm(0, 2)) < 1e-6);
    assert.ok(Math.abs(at(t, 2, 112, 50) - norm(255, 2)) < 1e-6);
  });

  test("portrait: the width is the shorter side; the crop keeps the middle half of a 112×224 image", () => {
    // 112×224 → 224×448 (aspect kept), crop top (448 − 224)/2 = 112, so output rows 0–223 show
    // source rows 56–167: the red middle band only, never the green top or blue bottom quarter.
    const t = preprocessForClip(image(112, 224, (_x, y) => (y < 56 ? [0, 255, 0] : y < 168 ? [255, 0, 0] : [0, 0, 255])));
    for (const y of [4, 112, 219]) {
      assert.ok(Math.abs(at(t, 0, 60, y) - norm(255, 0)) < 1e-6, `R at y=${y}`);
      assert.ok(Math.abs(at(t, 1, 60, y) - norm(0, 1)) < 1e-6, `G at y=${y}`);
    }
  });

  test("bicubic (a = −0.5) upscaling of a step edge: 20, 80 and an overshoot to 107", () => {
    // 112→224: output 111, 112, 113 sit at input 55.75, 56.25, 56.75; the step 0|100 is at 56.
    // Weights by hand: cubic(0.25)=0.8671875, cubic(0.75)=0.2265625, cubic(1.25)=−0.0703125,
    // cubic(1.75)=−0.0234375; so 100·(0.2265625−0.0234375)=20.3, 100·(0.8671875−0.0703125)=79.7,
    // 100·(0.8671875+0.2265625−0.0234375)=107.0. Bilinear would give 25, 75, 100.
    const t = preprocessForClip(image(112, 112, (x) => [x < 56 ? 0 : 100, 0, 0]));
    for (const [x, v] of [
      [110, 0],
      [111, 20],
      [112, 80],
      [113, 107],
    ] as const) {
      assert.ok(Math.abs(at(t, 0, x, 9) - norm(v, 0)) < 1e-6, `x=${x}: ${at(t, 0, x, 9)} vs ${norm(v, 0)}`);
    }
  });

  test("shrinking widens the kernel (anti-aliasing): one white column spreads as PIL spreads it", () => {
    // 448→224 (scale 2): support 4, taps at (i + 0.5 − centre)/2, weights summing to 2 before
    // normalising. Column 200 seen from output 99 (centre 199): cubic(0.75)/2·255 = 28.9;
    // from output 100 (centre 201): cubic(0.25)/2·255 = 110.6; from 101: cubic(1.25)/2 < 0 → 0.
    // Without widening, output 100 would read cubic(0.5)·255 = 143.
    const t = preprocessForClip(image(448, 448, (x) => (x === 200 ? [255, 255, 255] : [0, 0, 0])));
    for (const [x, v] of [
      [98, 0],
      [99, 29],
      [100, 111],
      [101, 0],
    ] as const) {
      assert.ok(Math.abs(at(t, 1, x, 77) - norm(v, 1)) < 1e-6, `x=${x}: ${at(t, 1, x, 77)} vs ${norm(v, 1)}`);
    }
  });

  test("shrinking a 336×300 ramp: bicubic reproduces a linear function, on both axes", () => {
    // Shorter side 300→224 (scale 300/224); width → floor(224·336/300) = 250, crop left 13, top 0.
    const t = preprocessForClip(image(336, 300, (x, y) => [Math.min(255, Math.max(0, x - 40)), Math.min(255, Math.max(0, y - 30)), 77]));
    let checked = 0;
    for (let x = 0; x < SIZE; x++) {
      const cx = (x + 13 + 0.5) * (336 / 250) - 0.5;
      if (cx < 46 || cx > 289) continue;
      for (const y of [40, 120, 200]) {
        const cy = (y + 0.5) * (300 / 224) - 0.5;
        assert.ok(Math.abs(at(t, 0, x, y) - norm(cx - 40, 0)) <= 0.51 / 255 / CLIP_STD[0]!, `R at x=${x}`);
        assert.ok(Math.abs(at(t, 1, x, y) - norm(cy - 30, 1)) <= 0.51 / 255 / CLIP_STD[1]!, `G at y=${y}`);
        assert.ok(Math.abs(at(t, 2, x, y) - norm(77, 2)) < 1e-6);
        checked++;
      }
    }
    assert.ok(checked > 400);
  });
});

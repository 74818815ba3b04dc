/**
 * Decodes JPEG, PNG and WebP into 8-bit RGB, the way PIL's `convert("RGB")` does for CLIP:
 * alpha is dropped (not composited), grey is replicated, 16-bit samples keep their high byte.
 * jpeg-js and fast-png are pure JavaScript; WebP uses libwebp compiled to WASM (@jsquash/webp),
 * initialised from the embedded .wasm because its default loader fetches a file beside itself,
 * which does not exist inside the binary.
 */
import jpeg from "jpeg-js";
import { convertIndexedToRgb, decode as decodePng } from "fast-png";
import decodeWebp, { init as initWebp } from "@jsquash/webp/decode.js";
import { readAsset } from "../runtime/index.ts";
import { HomedError } from "../errors/index.ts";

/** Interleaved RGB, 3 bytes per pixel, row by row. */
export type RgbImage = { width: number; height: number; data: Uint8Array };

/** Refuse absurd sizes before allocating: a 20 kB file can claim 60000×60000 pixels. */
const MAX_PIXELS = 64_000_000;

export class ImageDecodeError extends HomedError {
  constructor(reason: string, options?: ErrorOptions) {
    super("image_decode", `Cannot decode image: ${reason}`, options);
    this.name = "ImageDecodeError";
  }
}

type ImageFormat = "jpeg" | "png" | "webp";

function sniffFormat(bytes: Uint8Array): ImageFormat | undefined {
  const ascii = (from: number, to: number) => String.fromCharCode(...bytes.subarray(from, to));
  if (bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return "jpeg";
  if (bytes[0] === 0x89 && ascii(1, 4) === "PNG") return "png";
  if (ascii(0, 4) === "RIFF" && ascii(8, 12) === "WEBP") return "webp";
  return undefined;
}

/** Keeps the first three of `channels` samples per pixel (or replicates grey). */
function toRgb(width: number, height: number, samples: ArrayLike<number>, channels: number, shift = 0): RgbImage {
  const data = new Uint8Array(width * height * 3);
  for (let p = 0, s = 0; p < width * height; p++, s += channels) {
    const grey = channels < 3;
    data[p * 3] = samples[s]! >> shift;
    data[p * 3 + 1] = samples[grey ? s : s + 1]! >> shift;
    data[p * 3 + 2] = samples[grey ? s : s + 2]! >> shift;
  }
  return { width, height, data };
}

function checkSize(width: number, height: number): void {
  if (width < 1 || height < 1) throw new ImageDecodeError(`empty image (${width}×${height})`);
  if (width * height > MAX_PIXELS) throw new ImageDecodeError(`${width}×${height} is more than ${MAX_PIXELS / 1e6} megapixels`);
}

let webpReady: Promise<void> | undefined;

async function decodeWebpRgb(bytes: Uint8Array): Promise<RgbImage> {
  webpReady ??= readAsset("webp_dec.wasm").then(async (wasm) => initWebp(await WebAssembly.compile(wasm)));
  await webpReady;
  const copy = bytes.slice().buffer;
  const image = await decodeWebp(copy);
  checkSize(image.width, image.height);
  return toRgb(image.width, image.height, image.data, 4);
}

export async function decodeImage(bytes: Uint8Array): Promise<RgbImage> {
  const format = sniffFormat(bytes);
  try {
    if (format === "jpeg") {
      const image = jpeg.decode(bytes, { useTArray: true, formatAsRGBA: true, maxResolutionInMP: MAX_PIXELS / 1e6 });
      checkSize(image.width, image.height);
      return toRgb(image.width, image.height, image.data, 4);
    }
    if (format === "png") {
      const png = decodePng(bytes);
      checkSize(png.width, png.height);
      if (png.palette) return toRgb(png.width, png.height, convertIndexedToRgb(png), png.palette[0]!.length);
      if (png.depth < 8) throw new ImageDecodeError(`${png.depth}-bit grey PNG is not supported`);
      return toRgb(png.width, png.height, png.data, png.channels, png.depth === 16 ? 8 : 0);
    }
    if (format === "webp") return await decodeWebpRgb(bytes);
  } catch (error) {
    if (error instanceof ImageDecodeError) throw error;
    throw new ImageDecodeError(`broken ${format} data (${(error as Error).message})`, { cause: error });
  }
  const head = Array.from(bytes.subarray(0, 4), (b) => b.toString(16).padStart(2, "0")).join(" ");
  throw new ImageDecodeError(`not JPEG, PNG or WebP (starts with ${head || "nothing"})`);
}

/** Real small image files for tests, made with the encoders of the same libraries' peers. */
import jpeg from "jpeg-js";
import { encode as encodePng } from "fast-png";
import encodeWebp from "@jsquash/webp/encode.js";

export type Pixel = (x: number, y: number) => [number, number, number];

function rgba(width: number, height: number, pixel: Pixel): Uint8Array {
  const data = new Uint8Array(width * height * 4);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) data.set([...pixel(x, y), 255], (y * width + x) * 4);
  }
  return data;
}

export function pngFile(width: number, height: number, pixel: Pixel): Uint8Array {
  return encodePng({ width, height, data: rgba(width, height, pixel), channels: 4, depth: 8 });
}

export function jpegFile(width: number, height: number, pixel: Pixel, quality = 95): Uint8Array {
  return new Uint8Array(jpeg.encode({ width, height, data: rgba(width, height, pixel) }, quality).data);
}

export async function webpFile(width: number, height: number, pixel: Pixel): Promise<Uint8Array> {
  const data = new Uint8ClampedArray(rgba(width, height, pixel));
  const image = { data, width, height, colorSpace: "srgb" } as ImageData;
  return new Uint8Array(await encodeWebp(image, { lossless: 1 }));
}

/**
 * Images that come with a channel's message, as the model reads them: data-URL image parts. A URL
 * is downloaded (an image larger than MAX_IMAGE_BYTES is not: a model request has its own limits);
 * one that cannot be fetched is left out with a log line, so the text still gets its answer.
 */
import type { ImagePart } from "../kernel/index.ts";

/** An image larger than this is not downloaded. */
export const MAX_IMAGE_BYTES = 8 * 1024 * 1024;

export const dataUrlPart = (mimeType: string, base64: string): ImagePart => ({ type: "image_url", image_url: { url: `data:${mimeType};base64,${base64}` } });

/** The images at `urls` as data-URL parts, in order; `warn` names each one left out and why. */
export async function downloadImages(urls: readonly string[], warn: (line: string) => void): Promise<ImagePart[]> {
  const parts: ImagePart[] = [];
  for (const url of urls) {
    try {
      const response = await fetch(url, { signal: AbortSignal.timeout(15_000) });
      const type = response.headers.get("content-type") ?? "";
      const length = Number(response.headers.get("content-length") ?? 0);
      if (!response.ok || !type.startsWith("image/") || length > MAX_IMAGE_BYTES) throw new Error(`HTTP ${response.status} ${type} ${length} bytes`);
      const bytes = new Uint8Array(await response.arrayBuffer());
      if (bytes.length > MAX_IMAGE_BYTES) throw new Error(`${bytes.length} bytes, over ${MAX_IMAGE_BYTES}`);
      parts.push(dataUrlPart(type.split(";")[0]!, Buffer.from(bytes).toString("base64")));
    } catch (error) {
      warn(`image ${url} left out: ${(error as Error).message}`);
    }
  }
  return parts;
}

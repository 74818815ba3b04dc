/**
 * A tool result's content part that is large travels through the plugin's shared segment: stdio
 * carries the part with its field empty and `_meta["homed/bulk"] = {offset, length}`. This is the
 * plugin's end (the SDK places the bytes); the kernel reads them back in src/plugins/bulk.ts.
 */
import { META } from "./mcp.ts";
import type { PayloadRef } from "./segment.ts";

/** Parts at least this large go through the segment when the plugin has one (below, stdio is as fast). */
export const BULK_MIN_BYTES = 64 * 1024;
/**
 * A part this large that cannot go through the segment (none, or it is full) is refused as data
 * rather than sent over stdio: half the kernel's 16 MiB frame cap, leaving room for escaping.
 */
export const INLINE_MAX_BYTES = 8 * 1024 * 1024;

export type Part = { type: string; [key: string]: unknown };
/** Which field of a part the bytes fill: text as UTF-8, image and audio `data` as raw bytes (base64 on the wire). */
export const fieldOf = (part: Part): "text" | "data" | undefined => (part.type === "text" ? "text" : part.type === "image" || part.type === "audio" ? "data" : undefined);

/** The plugin's end: where it may place bytes (its segment), when it has one attached. */
export type BulkSink = { attached: boolean; allocate(length: number): { ref: PayloadRef; bytes: Uint8Array } };

/**
 * Plugin side: a text part (a string, or UTF-8 bytes such as a file's, passed on without being
 * decoded) or image/audio bytes as a content part — through the segment
 * when at least `minBytes` and there is room, else inline; `undefined` when it is too large for
 * either (the caller refuses it as data).
 */
export function contentPart(
  sink: BulkSink,
  minBytes: number,
  part: { type: "text"; text: string } | { type: "text"; utf8: Uint8Array } | { type: "image" | "audio"; data: Uint8Array; mimeType: string },
  log: (line: string) => void = () => {},
): Part | undefined {
  const length = "text" in part ? Buffer.byteLength(part.text) : "utf8" in part ? part.utf8.length : part.data.length;
  const buffer = (bytes: Uint8Array) => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const inline = (): Part | undefined => {
    if (length >= minBytes && length > INLINE_MAX_BYTES) return undefined;
    if ("text" in part) return part;
    return "utf8" in part ? { type: "text", text: buffer(part.utf8).toString("utf8") } : { ...part, data: buffer(part.data).toString("base64") };
  };
  if (length < minBytes || !sink.attached) return inline();
  let placed: { ref: PayloadRef; bytes: Uint8Array };
  try {
    placed = sink.allocate(length);
  } catch (error) {
    // The segment is full (earlier results not yet read): stdio, if the part is small enough.
    const sent = inline();
    log(`bulk: ${length} bytes found no room in the shared segment (${(error as Error).message}); ${sent ? "sent over stdio" : "refused as too_large"}`);
    return sent;
  }
  if ("text" in part) new TextEncoder().encodeInto(part.text, placed.bytes);
  else placed.bytes.set("utf8" in part ? part.utf8 : part.data);
  const _meta = { [META.bulk]: placed.ref };
  return part.type === "text" ? { type: "text", text: "", _meta } : { type: part.type, data: "", mimeType: part.mimeType, _meta };
}

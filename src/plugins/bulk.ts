/**
 * Bulk tool results through a plugin's shared segment: a content part whose text (or image or
 * audio bytes) is large is placed in the plugin's half of the segment, and stdio carries only
 * the part with its field empty and `_meta["homed/bulk"] = {offset, length}`. The kernel reads
 * it back into the part, frees the pages and tells the plugin it may reuse the room. Through
 * stdio, 100 MB costs a base64 or JSON-escaped copy on each side and a frame over the 16 MiB cap
 * is refused; through the segment it is one copy each way (bench/plugins).
 */
import type { CallToolResult } from "./mcp-client.ts";
import { fieldOf, META, PayloadRefSchema, type Part } from "../protocol/index.ts";
import type { SharedAccess } from "./shared-link.ts";

/** Kernel side: fills every bulk part of `result` from the segment and releases it; throws on a bad reference. */
export async function resolveBulk(result: CallToolResult, shared: SharedAccess | undefined, plugin: string): Promise<CallToolResult> {
  const parts = result.content as Part[];
  if (!parts.some((p) => (p._meta as Record<string, unknown> | undefined)?.[META.bulk] !== undefined)) return result;
  const content: Part[] = [];
  for (const part of parts) {
    const { [META.bulk]: raw, ...meta } = (part._meta as Record<string, unknown> | undefined) ?? {};
    const field = fieldOf(part);
    if (raw === undefined || !field) {
      content.push(part);
      continue;
    }
    const ref = PayloadRefSchema.safeParse(raw);
    if (!ref.success) throw new Error(`Cannot read ${plugin}'s result: its bulk reference is not {offset, length}`);
    if (!shared) throw new Error(`Cannot read ${plugin}'s result: it sent a bulk reference but has no shared segment`);
    let value: string;
    try {
      const bytes = shared.read(ref.data);
      value = field === "text" ? new TextDecoder("utf-8", { ignoreBOM: true }).decode(bytes) : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("base64");
    } finally {
      await shared.done(ref.data);
    }
    const { _meta: _, ...rest } = part;
    content.push({ ...rest, [field]: value, ...(Object.keys(meta).length ? { _meta: meta } : {}) });
  }
  return { ...result, content };
}

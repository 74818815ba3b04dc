/**
 * The history import format: JSON Lines, one message a line —
 * `{"conversation","session","time","speaker","role","text","id","images"?}`. Each line is
 * validated here, at the boundary; a bad line is reported with its 1-based line number.
 */
import { z } from "zod";
import type { ColdMessage } from "./cold-event.ts";

const ImportLineSchema = z.strictObject({
  conversation: z.string().min(1),
  session: z.string().min(1),
  time: z.iso.datetime({ offset: true }),
  speaker: z.string().min(1),
  role: z.enum(["user", "assistant", "system", "tool"]),
  text: z.string(),
  id: z.string().min(1),
  images: z.array(z.string().min(1)).optional(),
});

export type InvalidLine = { line: number; reason: string };

export type ParsedHistory = { messages: ColdMessage[]; invalid: InvalidLine[] };

function reasonOf(error: z.ZodError): string {
  const issue = error.issues[0]!;
  const where = issue.path.length ? `"${issue.path.join(".")}": ` : "";
  return `${where}${issue.message}`;
}

/** Parses every non-blank line; a message with no text and no image carries nothing to recall. */
export function parseHistory(content: string): ParsedHistory {
  const messages: ColdMessage[] = [];
  const invalid: InvalidLine[] = [];
  const seen = new Set<string>();
  content.split("\n").forEach((raw, i) => {
    const line = i + 1;
    if (raw.trim() === "") return;
    let json: unknown;
    try {
      json = JSON.parse(raw);
    } catch (error) {
      invalid.push({ line, reason: `not JSON (${(error as Error).message})` });
      return;
    }
    const parsed = ImportLineSchema.safeParse(json);
    if (!parsed.success) {
      invalid.push({ line, reason: reasonOf(parsed.error) });
      return;
    }
    const m = parsed.data;
    if (m.text.trim() === "" && !m.images?.length) {
      invalid.push({ line, reason: `"text": empty, and no images` });
      return;
    }
    const key = `${m.conversation}\u0000${m.id}`;
    if (seen.has(key)) {
      invalid.push({ line, reason: `"id": ${m.id} appears twice in conversation ${m.conversation}` });
      return;
    }
    seen.add(key);
    messages.push({
      conversation: m.conversation,
      session: m.session,
      time: Date.parse(m.time),
      speaker: m.speaker,
      role: m.role,
      text: m.text,
      sourceId: m.id,
      images: m.images,
    });
  });
  return { messages, invalid };
}

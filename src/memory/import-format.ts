/**
 * The history import format: JSON Lines, one message a line —
 * `{"conversation","session","time","speaker","role","text","id","images"?}`. Each line is
 * validated here, at the boundary; a bad line is reported with its 1-based line number.
 */
import { createReadStream } from "node:fs";
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

/** One line's message, or why it is invalid. A message with no text and no image carries nothing to recall. */
export function parseHistoryLine(raw: string, line: number): { message: ColdMessage } | { invalid: InvalidLine } {
  let json: unknown;
  try {
    json = JSON.parse(raw);
  } catch (error) {
    return { invalid: { line, reason: `not JSON (${(error as Error).message})` } };
  }
  const parsed = ImportLineSchema.safeParse(json);
  if (!parsed.success) return { invalid: { line, reason: reasonOf(parsed.error) } };
  const m = parsed.data;
  if (m.text.trim() === "" && !m.images?.length) return { invalid: { line, reason: `"text": empty, and no images` } };
  return {
    message: {
      conversation: m.conversation,
      session: m.session,
      time: Date.parse(m.time),
      speaker: m.speaker,
      role: m.role,
      text: m.text,
      sourceId: m.id,
      images: m.images,
    },
  };
}

/** Parses every non-blank line of a whole file held in memory (the console's upload). */
export function parseHistory(content: string): ParsedHistory {
  const messages: ColdMessage[] = [];
  const invalid: InvalidLine[] = [];
  const seen = new Set<string>();
  content.split("\n").forEach((raw, i) => {
    const line = i + 1;
    if (raw.trim() === "") return;
    const parsed = parseHistoryLine(raw, line);
    if ("invalid" in parsed) {
      invalid.push(parsed.invalid);
      return;
    }
    const m = parsed.message;
    const key = `${m.conversation}\u0000${m.sourceId}`;
    if (seen.has(key)) {
      invalid.push({ line, reason: `"id": ${m.sourceId} appears twice in conversation ${m.conversation}` });
      return;
    }
    seen.add(key);
    messages.push(m);
  });
  return { messages, invalid };
}

/**
 * The non-blank lines of a history file with their 1-based numbers, read a piece at a time: a
 * file of any size streams through in bounded memory (one piece plus the line being read).
 */
export async function* historyLines(path: string): AsyncGenerator<{ raw: string; line: number }> {
  let parts: string[] = [];
  let line = 0;
  for await (const piece of createReadStream(path, { encoding: "utf8", highWaterMark: 1 << 20 }) as AsyncIterable<string>) {
    let start = 0;
    for (let end = piece.indexOf("\n"); end !== -1; end = piece.indexOf("\n", start)) {
      parts.push(piece.slice(start, end));
      const raw = parts.join("");
      parts = [];
      line++;
      if (raw.trim() !== "") yield { raw, line };
      start = end + 1;
    }
    if (start < piece.length) parts.push(piece.slice(start));
  }
  const raw = parts.join("");
  line++;
  if (raw.trim() !== "") yield { raw, line };
}

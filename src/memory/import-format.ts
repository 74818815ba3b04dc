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

/**
 * The longest line read, in characters. A longer line is reported with its number and never held
 * whole (before: a 50 MB line was read, then crashed jieba's wasm after 13 s at 3.5 GB; now: the
 * error in 0.4 s at 129 MB). Why 8 MiB: one message is held several times over while it is
 * parsed and written (its text, the stored JSON, the SQL arguments) — measured peak RSS of a
 * 3-line import with one long line: 4 MB 350 MB, 8 MB 414 MB, 16 MB 552 MB (213 MB with none), and
 * an import stays under 500 MB. Its search analysis reads only its start (`text/limits.ts`).
 */
export const MAX_LINE_CHARS = 8 * 1024 * 1024;

/** One line of a history file: its text, or — over MAX_LINE_CHARS — only how long it is. */
export type HistoryLine = { line: number; raw: string } | { line: number; tooLong: number };

const tooLongReason = (chars: number) => `${chars.toLocaleString("en")} characters, over the ${MAX_LINE_CHARS.toLocaleString("en")} a line may hold (split the message)`;

export type ParsedHistory = { messages: ColdMessage[]; invalid: InvalidLine[] };

function reasonOf(error: z.ZodError): string {
  const issue = error.issues[0]!;
  const where = issue.path.length ? `"${issue.path.join(".")}": ` : "";
  return `${where}${issue.message}`;
}

/** One line's message, or why it is invalid. A message with no text and no image carries nothing to recall. */
export function parseHistoryLine(read: HistoryLine): { message: ColdMessage } | { invalid: InvalidLine } {
  const { line } = read;
  if ("tooLong" in read) return { invalid: { line, reason: tooLongReason(read.tooLong) } };
  const { raw } = read;
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
    const parsed = parseHistoryLine(raw.length > MAX_LINE_CHARS ? { line, tooLong: raw.length } : { line, raw });
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
 * file of any size streams through in bounded memory (one piece plus the line being read, itself
 * at most MAX_LINE_CHARS: past that only its length is counted).
 */
export async function* historyLines(path: string): AsyncGenerator<HistoryLine> {
  let parts: string[] = [];
  let chars = 0;
  let line = 0;
  const add = (part: string) => {
    chars += part.length;
    if (chars <= MAX_LINE_CHARS) parts.push(part);
    else parts = [];
  };
  const finish = (): HistoryLine | undefined => {
    line++;
    const read: HistoryLine = chars > MAX_LINE_CHARS ? { line, tooLong: chars } : { line, raw: parts.join("") };
    parts = [];
    chars = 0;
    return "raw" in read && read.raw.trim() === "" ? undefined : read;
  };
  for await (const piece of createReadStream(path, { encoding: "utf8", highWaterMark: 1 << 20 }) as AsyncIterable<string>) {
    let start = 0;
    for (let end = piece.indexOf("\n"); end !== -1; end = piece.indexOf("\n", start)) {
      add(piece.slice(start, end));
      const read = finish();
      if (read) yield read;
      start = end + 1;
    }
    if (start < piece.length) add(piece.slice(start));
  }
  const read = finish();
  if (read) yield read;
}

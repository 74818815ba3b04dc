/**
 * The OneBot 11 wire, as far as homed reads and writes it: the events an implementation (NapCat,
 * LLOneBot, Lagrange) pushes over its WebSocket, the action request `{action, params, echo}` and
 * its response `{status, retcode, data, echo}`, and message segments (`text`, `at`, `image`,
 * `reply`). Parsed with zod at the boundary: an event homed does not understand is skipped, never
 * guessed at. A message may arrive as a segment array or as a CQ-code string (the implementation's
 * `messagePostFormat`); both are read.
 */
import { z } from "zod";

export const SegmentSchema = z.object({ type: z.string(), data: z.record(z.string(), z.unknown()).nullish() });
export type Segment = z.infer<typeof SegmentSchema>;

const Id = z.union([z.number(), z.string()]).transform(String);

export const MessageEventSchema = z.looseObject({
  post_type: z.literal("message"),
  message_type: z.enum(["private", "group"]),
  message_id: Id,
  self_id: Id,
  user_id: Id,
  group_id: Id.optional(),
  message: z.union([z.array(SegmentSchema), z.string()]),
  sender: z.looseObject({ nickname: z.string().optional(), card: z.string().optional() }).optional(),
});
export type MessageEvent = z.infer<typeof MessageEventSchema>;

/** An action's answer: `ok` (or `async`) with data, or `failed` with a retcode. */
export const ActionResponseSchema = z.looseObject({
  status: z.string(),
  retcode: z.number(),
  data: z.unknown().optional(),
  message: z.string().optional(),
  wording: z.string().optional(),
  echo: z.unknown(),
});
export type ActionResponse = z.infer<typeof ActionResponseSchema>;

/** CQ codes' escapes (`&amp;` `&#91;` `&#93;` `&#44;`), undone. */
const unescapeCq = (text: string) => text.replace(/&#91;/g, "[").replace(/&#93;/g, "]").replace(/&#44;/g, ",").replace(/&amp;/g, "&");

/** A CQ-code string as segments: `[CQ:at,qq=10001] hi` → at + text. */
export function cqToSegments(message: string): Segment[] {
  const segments: Segment[] = [];
  let last = 0;
  for (const match of message.matchAll(/\[CQ:([a-z_]+)((?:,[^\]]*)?)\]/g)) {
    if (match.index > last) segments.push({ type: "text", data: { text: unescapeCq(message.slice(last, match.index)) } });
    const data = Object.fromEntries(
      match[2]!
        .split(",")
        .filter(Boolean)
        .map((kv) => [kv.slice(0, kv.indexOf("=")), unescapeCq(kv.slice(kv.indexOf("=") + 1))]),
    );
    segments.push({ type: match[1]!, data });
    last = match.index + match[0].length;
  }
  if (last < message.length) segments.push({ type: "text", data: { text: unescapeCq(message.slice(last)) } });
  return segments;
}

export const segmentsOf = (event: MessageEvent): Segment[] => (typeof event.message === "string" ? cqToSegments(event.message) : event.message);

/** The message's text (mentions of others as `@name`, of homed left out). */
export function messageText(segments: Segment[], selfId: string): string {
  return segments
    .map((s) => {
      if (s.type === "text") return String(s.data?.text ?? "");
      if (s.type === "at") return String(s.data?.qq) === selfId ? "" : `@${String(s.data?.name ?? s.data?.qq ?? "")}`;
      return "";
    })
    .join("")
    .trim();
}

/** Whether the message @-mentions homed's own account. */
export const mentions = (segments: Segment[], selfId: string) => segments.some((s) => s.type === "at" && String(s.data?.qq) === selfId);

/** The URLs of the message's images (an implementation gives each a downloadable `url`). */
export const imageUrls = (segments: Segment[]): string[] => segments.flatMap((s) => (s.type === "image" && typeof s.data?.url === "string" ? [s.data.url] : []));

/** The URLs of the message's voice recordings (`record` segments: a `url`, or an http(s) `file`). */
export const recordUrls = (segments: Segment[]): string[] =>
  segments.flatMap((s) => {
    if (s.type !== "record") return [];
    const url = [s.data?.url, s.data?.file].find((u): u is string => typeof u === "string" && /^https?:\/\//.test(u));
    return url ? [url] : [];
  });

export const text = (value: string): Segment => ({ type: "text", data: { text: value } });

/**
 * The chat exports people already have, read as history to import: ChatGPT's and Claude's
 * `conversations.json` (both a JSON array of conversations), besides homed's own JSON Lines
 * (`import-format.ts`). Each is validated here, at the boundary, and turned into the same
 * messages the JSON Lines file gives, so an upload of any of the three goes through one import,
 * all or nothing as before. The format is told from the content, not the file's name: both
 * exports are called conversations.json.
 */
import { z } from "zod";
import { HomedError } from "../errors/index.ts";
import type { ColdMessage } from "./cold-event.ts";
import { parseHistory } from "./import-format.ts";

export type UploadFormat = "jsonl" | "chatgpt" | "claude";
/** Where a bad entry is ("line 3", "conversation 2 (Trip plans)") and why. */
export type InvalidEntry = { where: string; reason: string };
export type ParsedUpload = { format: UploadFormat; messages: ColdMessage[]; invalid: InvalidEntry[] };

/** What the three formats look like, for the error that says none matched. */
export const UPLOAD_FORMATS =
  'homed\'s JSON Lines (one message a line), a ChatGPT export\'s conversations.json (conversations with a "mapping") or a Claude export\'s conversations.json (conversations with "chat_messages")';

// ChatGPT: each conversation is a tree of nodes (every edit or regeneration starts a branch);
// `current_node` is the leaf of the thread that was on screen, reached up through `parent`.
const ChatGptMessageSchema = z.looseObject({
  id: z.string().optional(),
  author: z.looseObject({ role: z.string() }),
  create_time: z.number().nullish(),
  content: z.looseObject({ content_type: z.string(), parts: z.array(z.unknown()).optional() }),
  recipient: z.string().nullish(),
  metadata: z.looseObject({ is_visually_hidden_from_conversation: z.boolean().optional() }).nullish(),
});
const ChatGptNodeSchema = z.looseObject({
  id: z.string(),
  parent: z.string().nullish(),
  children: z.array(z.string()).optional(),
  message: ChatGptMessageSchema.nullish(),
});
const ChatGptConversationSchema = z.looseObject({
  id: z.string().optional(),
  conversation_id: z.string().optional(),
  title: z.string().nullish(),
  create_time: z.number().nullish(),
  current_node: z.string().nullish(),
  mapping: z.record(z.string(), ChatGptNodeSchema),
});

// Claude: each conversation is a flat list of messages, the human's and the assistant's.
const ClaudeConversationSchema = z.looseObject({
  uuid: z.string().min(1),
  name: z.string().nullish(),
  created_at: z.iso.datetime({ offset: true }),
  chat_messages: z.array(
    z.looseObject({
      uuid: z.string().optional(),
      sender: z.string(),
      text: z.string().nullish(),
      content: z.array(z.looseObject({ type: z.string(), text: z.string().nullish() })).nullish(),
      created_at: z.iso.datetime({ offset: true }).nullish(),
    }),
  ),
});

type ChatGptConversation = z.infer<typeof ChatGptConversationSchema>;
type ClaudeConversation = z.infer<typeof ClaudeConversationSchema>;

/** The nodes of the thread on screen, oldest first: from `current_node` (else the last branch's leaf) up to the root. */
function visibleThread(conversation: ChatGptConversation): z.infer<typeof ChatGptNodeSchema>[] {
  const { mapping } = conversation;
  let leaf = conversation.current_node ? mapping[conversation.current_node] : undefined;
  if (!leaf) {
    // No current_node (older exports): follow the latest child from the root down.
    leaf = Object.values(mapping).find((n) => !n.parent || !mapping[n.parent]);
    const seen = new Set<string>();
    while (leaf?.children?.length && !seen.has(leaf.id)) {
      seen.add(leaf.id);
      const next = mapping[leaf.children.at(-1)!];
      if (!next) break;
      leaf = next;
    }
  }
  const thread: z.infer<typeof ChatGptNodeSchema>[] = [];
  const seen = new Set<string>();
  for (let node = leaf; node && !seen.has(node.id); node = node.parent ? mapping[node.parent] : undefined) {
    seen.add(node.id);
    thread.push(node);
  }
  return thread.reverse();
}

/** A ChatGPT conversation's visible thread: what the person and ChatGPT said, in text; system, tool and hidden nodes, tool calls and empty parts are left out. */
export function chatGptMessages(conversation: ChatGptConversation, index: number): ColdMessage[] {
  const id = conversation.id ?? conversation.conversation_id ?? `${index + 1}`;
  const started = (conversation.create_time ?? 0) * 1000;
  const messages: ColdMessage[] = [];
  for (const node of visibleThread(conversation)) {
    const m = node.message;
    if (!m || (m.author.role !== "user" && m.author.role !== "assistant")) continue;
    if (m.metadata?.is_visually_hidden_from_conversation) continue;
    if (m.recipient && m.recipient !== "all") continue; // the model calling a tool, not speaking
    if (m.content.content_type !== "text" && m.content.content_type !== "multimodal_text") continue;
    // multimodal_text holds images as objects among the strings: their pointers are not URLs homed could store.
    const text = (m.content.parts ?? [])
      .filter((p): p is string => typeof p === "string")
      .join("\n")
      .trim();
    if (text === "") continue;
    messages.push({
      conversation: `chatgpt:${id}`,
      session: id,
      time: m.create_time ? Math.round(m.create_time * 1000) : started,
      speaker: m.author.role === "user" ? "user" : "ChatGPT",
      role: m.author.role,
      text,
      sourceId: m.id ?? node.id,
    });
  }
  return messages;
}

/** A Claude conversation's messages in text: the content's text blocks (else `text`); empty ones are left out. */
export function claudeMessages(conversation: ClaudeConversation): ColdMessage[] {
  const started = Date.parse(conversation.created_at);
  const messages: ColdMessage[] = [];
  conversation.chat_messages.forEach((m, i) => {
    if (m.sender !== "human" && m.sender !== "assistant") return;
    const blocks = (m.content ?? []).filter((b) => b.type === "text" && b.text).map((b) => b.text);
    const text = (blocks.length > 0 ? blocks.join("\n\n") : (m.text ?? "")).trim();
    if (text === "") return;
    messages.push({
      conversation: `claude:${conversation.uuid}`,
      session: conversation.uuid,
      time: m.created_at ? Date.parse(m.created_at) : started,
      speaker: m.sender === "human" ? "user" : "Claude",
      role: m.sender === "human" ? "user" : "assistant",
      text,
      sourceId: m.uuid ?? `${i + 1}`,
    });
  });
  return messages;
}

function reasonOf(error: z.ZodError): string {
  const issue = error.issues[0]!;
  const where = issue.path.length ? `"${issue.path.join(".")}": ` : "";
  return `${where}${issue.message}`;
}

/** Which export an array of conversations is, by its first conversation's shape. */
function exportFormat(json: unknown): "chatgpt" | "claude" | undefined {
  const first = Array.isArray(json) ? json[0] : undefined;
  if (typeof first !== "object" || first === null) return undefined;
  if ("mapping" in first) return "chatgpt";
  if ("chat_messages" in first) return "claude";
  return undefined;
}

/**
 * An uploaded history in any of the three formats. JSON Lines unless the content is one JSON
 * array (a JSON Lines file is objects, one a line, never an array); an array must be one of the
 * two exports, else the error names the formats homed reads. A conversation that does not have
 * its format's shape is invalid as a JSON Lines line is: named, and the whole upload refused
 * unless invalid entries are skipped.
 */
export function parseUpload(content: string): ParsedUpload {
  const text = content.replace(/^\uFEFF/, "").trimStart();
  if (!text.startsWith("[")) {
    const { messages, invalid } = parseHistory(content);
    return { format: "jsonl", messages, invalid: invalid.map((i) => ({ where: `line ${i.line}`, reason: i.reason })) };
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new HomedError("invalid_history", `Cannot import: the file starts as JSON but is not JSON (${(error as Error).message}); homed reads ${UPLOAD_FORMATS}`);
  }
  const format = exportFormat(json);
  if (!format) throw new HomedError("invalid_history", `Cannot import: this JSON array is not a chat export homed knows; homed reads ${UPLOAD_FORMATS}`);
  const messages: ColdMessage[] = [];
  const invalid: InvalidEntry[] = [];
  (json as unknown[]).forEach((entry, i) => {
    const title = typeof entry === "object" && entry !== null ? ((entry as { title?: unknown; name?: unknown }).title ?? (entry as { name?: unknown }).name) : undefined;
    const where = `conversation ${i + 1}${typeof title === "string" && title ? ` (${title})` : ""}`;
    if (format === "chatgpt") {
      const parsed = ChatGptConversationSchema.safeParse(entry);
      if (parsed.success) messages.push(...chatGptMessages(parsed.data, i));
      else invalid.push({ where, reason: `not a ChatGPT conversation: ${reasonOf(parsed.error)}` });
    } else {
      const parsed = ClaudeConversationSchema.safeParse(entry);
      if (parsed.success) messages.push(...claudeMessages(parsed.data));
      else invalid.push({ where, reason: `not a Claude conversation: ${reasonOf(parsed.error)}` });
    }
  });
  return { format, messages, invalid };
}

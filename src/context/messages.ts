/**
 * OpenAI chat messages and context events, as zod schemas: the wire shape of a context dump
 * (`homed context render`) and of what the daemon renders into a request.
 *
 * An event is one turn unit — `[user?, assistant(tool_calls), tool, tool, …]` or a plain
 * message — and must be *closed*: every tool call it makes is answered inside it before the
 * next non-tool message, and every tool result answers a call made inside it. That is what
 * lets rendering treat an event as an indivisible unit: whole events can never break a pair.
 */
import { z } from "zod";

export const ToolCallSchema = z.object({
  id: z.string().min(1),
  type: z.literal("function").default("function"),
  function: z.object({ name: z.string().min(1), arguments: z.string() }),
});

const ContentPartSchema = z.discriminatedUnion("type", [
  z.object({ type: z.literal("text"), text: z.string() }),
  z.object({
    type: z.literal("image_url"),
    image_url: z.object({ url: z.string().min(1), detail: z.enum(["auto", "low", "high"]).optional() }),
  }),
  /**
   * A voice message, kept as an audio block (its bytes in block_data, under `id`). Never sent to
   * a model: what the voice said reaches the model and recall as the text part beside it
   * (kernel/voice.ts). `data` (base64) is carried only until the event is stored.
   */
  z.object({
    type: z.literal("audio"),
    audio: z.object({
      id: z.string().min(1),
      mime: z.string().min(1),
      size: z.number().int().nonnegative(),
      source: z.string().min(1),
      /** What it said; absent when it could not be transcribed (no endpoint, or the endpoint failed). */
      transcript: z.string().optional(),
      data: z.string().optional(),
    }),
  }),
]);

export const ContentSchema = z.union([z.string(), z.array(ContentPartSchema)]);

export const ChatMessageSchema = z.discriminatedUnion("role", [
  z.object({ role: z.literal("system"), content: ContentSchema, name: z.string().optional() }),
  z.object({ role: z.literal("user"), content: ContentSchema, name: z.string().optional() }),
  z.object({
    role: z.literal("assistant"),
    content: ContentSchema.nullable().optional(),
    tool_calls: z.array(ToolCallSchema).optional(),
    name: z.string().optional(),
  }),
  z.object({ role: z.literal("tool"), content: ContentSchema, tool_call_id: z.string().min(1) }),
]);

export type ToolCall = z.infer<typeof ToolCallSchema>;
export type Content = z.infer<typeof ContentSchema>;
export type ChatMessage = z.infer<typeof ChatMessageSchema>;

/** Problems that make a list of messages not one closed group, or [] when it is one. */
export function groupProblems(messages: readonly ChatMessage[]): string[] {
  const problems: string[] = [];
  const seen = new Set<string>();
  let open = new Set<string>();
  const closeOpen = (at: string) => {
    if (open.size > 0) problems.push(`tool call ${[...open].map((id) => `"${id}"`).join(", ")} not answered before ${at}`);
    open = new Set();
  };
  messages.forEach((message, i) => {
    if (message.role === "tool") {
      if (!open.delete(message.tool_call_id)) {
        problems.push(`messages[${i}]: tool result for "${message.tool_call_id}" answers no open call of this event`);
      }
      return;
    }
    closeOpen(`messages[${i}]`);
    if (message.role !== "assistant") return;
    const calls = message.tool_calls ?? [];
    if (calls.length === 0 && (message.content === null || message.content === undefined)) {
      problems.push(`messages[${i}]: assistant message has neither content nor tool_calls`);
    }
    for (const call of calls) {
      if (seen.has(call.id)) problems.push(`messages[${i}]: tool call id "${call.id}" used twice`);
      seen.add(call.id);
      open.add(call.id);
    }
  });
  closeOpen("the end of the event");
  return problems;
}

export const ContextEventSchema = z
  .object({
    id: z.string().min(1),
    time: z.iso.datetime({ offset: true }),
    messages: z.array(ChatMessageSchema).min(1),
    /** What a turn had said when its client stopped it (the rest was never said). */
    stopped: z.literal(true).optional(),
  })
  .superRefine((event, ctx) => {
    for (const message of groupProblems(event.messages)) ctx.addIssue({ code: "custom", message });
  });

export type ContextEvent = z.infer<typeof ContextEventSchema>;

export type AudioPart = Extract<Exclude<Content, string>[number], { type: "audio" }>;

/** Messages as a model is sent them: audio parts (already told as text beside them) left out. */
export function withoutAudio<M extends ChatMessage>(messages: readonly M[]): M[] {
  return messages.map((m) => (Array.isArray(m.content) && m.content.some((p) => p.type === "audio") ? { ...m, content: m.content.filter((p) => p.type !== "audio") } : m));
}

/** Plain text of a content value: text parts joined, images left out. */
export function contentText(content: Content | null | undefined): string {
  if (content === null || content === undefined) return "";
  if (typeof content === "string") return content;
  return content
    .filter((part) => part.type === "text")
    .map((part) => part.text)
    .join("\n");
}

/** Plain text of a message, tool calls included as `name(arguments)`: what search and scoring read. */
export function messageText(message: ChatMessage): string {
  const text = contentText(message.content);
  if (message.role !== "assistant" || !message.tool_calls?.length) return text;
  const calls = message.tool_calls.map((c) => `${c.function.name}(${c.function.arguments})`);
  return [text, ...calls].filter(Boolean).join("\n");
}

/** Plain text of a whole event, one message per line. */
export function eventText(messages: readonly ChatMessage[]): string {
  return messages
    .map(messageText)
    .filter((t) => t.length > 0)
    .join("\n");
}

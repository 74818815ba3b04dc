/**
 * What `/v1/chat/completions` accepts, parsed once here: the fields homed honours (forwarded to
 * the provider as given), the ones it refuses with a reason, and the rest of OpenAI's request
 * ignored. Refused rather than ignored: what would silently change the answer's shape (`n`,
 * `logprobs`), the tools the model sees (`functions`, tools not of type function) or what the
 * user said (content parts other than text, images and audio). The client's function tools go to the
 * model beside homed's (a call to one pauses the turn).
 */
import { z } from "zod";
import { contentText, type Content } from "../context/index.ts";
import { HomedError } from "../errors/index.ts";
import { checkVoiceSize, voiceLine, type ImagePart, type ToolResult, type VoiceInput } from "../kernel/index.ts";
import type { ProviderMessage, ToolSpec } from "../llm/index.ts";

const nullish = <T extends z.ZodType>(schema: T) => schema.nullish();

const MessageSchema = z
  .object({
    role: z.string(),
    content: z.union([z.string(), z.array(z.object({ type: z.string(), text: z.string().optional() }).loose()), z.null()]).optional(),
  })
  .loose();

/** Sent to the provider with every model call of the turn, unchanged (`tool_choice`: the first only). */
export const FORWARDED_PARAMS = [
  "temperature",
  "top_p",
  "max_tokens",
  "max_completion_tokens",
  "stop",
  "seed",
  "response_format",
  "tool_choice",
  "parallel_tool_calls",
  "presence_penalty",
  "frequency_penalty",
] as const;

export const CompletionRequestSchema = z
  .object({
    model: z.string().min(1),
    messages: z.array(MessageSchema).min(1),
    stream: nullish(z.boolean()),
    stream_options: nullish(z.object({ include_usage: z.boolean().optional() }).loose()),
    user: z.string().max(200).optional(),
    n: nullish(z.number().int()),
    temperature: nullish(z.number().min(0).max(2)),
    top_p: nullish(z.number().min(0).max(1)),
    max_tokens: nullish(z.number().int().positive()),
    max_completion_tokens: nullish(z.number().int().positive()),
    stop: nullish(z.union([z.string(), z.array(z.string()).max(4)])),
    seed: nullish(z.number().int()),
    response_format: nullish(z.object({ type: z.enum(["text", "json_object", "json_schema"]) }).loose()),
    tool_choice: nullish(z.union([z.enum(["none", "auto", "required"]), z.object({ type: z.literal("function"), function: z.object({ name: z.string() }) }).loose()])),
    parallel_tool_calls: nullish(z.boolean()),
    presence_penalty: nullish(z.number().min(-2).max(2)),
    frequency_penalty: nullish(z.number().min(-2).max(2)),
    tools: nullish(z.array(z.looseObject({ type: z.string() }))),
    functions: nullish(z.array(z.unknown())),
    logprobs: nullish(z.boolean()),
  })
  .loose();
export type CompletionRequest = z.output<typeof CompletionRequestSchema>;

const refuse = (param: string, message: string) => new HomedError("unsupported_value", message, { param });

/** Throws `unsupported_value` (400, naming the field) for what homed does not honour. */
export function refuseUnsupported(body: CompletionRequest): void {
  if (body.n != null && body.n !== 1) throw refuse("n", `n=${body.n} is not supported: homed gives one answer per request (send n=1 or leave it out)`);
  // A prefill (an assistant message last, for the answer to continue) was once dropped silently.
  // homed's answer may take several model calls and tool rounds, and most OpenAI-compatible
  // providers answer anew after an assistant message rather than continue it: refused, named.
  const last = body.messages.length - 1;
  if (body.messages[last]!.role === "assistant") {
    throw refuse(
      `messages.${last}`,
      `messages.${last}: an assistant message at the end (a prefill for the answer to continue) is not supported: homed answers the newest user message; end messages with it, or put the wanted start of the answer in a system message`,
    );
  }
  if (body.logprobs) throw refuse("logprobs", "logprobs is not supported: homed's answer may span several model calls, so it has no single set of token probabilities");
  if (body.functions?.length) throw refuse("functions", "functions (the deprecated form) is not supported: send them as tools of type 'function'");
}

const ClientToolSchema = z.object({
  type: z.literal("function"),
  function: z.looseObject({
    name: z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, "a tool's name is 1 to 64 letters, digits, '_' or '-'"),
    description: z.string().max(10_000).optional(),
    parameters: z.record(z.string(), z.unknown()).optional(),
    strict: z.boolean().nullish(),
  }),
});

/**
 * The client's tools as the model gets them beside homed's: functions only, none named as one of
 * homed's (the model could not tell which would run).
 */
export function clientTools(body: Pick<CompletionRequest, "tools">, homedToolNames: readonly string[]): ToolSpec[] {
  return (body.tools ?? []).map((raw, i) => {
    if (raw.type !== "function") throw refuse(`tools.${i}.type`, `Tools of type '${raw.type}' are not supported: homed passes tools of type 'function' to the model`);
    const parsed = ClientToolSchema.safeParse(raw);
    if (!parsed.success) {
      const issue = parsed.error.issues[0]!;
      throw new HomedError("invalid_request", `tools.${i}.${issue.path.join(".")}: ${issue.message}`, { param: `tools.${i}` });
    }
    const { name, description, parameters } = parsed.data.function;
    if (homedToolNames.includes(name)) throw new HomedError("invalid_request", `tools.${i}: '${name}' is one of homed's own tools; name yours differently`, { param: `tools.${i}` });
    return { type: "function", function: { name, ...(description ? { description } : {}), parameters: parameters ?? { type: "object", properties: {} } } };
  });
}

/**
 * The client's results for the tool calls of homed's last answer: the tool messages that end the
 * request, after the assistant message that made the calls. Undefined when the request ends otherwise.
 */
export function trailingToolResults(body: Pick<CompletionRequest, "messages">): ToolResult[] | undefined {
  const results: ToolResult[] = [];
  for (let i = body.messages.length - 1; i >= 0 && body.messages[i]!.role === "tool"; i--) {
    const m = body.messages[i]!;
    const id = typeof m.tool_call_id === "string" ? m.tool_call_id : undefined;
    if (!id) throw new HomedError("invalid_request", `messages.${i}.tool_call_id: a tool message names the call it answers`, { param: `messages.${i}.tool_call_id` });
    results.unshift({ tool_call_id: id, content: contentText(m.content as never) });
  }
  return results.length ? results : undefined;
}

const ImagePartSchema = z.object({
  type: z.literal("image_url"),
  image_url: z.object({ url: z.string().min(1, "an image's url is a data: URL or an http(s) URL"), detail: z.enum(["auto", "low", "high"]).optional() }),
});

const AUDIO_FORMATS = { wav: "audio/wav", mp3: "audio/mpeg" } as const;

const InputAudioPartSchema = z.object({
  type: z.literal("input_audio"),
  input_audio: z.object({
    data: z.base64("input_audio.data is the recording in base64"),
    format: z.enum(Object.keys(AUDIO_FORMATS) as ["wav", "mp3"], { error: "input_audio.format is 'wav' or 'mp3'" }),
  }),
});

/** An `input_audio` part checked (size first, before its base64 is read): the recording. */
function inputAudioPart(part: unknown, param: string): VoiceInput {
  const data = (part as { input_audio?: { data?: unknown } }).input_audio?.data;
  // Decoded size from the base64's length, so an oversize part is refused before it is decoded.
  if (typeof data === "string") checkVoiceSize(Math.floor((data.length * 3) / 4), `${param}.input_audio.data`);
  const parsed = InputAudioPartSchema.safeParse(part);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new HomedError("invalid_request", `${param}.${issue.path.join(".")}: ${issue.message}`, { param });
  }
  const { data: base64, format } = parsed.data.input_audio;
  return { bytes: Buffer.from(base64, "base64"), mime: AUDIO_FORMATS[format], source: "v1" };
}

/** What was heard in a recording sent before (by its bytes), when homed kept its transcript. */
export type HeardBefore = (bytes: Uint8Array) => string | undefined;

/**
 * A user message's content as the model gets it: text, or text and images in order. Only when
 * it has images is it kept as parts (a text-only array becomes its text, as homed stores text).
 * An `input_audio` part is checked and stands as its line here: the newest message's recordings
 * are heard by the kernel (inputAudio); an earlier one (a client re-sending its history) was
 * heard when it was sent, and reads as its kept transcript (`heard`), else `[voice message]`.
 * Other parts (files) are refused: dropping them would answer a question not asked.
 */
export function userContent(content: unknown, at: number, heard?: HeardBefore): Content {
  if (!Array.isArray(content)) return contentText(content as never);
  const parts = content.map((raw, j): Exclude<Content, string>[number] => {
    const part = raw as { type: string; text?: unknown };
    if (part.type === "text") {
      if (typeof part.text === "string") return { type: "text", text: part.text };
      throw new HomedError("invalid_request", `messages.${at}.content.${j}.text: a text part has its text`, { param: `messages.${at}.content.${j}` });
    }
    if (part.type === "input_audio") {
      const transcript = heard?.(inputAudioPart(part, `messages.${at}.content.${j}`).bytes);
      return { type: "text", text: transcript === undefined ? "[voice message]" : voiceLine(transcript) };
    }
    if (part.type !== "image_url")
      throw refuse(`messages.${at}.content.${j}.type`, `Content parts of type '${part.type}' are not supported: homed passes text, image_url and input_audio parts to the model`);
    const image = ImagePartSchema.safeParse(part);
    if (!image.success) {
      const issue = image.error.issues[0]!;
      throw new HomedError("invalid_request", `messages.${at}.content.${j}.${issue.path.join(".")}: ${issue.message}`, { param: `messages.${at}.content.${j}` });
    }
    return { type: "image_url", image_url: { url: image.data.image_url.url, ...(image.data.image_url.detail ? { detail: image.data.image_url.detail } : {}) } };
  });
  return parts.some((p) => p.type === "image_url") ? parts : contentText(parts);
}

/** The images of the newest user message: they go to the model and are stored with the turn's input. */
export function inputImages(body: Pick<CompletionRequest, "messages">): ImagePart[] {
  const at = body.messages.findLastIndex((m) => m.role === "user");
  if (at < 0) return [];
  const content = userContent(body.messages[at]!.content, at);
  return typeof content === "string" ? [] : content.filter((p): p is ImagePart => p.type === "image_url");
}

/** The recordings (`input_audio` parts) of message `at`. */
function recordingsOf(body: Pick<CompletionRequest, "messages">, at: number): VoiceInput[] {
  const content = body.messages[at]!.content;
  if (!Array.isArray(content)) return [];
  return content.flatMap((part, j) => (part.type === "input_audio" ? [inputAudioPart(part, `messages.${at}.content.${j}`)] : []));
}

/** The recordings of the newest user message: the kernel hears them as the turn's input. */
export function inputAudio(body: Pick<CompletionRequest, "messages">): VoiceInput[] {
  const at = body.messages.findLastIndex((m) => m.role === "user");
  return at < 0 ? [] : recordingsOf(body, at);
}

/** The recordings of the user messages before the newest (the client's history): their transcripts are looked up, not heard again. */
export function earlierRecordings(body: Pick<CompletionRequest, "messages">): VoiceInput[] {
  const newest = body.messages.findLastIndex((m) => m.role === "user");
  return body.messages.flatMap((m, i) => (i < newest && m.role === "user" ? recordingsOf(body, i) : []));
}

/** The honoured fields the client set, as they go to the provider. */
export function forwardedParams(body: CompletionRequest): Record<string, unknown> {
  const params: Record<string, unknown> = {};
  for (const name of FORWARDED_PARAMS) if (body[name] != null) params[name] = body[name];
  return params;
}

const ToolCallsSchema = z.array(z.object({ id: z.string().min(1), type: z.literal("function").optional(), function: z.object({ name: z.string(), arguments: z.string().default("") }) }));

/**
 * The client's conversation as the model gets it: its messages before the newest user message
 * (that one is the turn's input; after tool calls it is the paused turn's), and its system (or
 * developer) messages as instructions after homed's system prompt.
 */
export function clientConversation(body: Pick<CompletionRequest, "messages">, heard?: HeardBefore): { history: ProviderMessage[]; instructions?: string } {
  const messages = body.messages;
  let lastUser = messages.length;
  while (lastUser > 0 && messages[lastUser - 1]!.role !== "user") lastUser--;
  const text = (m: (typeof messages)[number]) => contentText(m.content as never);
  const instructions = messages
    .filter((m) => m.role === "system" || m.role === "developer")
    .map(text)
    .filter(Boolean)
    .join("\n\n");
  const history = messages.slice(0, Math.max(0, lastUser - 1)).flatMap((m, i): ProviderMessage[] => {
    if (m.role === "user") return [{ role: "user", content: userContent(m.content, i, heard) }];
    if (m.role === "tool") return typeof m.tool_call_id === "string" ? [{ role: "tool", tool_call_id: m.tool_call_id, content: text(m) }] : [];
    if (m.role !== "assistant") return [];
    const calls = m.tool_calls == null ? undefined : ToolCallsSchema.safeParse(m.tool_calls);
    if (calls && !calls.success) throw new HomedError("invalid_request", `messages.${i}.tool_calls: ${calls.error.issues[0]!.message}`, { param: `messages.${i}.tool_calls` });
    const toolCalls = calls?.data.map((c) => ({ id: c.id, type: "function" as const, function: c.function })) ?? [];
    return [{ role: "assistant", content: text(m) || null, ...(toolCalls.length ? { tool_calls: toolCalls } : {}) }];
  });
  return { history, ...(instructions ? { instructions } : {}) };
}

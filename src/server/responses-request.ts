/**
 * What `POST /v1/responses` accepts, parsed once here, and its input made into the chat form that
 * `/v1/chat/completions` takes (openai-turn.ts runs both), so a Responses request and a chat one
 * mean the same turn:
 *
 * - `input` (a string, or items: messages with `input_text` / `output_text` / `input_image`
 *   parts, `function_call`, `function_call_output`, `item_reference`) becomes messages — a run of
 *   `function_call` items the assistant message with those `tool_calls`, each output a tool message;
 * - `instructions` join homed's system prompt, as a chat request's system messages do;
 * - the client's `tools` of type `function` (flat, as the Responses API writes them) become chat
 *   tools; `tool_choice`, `text.format`, `temperature`, `top_p`, `max_output_tokens` and
 *   `parallel_tool_calls` are forwarded to the provider as their chat equivalents.
 *
 * Refused with 400 naming the field rather than dropped, since each would change the answer or
 * what the model is told: built-in tools (web_search, file_search, …), `background`,
 * `conversation`, `prompt` templates, `include` (other than `reasoning.encrypted_content`, which
 * homed has none of), `reasoning` settings, `top_logprobs`, item types other than those above
 * and `item_reference`, parts other than text and images, and an input that ends with the
 * assistant's own item (a prefill). An `item_reference` to one of homed's answers (`msg_…`) is its
 * stored text, under the check that guards its session (openai-session.ts). With a
 * continued session (`previous_response_id`), homed's stored history is the conversation, so the
 * input holds only what is new: the user's message, or the outputs of the calls it asked for.
 */
import { z } from "zod";
import { HomedError } from "../errors/index.ts";
import type { CompletionRequest } from "./openai-request.ts";
import type { ChatForm } from "./openai-turn.ts";

const nullish = <T extends z.ZodType>(schema: T) => schema.nullish();

const TextFormatSchema = z.discriminatedUnion("type", [
  z.object({ type: z.literal("text") }),
  z.object({ type: z.literal("json_object") }),
  z.object({ type: z.literal("json_schema"), name: z.string().min(1), schema: z.record(z.string(), z.unknown()), description: z.string().optional(), strict: z.boolean().nullish() }),
]);

export const ResponsesRequestSchema = z
  .object({
    model: z.string().min(1),
    input: z.union([z.string(), z.array(z.looseObject({ type: z.string().optional() }))]),
    instructions: nullish(z.string()),
    previous_response_id: nullish(z.string().max(200)),
    store: nullish(z.boolean()),
    stream: nullish(z.boolean()),
    user: z.string().max(200).optional(),
    metadata: nullish(z.record(z.string(), z.string())),
    tools: nullish(z.array(z.looseObject({ type: z.string() }))),
    tool_choice: nullish(z.union([z.enum(["none", "auto", "required"]), z.looseObject({ type: z.literal("function"), name: z.string() }), z.looseObject({ type: z.string() })])),
    parallel_tool_calls: nullish(z.boolean()),
    temperature: nullish(z.number().min(0).max(2)),
    top_p: nullish(z.number().min(0).max(1)),
    max_output_tokens: nullish(z.number().int().positive()),
    text: nullish(z.looseObject({ format: nullish(TextFormatSchema) })),
    truncation: nullish(z.enum(["auto", "disabled"])),
    include: nullish(z.array(z.string())),
    background: nullish(z.boolean()),
    conversation: nullish(z.unknown()),
    prompt: nullish(z.unknown()),
    reasoning: nullish(z.looseObject({ effort: nullish(z.string()), summary: nullish(z.string()), generate_summary: nullish(z.string()) })),
    top_logprobs: nullish(z.number().int()),
  })
  .loose();
export type ResponsesRequest = z.output<typeof ResponsesRequestSchema>;

const refuse = (param: string, message: string) => new HomedError("unsupported_value", message, { param });
const invalid = (param: string, message: string) => new HomedError("invalid_request", `${param}: ${message}`, { param });

/** Throws `unsupported_value` (400, naming the field) for what homed does not honour. */
export function refuseUnsupportedResponse(body: ResponsesRequest): void {
  if (body.background) throw refuse("background", "background is not supported: homed answers a response in the request that asks for it (send background: false or leave it out)");
  if (body.conversation != null) throw refuse("conversation", "conversation is not supported: continue a conversation with previous_response_id (the id of homed's last response)");
  if (body.prompt != null) throw refuse("prompt", "prompt (a stored prompt template) is not supported: send instructions and input instead");
  const include = (body.include ?? []).find((i) => i !== "reasoning.encrypted_content");
  if (include) throw refuse("include", `include '${include}' is not supported: homed's responses carry their text and function calls only`);
  if (body.reasoning && (body.reasoning.effort != null || body.reasoning.summary != null || body.reasoning.generate_summary != null)) {
    throw refuse("reasoning", "reasoning settings are not supported: homed's model is its configured provider's, asked as a chat model");
  }
  if (body.top_logprobs) throw refuse("top_logprobs", "top_logprobs is not supported: homed's answer may span several model calls, so it has no single set of token probabilities");
  (body.tools ?? []).forEach((tool, i) => {
    if (tool.type !== "function") throw refuse(`tools.${i}.type`, `Tools of type '${tool.type}' are not supported: homed offers the model its own tools and the client's tools of type 'function'`);
  });
}

/** The request fields forwarded to the provider, as chat completions name them. */
export function responseParams(body: ResponsesRequest): Record<string, unknown> {
  const params: Record<string, unknown> = {};
  if (body.temperature != null) params.temperature = body.temperature;
  if (body.top_p != null) params.top_p = body.top_p;
  if (body.max_output_tokens != null) params.max_tokens = body.max_output_tokens;
  if (body.parallel_tool_calls != null) params.parallel_tool_calls = body.parallel_tool_calls;
  const choice = body.tool_choice;
  if (typeof choice === "string") params.tool_choice = choice;
  else if (choice?.type === "function" && typeof choice.name === "string") params.tool_choice = { type: "function", function: { name: choice.name } };
  else if (choice) throw refuse("tool_choice", `tool_choice of type '${choice.type}' is not supported: name a function tool, or none, auto or required`);
  const format = body.text?.format;
  if (format?.type === "json_object") params.response_format = { type: "json_object" };
  if (format?.type === "json_schema") {
    const { type: _, ...schema } = format;
    params.response_format = { type: "json_schema", json_schema: schema };
  }
  return params;
}

const FunctionToolSchema = z.looseObject({
  type: z.literal("function"),
  name: z.string(),
  description: nullish(z.string()),
  parameters: nullish(z.record(z.string(), z.unknown())),
  strict: nullish(z.boolean()),
});

/** The client's function tools as chat completions writes them (checked there: names, clashes with homed's). */
function chatTools(tools: ResponsesRequest["tools"]): CompletionRequest["tools"] {
  return (tools ?? []).map((raw, i) => {
    const tool = FunctionToolSchema.safeParse(raw);
    if (!tool.success) throw invalid(`tools.${i}.${tool.error.issues[0]!.path.join(".")}`, tool.error.issues[0]!.message);
    const { name, description, parameters, strict } = tool.data;
    return { type: "function", function: { name, ...(description ? { description } : {}), ...(parameters ? { parameters } : {}), ...(strict != null ? { strict } : {}) } };
  });
}

const ImageSchema = z.object({ type: z.literal("input_image"), image_url: z.string().min(1, "an input_image has an image_url (a data: URL or an http(s) URL)"), detail: nullish(z.string()) });

type ChatPart = { type: "text"; text: string } | { type: "image_url"; image_url: { url: string; detail?: "auto" | "low" | "high" } } | { type: "input_audio"; input_audio: unknown };

/** A message item's content as chat parts: text, images and audio only, the rest refused by name. */
function chatContent(content: unknown, at: string): string | ChatPart[] {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) throw invalid(`${at}.content`, "a message's content is a string or an array of parts");
  return content.map((raw, j): ChatPart => {
    const part = raw as { type?: unknown; text?: unknown; refusal?: unknown; file_id?: unknown };
    const where = `${at}.content.${j}`;
    if (part.type === "input_text" || part.type === "output_text" || part.type === "text") {
      if (typeof part.text !== "string") throw invalid(where, "a text part has its text");
      return { type: "text", text: part.text };
    }
    if (part.type === "refusal" && typeof part.refusal === "string") return { type: "text", text: part.refusal };
    if (part.type === "input_image") {
      if (part.file_id != null) throw refuse(`${where}.file_id`, "Images by file_id are not supported: homed has no file store; send the image as image_url (a data: URL)");
      const image = ImageSchema.safeParse(part);
      if (!image.success) throw invalid(`${where}.${image.error.issues[0]!.path.join(".")}`, image.error.issues[0]!.message);
      const detail = image.data.detail === "low" || image.data.detail === "high" || image.data.detail === "auto" ? image.data.detail : undefined;
      return { type: "image_url", image_url: { url: image.data.image_url, ...(detail ? { detail } : {}) } };
    }
    // The same part as chat's; checked there (openai-request.ts), with its size bound.
    if (part.type === "input_audio") return { type: "input_audio", input_audio: (part as { input_audio?: unknown }).input_audio };
    throw refuse(`${where}.type`, `Content parts of type '${String(part.type)}' are not supported: homed passes text, input_image and input_audio parts to the model`);
  });
}

const MessageItemSchema = z.looseObject({ type: z.literal("message").optional(), role: z.enum(["user", "assistant", "system", "developer"]), content: z.unknown() });
const FunctionCallSchema = z.looseObject({ type: z.literal("function_call"), call_id: z.string().min(1), name: z.string().min(1), arguments: z.string() });
const FunctionOutputSchema = z.looseObject({
  type: z.literal("function_call_output"),
  call_id: z.string().min(1),
  output: z.union([z.string(), z.array(z.looseObject({ type: z.string(), text: z.string().optional() }))]),
});

type Message = CompletionRequest["messages"][number];

const ReferenceSchema = z.looseObject({ type: z.literal("item_reference"), id: z.string().min(1) });

/** The stored text of one of homed's answers, by its message item id; undefined when unknown or not the caller's to see. */
export type ReferencedAnswer = (id: string) => Promise<string | undefined>;

/**
 * One input item as chat messages (a function call joins the assistant message before it).
 * `resolve`: how an item_reference is read, or undefined where homed ignores the item (after the
 * last user message of a resumed turn: that round is the paused turn's own, which homed holds).
 */
async function addItem(messages: Message[], raw: Record<string, unknown>, at: string, resolve: ReferencedAnswer | undefined): Promise<void> {
  const parse = <T extends z.ZodType>(schema: T): z.output<T> => {
    const parsed = schema.safeParse(raw);
    if (!parsed.success) throw invalid(`${at}.${parsed.error.issues[0]!.path.join(".")}`.replace(/\.$/, ""), parsed.error.issues[0]!.message);
    return parsed.data;
  };
  const type = raw.type ?? "message";
  if (type === "message") {
    const item = parse(MessageItemSchema);
    messages.push({ role: item.role, content: chatContent(item.content, at) });
    return;
  }
  if (type === "function_call") {
    const call = parse(FunctionCallSchema);
    const toolCall = { id: call.call_id, type: "function", function: { name: call.name, arguments: call.arguments } };
    const last = messages.at(-1);
    if (last?.role === "assistant") last.tool_calls = [...((last.tool_calls as unknown[]) ?? []), toolCall];
    else messages.push({ role: "assistant", content: null, tool_calls: [toolCall] });
    return;
  }
  if (type === "function_call_output") {
    const output = parse(FunctionOutputSchema);
    const content = typeof output.output === "string" ? output.output : output.output.map((p) => p.text ?? "").join("");
    messages.push({ role: "tool", tool_call_id: output.call_id, content });
    return;
  }
  if (type === "item_reference") {
    const { id } = parse(ReferenceSchema);
    const text = resolve ? await resolve(id) : "";
    if (text === undefined) {
      throw new HomedError("not_found", `${at}.id: Item with id '${id}' not found (homed finds its answers' message items, msg_…, while their turn is in its memory; send other items whole)`, {
        param: `${at}.id`,
      });
    }
    messages.push({ role: "assistant", content: text });
    return;
  }
  throw refuse(`${at}.type`, `Input items of type '${String(type)}' are not supported: homed takes messages, function_call and function_call_output items`);
}

/**
 * The request in chat form. `continued`: homed keeps the conversation (a continued session), so
 * the input may hold only what is new.
 */
export async function chatForm(body: ResponsesRequest, continued: boolean, resolve: ReferencedAnswer): Promise<ChatForm> {
  const items = typeof body.input === "string" ? [{ type: "message", role: "user", content: body.input }] : body.input;
  const messages: Message[] = body.instructions ? [{ role: "system", content: body.instructions }] : [];
  const lastUser = items.findLastIndex((item) => (item.type ?? "message") === "message" && item.role === "user");
  const resumes = items.at(-1)?.type === "function_call_output";
  for (const [i, item] of items.entries()) {
    await addItem(messages, item, typeof body.input === "string" ? "input" : `input.${i}`, resumes && i > lastUser ? undefined : resolve);
  }
  const conversation = messages.filter((m) => m.role !== "system" && m.role !== "developer");
  const last = conversation.at(-1);
  if (last?.role === "assistant") {
    throw refuse(
      "input",
      "The input ends with the assistant's own item (a prefill, or a function_call without its output): homed answers after a user message, or after the outputs of the calls it asked for",
    );
  }
  if (continued) {
    const newOnly = last?.role === "tool" ? conversation.every((m) => m.role === "tool") : conversation.length === 1;
    if (!newOnly) {
      throw invalid(
        "input",
        "with previous_response_id homed continues its stored conversation: send only what is new (one user message, or the function_call_output items for the calls it asked for)",
      );
    }
  }
  return { model: body.model, messages, tools: chatTools(body.tools), ...(body.user !== undefined ? { user: body.user } : {}) };
}

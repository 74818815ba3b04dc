/**
 * What `/v1/chat/completions` and `/v1/responses` share: a request in chat form (messages, the
 * client's function tools, the fields forwarded to the provider) made into the kernel's turn. The
 * Responses route converts its input items to this form first (responses-request.ts), so the
 * rules below hold for both:
 *
 * - the newest user message is the turn's input; tool messages at the end are the results for a
 *   paused turn's calls, which then goes on;
 * - the session comes from the credential (openai-session.ts); the client's messages are the
 *   conversation the model sees unless a stored session is named (`X-Homed-Session`, or the
 *   response a Responses request continues), whose stored history homed keeps — the client's
 *   system messages still join homed's system prompt then, as they would otherwise.
 */
import { createHash } from "node:crypto";
import type { Context } from "hono";
import { contentText } from "../context/index.ts";
import { HomedError } from "../errors/index.ts";
import type { Kernel, TurnRequest, TurnResult } from "../kernel/index.ts";
import type { AuthEnv } from "./auth.ts";
import type { ServedModel } from "./openai-models.ts";
import { clientConversation, clientTools, type CompletionRequest, earlierRecordings, inputAudio, inputImages, trailingToolResults } from "./openai-request.ts";
import { heardTranscripts } from "../store/index.ts";
import { headerSession, type NamedSession, requestSession } from "./openai-session.ts";

/** A request in chat form, whatever route it came by. */
export type ChatForm = Pick<CompletionRequest, "model" | "messages" | "tools" | "user">;

export type OpenAiTurn = { turn: TurnRequest; model: ServedModel };

/**
 * The turn a request asks for (not yet run), or a 4xx naming the field at fault. `chatModel` reads
 * `model` (a chat model: the embedding model's id is refused); `field` is where
 * the client wrote its messages (`messages`, or a Responses request's `input`); `named` is the
 * stored session the request names, `X-Homed-Session` by default.
 */
export async function openAiTurn(
  kernel: Kernel,
  c: Context<AuthEnv>,
  form: ChatForm,
  options: { chatModel: (id: string) => Promise<ServedModel>; params: Record<string, unknown>; field: string; named?: NamedSession },
): Promise<OpenAiTurn> {
  const model = await options.chatModel(form.model);
  const tools = clientTools(
    form,
    kernel.tools.specs().map((t) => t.function.name),
  );
  // Tool messages at the end answer the calls of homed's last answer: the paused turn goes on.
  const toolResults = trailingToolResults(form);
  const lastUser = [...form.messages].reverse().find((m) => m.role === "user");
  const input = toolResults ? "" : lastUser ? contentText(lastUser.content as never).trim() : "";
  const images = toolResults ? [] : inputImages(form);
  const audio = toolResults ? [] : inputAudio(form);
  if (!toolResults && !input && !images.length && !audio.length) {
    throw new HomedError("invalid_request", `${options.field}: the request has no user message with text, an image or audio`, { param: options.field });
  }
  const { session, named } = await requestSession(kernel, c, form.user, options.named ?? headerSession(c));
  // The client's messages are the conversation, unless a session is named (homed keeps that one's history).
  // Recordings the client sends again with its history read as what was heard when they came.
  const earlier = named || toolResults ? [] : earlierRecordings(form);
  const sha256 = (bytes: Uint8Array) => createHash("sha256").update(bytes).digest("hex");
  const transcripts = earlier.length
    ? await heardTranscripts(
        kernel.client,
        session.partner,
        earlier.map((r) => sha256(r.bytes)),
      )
    : new Map<string, string>();
  const { history, instructions } = clientConversation(form, (bytes) => transcripts.get(sha256(bytes)));
  const conversation = named ? (instructions ? { instructions } : {}) : { history, ...(instructions ? { instructions } : {}) };
  const turn: TurnRequest = {
    session,
    input,
    images,
    ...(audio.length ? { audio } : {}),
    provider: model.provider,
    params: options.params,
    clientTools: tools,
    toolResults,
    ...conversation,
  };
  return { model, turn };
}

/**
 * OpenAI's finish_reason for how a turn ended: a blocked input is what a content filter does; a
 * last answer the model cut short (max_tokens reached, its own filter) says so, so a client can
 * tell a truncated answer from a whole one.
 */
export function finishReason(result: TurnResult): "tool_calls" | "content_filter" | "length" | "stop" {
  if (result.paused) return "tool_calls";
  if (result.stopReason === "blocked" || result.finishReason === "content_filter") return "content_filter";
  return result.finishReason === "length" ? "length" : "stop";
}

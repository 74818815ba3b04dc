/**
 * Token estimates of messages and events. Text is counted with a real tokenizer
 * (`countTokens`, o200k_base); the chat framing around it is a fixed allowance per message
 * and per tool call, the figures OpenAI documents for its chat format, rounded up so that
 * the estimate errs on the side of fitting.
 *
 * An event's tokens are exactly the sum of its messages' tokens, so a render's total can be
 * checked message by message and still equal the sum over the events it contains.
 */
import { countTokens } from "../text/index.ts";
import type { ChatMessage, Content } from "./messages.ts";

/** `<|start|>role<|message|> … <|end|>` framing of one message. */
export const MESSAGE_OVERHEAD = 4;
/** Framing of one tool call: id, type and the JSON around name and arguments. */
export const TOOL_CALL_OVERHEAD = 8;
/** A high-detail 1024×1024 image (85 + 4 × 170): larger images are scaled down to it. */
export const IMAGE_TOKENS = 765;

function contentTokens(content: Content | null | undefined): number {
  if (content === null || content === undefined) return 0;
  if (typeof content === "string") return countTokens(content);
  let sum = 0;
  for (const part of content) sum += part.type === "text" ? countTokens(part.text) : IMAGE_TOKENS;
  return sum;
}

export function messageTokens(message: ChatMessage): number {
  let sum = MESSAGE_OVERHEAD + contentTokens(message.content);
  if ("name" in message && message.name) sum += countTokens(message.name);
  if (message.role === "tool") sum += countTokens(message.tool_call_id);
  if (message.role === "assistant") {
    for (const call of message.tool_calls ?? []) {
      sum += TOOL_CALL_OVERHEAD + countTokens(call.id) + countTokens(call.function.name) + countTokens(call.function.arguments);
    }
  }
  return sum;
}

export function eventTokens(messages: readonly ChatMessage[]): number {
  let sum = 0;
  for (const message of messages) sum += messageTokens(message);
  return sum;
}

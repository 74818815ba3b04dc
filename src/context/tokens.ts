/**
 * Token estimates of messages and events. Text is counted with a real tokenizer
 * (`countTokens`, o200k_base); the chat framing around it is a fixed allowance per message
 * and per tool call, the figures OpenAI documents for its chat format, rounded up so that
 * the estimate errs on the side of fitting.
 *
 * An event's tokens are exactly the sum of its messages' tokens, so a render's total can be
 * checked message by message and still equal the sum over the events it contains.
 */
import { countTokens, countTokensYielding } from "../text/index.ts";
import type { ChatMessage } from "./messages.ts";

/** `<|start|>role<|message|> … <|end|>` framing of one message. */
export const MESSAGE_OVERHEAD = 4;
/** Framing of one tool call: id, type and the JSON around name and arguments. */
export const TOOL_CALL_OVERHEAD = 8;
/** A high-detail 1024×1024 image (85 + 4 × 170): larger images are scaled down to it. */
export const IMAGE_TOKENS = 765;

/** What one message costs: its fixed framing, and the texts whose tokens are counted. */
function messageParts(message: ChatMessage): { fixed: number; texts: string[] } {
  let fixed = MESSAGE_OVERHEAD;
  const texts: string[] = [];
  const content = message.content;
  if (typeof content === "string") texts.push(content);
  else {
    for (const part of content ?? []) {
      if (part.type === "text") texts.push(part.text);
      // Audio parts are never sent (withoutAudio): their transcript is a text part.
      else if (part.type === "image_url") fixed += IMAGE_TOKENS;
    }
  }
  if ("name" in message && message.name) texts.push(message.name);
  if (message.role === "tool") texts.push(message.tool_call_id);
  if (message.role === "assistant") {
    for (const call of message.tool_calls ?? []) {
      fixed += TOOL_CALL_OVERHEAD;
      texts.push(call.id, call.function.name, call.function.arguments);
    }
  }
  return { fixed, texts };
}

export function messageTokens(message: ChatMessage): number {
  const { fixed, texts } = messageParts(message);
  return texts.reduce((sum, text) => sum + countTokens(text), fixed);
}

export function eventTokens(messages: readonly ChatMessage[]): number {
  let sum = 0;
  for (const message of messages) sum += messageTokens(message);
  return sum;
}

/**
 * `eventTokens` for the write path: the event may hold a message of any length, and its texts are
 * counted piece by piece with the event loop given its turn between pieces (`pieces.ts`).
 */
export async function eventTokensYielding(messages: readonly ChatMessage[]): Promise<number> {
  let sum = 0;
  for (const message of messages) {
    const { fixed, texts } = messageParts(message);
    sum += fixed;
    for (const text of texts) sum += await countTokensYielding(text);
  }
  return sum;
}

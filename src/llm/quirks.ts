/**
 * Per-model differences that a plain OpenAI-compatible client would get wrong.
 *
 * `reasoning_content` (the chain of thought some models return beside `content`):
 * - DeepSeek thinking mode (deepseek-v4-*, deepseek-chat/-flash with thinking): for assistant
 *   turns that made tool calls it must be sent back in every later request, or the API answers
 *   400 "The reasoning_content in the thinking mode must be passed back to the API" — even an
 *   empty one must be present.
 * - Legacy deepseek-reasoner (R1): any reasoning_content in the input is refused with a 400.
 * - Everyone else: not part of the OpenAI schema; dropped so strict providers do not refuse it.
 */
import type { ProviderMessage } from "./types.ts";

export type ReasoningPolicy = "send-back-on-tool-calls" | "drop";

export type ModelQuirks = { reasoning: ReasoningPolicy };

const RULES: readonly { match: RegExp; quirks: ModelQuirks }[] = [
  { match: /deepseek-reasoner|deepseek-r1/i, quirks: { reasoning: "drop" } },
  { match: /deepseek|kimi-.*thinking/i, quirks: { reasoning: "send-back-on-tool-calls" } },
];

export function quirksFor(model: string): ModelQuirks {
  return RULES.find((r) => r.match.test(model))?.quirks ?? { reasoning: "drop" };
}

/** Applies the model's reasoning policy to the outgoing messages (a new array; inputs untouched). */
export function applyQuirks(messages: readonly ProviderMessage[], quirks: ModelQuirks): ProviderMessage[] {
  return messages.map((message) => {
    if (message.role !== "assistant") return message;
    const { reasoning_content, ...rest } = message;
    if (quirks.reasoning === "send-back-on-tool-calls" && rest.tool_calls?.length) {
      return { ...rest, reasoning_content: reasoning_content ?? "" };
    }
    return rest;
  });
}

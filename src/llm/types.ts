/**
 * What the model client sends and receives. Messages are the context engine's OpenAI chat
 * messages, plus `reasoning_content` on assistant messages: some thinking models return it and
 * require it back on tool-call turns (see quirks.ts).
 */
import type { ChatMessage, ToolCall } from "../context/index.ts";

export type { ChatMessage, ToolCall };

export type AssistantMessage = Extract<ChatMessage, { role: "assistant" }> & { reasoning_content?: string };

/** A message as it travels to a provider. */
export type ProviderMessage = Exclude<ChatMessage, { role: "assistant" }> | AssistantMessage;

export type ToolSpec = {
  type: "function";
  function: { name: string; description?: string; parameters: Record<string, unknown> };
};

export type ChatRequest = {
  model: string;
  messages: ProviderMessage[];
  tools?: ToolSpec[];
  temperature?: number;
  max_tokens?: number;
  /** Provider-specific body fields (e.g. DeepSeek's `thinking`). */
  extra?: Record<string, unknown>;
};

export type Usage = { prompt_tokens: number; completion_tokens: number; total_tokens: number };

export type ChatResult = {
  message: AssistantMessage;
  finishReason: string | null;
  usage?: Usage;
  /** How many HTTP attempts the request took (1 when nothing was retried). */
  attempts: number;
};

/** Pieces of a streamed answer, in arrival order. */
export type StreamDelta = { type: "content"; text: string } | { type: "reasoning"; text: string } | { type: "tool_call"; index: number; id?: string; name?: string; arguments: string };

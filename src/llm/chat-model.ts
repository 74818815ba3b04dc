/**
 * The seam between the kernel and a model: what it calls (`ChatModel`) and how it gets one for a
 * provider (`ChatModelFactory`). The daemon's factory makes a ChatClient (HTTP to an
 * OpenAI-compatible provider); tests give the kernel a ScriptedChat (scripted-chat.ts) and need
 * no server.
 */
import { ChatClient, type CallOptions, type ChatClientOptions } from "./client.ts";
import type { ChatRequest, ChatResult } from "./types.ts";

export interface ChatModel {
  /** One whole answer, without streaming. */
  complete(request: ChatRequest, call?: CallOptions): Promise<ChatResult>;
  /** A streamed answer: deltas go to `onDelta` as they arrive; resolves with the whole message. */
  stream(request: ChatRequest, call?: CallOptions): Promise<ChatResult>;
}

/** Makes the model for one provider (its URL, key, timeouts and sequence guard in `options`). */
export type ChatModelFactory = (options: ChatClientOptions) => ChatModel;

export const httpChatModel: ChatModelFactory = (options) => new ChatClient(options);

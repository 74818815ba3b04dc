/**
 * A scripted model, in process: answers each request with the next step of a script — text,
 * reasoning, tool calls, a provider error, a hang until cancelled — and records what it was
 * asked. Shipped beside the real client (as openai-agents-js ships its scriptedModel) so kernel
 * tests that are not about HTTP pass it in instead of starting a server. Streams arrive in
 * three pieces per text, so streaming code is really exercised.
 *
 * The request is checked by the same sequence guard the HTTP client applies, in the mode the
 * kernel asks for (`throw` in tests), plus an optional `check` of the caller's own (a test's
 * independent oracle); a refused request is a `bad_request` ProviderError, as a provider's 400.
 */
import type { CallOptions, ChatClientOptions } from "./client.ts";
import type { ChatModel, ChatModelFactory } from "./chat-model.ts";
import { ProviderError, type ProviderErrorCode } from "./errors.ts";
import { guardSequence } from "./sequence-guard.ts";
import type { AssistantMessage, ChatRequest, ChatResult, StreamDelta } from "./types.ts";

export type ScriptedStep =
  | {
      content?: string;
      reasoning?: string;
      toolCalls?: { id: string; name: string; arguments: string }[];
      /** Pause between streamed pieces (or before a whole answer). */
      delayMs?: number;
    }
  /** The provider answers this HTTP status: 429 rate_limited, 5xx server_error, else bad_request. */
  | { status: number; body?: string }
  /** Never answers: the call ends only when its signal aborts. */
  | { hang: true }
  /** The connection drops: a network error. */
  | { dropConnection: true };

/** What a script function is shown: the request and the headers an HTTP client would send. */
export type ScriptedRequest = { body: ChatRequest & { stream: boolean }; headers: Record<string, string | undefined> };

export type ChatScript = ScriptedStep[] | ((request: ScriptedRequest, n: number) => ScriptedStep);

export type ScriptedChatOptions = {
  /** A reason to refuse the request (as a provider's 400), or null to answer it. */
  check?: (messages: ChatRequest["messages"]) => string | null;
};

const USAGE = { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 };
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Three pieces per text, as the loopback scripted provider streams them. */
function pieces(text: string): string[] {
  const n = Math.max(1, Math.ceil(text.length / 3));
  const out: string[] = [];
  for (let i = 0; i < text.length; i += n) out.push(text.slice(i, i + n));
  return out;
}

const codeForStatus = (status: number): ProviderErrorCode => (status === 429 ? "rate_limited" : status >= 500 ? "server_error" : "bad_request");

function untilAborted(signal: AbortSignal | undefined): Promise<never> {
  return new Promise((_, reject) => {
    const stop = () => reject(new ProviderError("aborted", "The request was cancelled", undefined, undefined, { cause: signal?.reason }));
    if (signal?.aborted) stop();
    signal?.addEventListener("abort", stop, { once: true });
  });
}

export class ScriptedChat {
  /** Every request, as sent (after the sequence guard), in order; `body` as the HTTP one's. */
  readonly requests: ScriptedRequest[] = [];
  /** Requests refused by `check`, with the reason. */
  readonly sequenceErrors: string[] = [];

  constructor(
    private readonly script: ChatScript,
    private readonly options: ScriptedChatOptions = {},
  ) {}

  /** The factory to give the kernel: every provider it asks for gets this script. */
  readonly factory: ChatModelFactory = (client: ChatClientOptions): ChatModel => ({
    complete: (request, call) => this.answer(request, client, call, false),
    stream: (request, call) => this.answer(request, client, call, true),
  });

  private async answer(request: ChatRequest, client: ChatClientOptions, call: CallOptions = {}, stream: boolean): Promise<ChatResult> {
    if (call.signal?.aborted) throw new ProviderError("aborted", "The request was cancelled", undefined, undefined, { cause: call.signal.reason });
    const messages = guardSequence(request.messages, client.sequenceGuard ?? "repair", client.onRepair);
    const received = { body: { ...request, messages, stream }, headers: { authorization: client.apiKey ? `Bearer ${client.apiKey}` : undefined } };
    this.requests.push(received);
    const refused = this.options.check?.(messages);
    if (refused) {
      this.sequenceErrors.push(refused);
      throw new ProviderError("bad_request", `Provider answered HTTP 400: ${refused}`, 400, refused);
    }
    const n = this.requests.length - 1;
    const step = typeof this.script === "function" ? this.script(received, n) : this.script[n];
    if (!step) throw new ProviderError("server_error", `Provider answered HTTP 500: script has no step ${n}`, 500);
    if ("hang" in step) return untilAborted(call.signal);
    if ("dropConnection" in step) throw new ProviderError("network", "Cannot reach the provider: the scripted connection dropped");
    if ("status" in step) throw new ProviderError(codeForStatus(step.status), `Provider answered HTTP ${step.status}: ${step.body ?? ""}`, step.status, step.body);
    const toolCalls = (step.toolCalls ?? []).map((c) => ({ id: c.id, type: "function" as const, function: { name: c.name, arguments: c.arguments } }));
    if (stream) await this.streamDeltas(step, call, toolCalls);
    else if (step.delayMs) await sleep(step.delayMs);
    const message: AssistantMessage = {
      role: "assistant",
      content: step.content ?? (toolCalls.length ? null : ""),
      ...(toolCalls.length ? { tool_calls: toolCalls } : {}),
      ...(step.reasoning ? { reasoning_content: step.reasoning } : {}),
    };
    return { message, finishReason: toolCalls.length ? "tool_calls" : "stop", usage: USAGE, attempts: 1 };
  }

  private async streamDeltas(step: Extract<ScriptedStep, { content?: string }>, call: CallOptions, toolCalls: AssistantMessage["tool_calls"] & object): Promise<void> {
    const deltas: StreamDelta[] = [
      ...pieces(step.reasoning ?? "").map((text) => ({ type: "reasoning" as const, text })),
      ...pieces(step.content ?? "").map((text) => ({ type: "content" as const, text })),
      ...toolCalls.flatMap((c, index) => [
        { type: "tool_call" as const, index, id: c.id, name: c.function.name, arguments: "" },
        ...pieces(c.function.arguments).map((args) => ({ type: "tool_call" as const, index, arguments: args })),
      ]),
    ];
    for (const delta of deltas) {
      if (call.signal?.aborted) throw new ProviderError("aborted", "The request was cancelled", undefined, undefined, { cause: call.signal.reason });
      call.onDelta?.(delta);
      if (step.delayMs) await sleep(step.delayMs);
    }
  }
}

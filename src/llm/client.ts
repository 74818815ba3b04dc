/**
 * A client for OpenAI-compatible chat completions: streaming (SSE) and not, tool calls
 * (parallel included), usage, cancellation, timeouts, retries where they help, the sequence
 * guard and per-model quirks applied to every request before it leaves.
 */
import { EventSourceParserStream } from "eventsource-parser/stream";
import { withoutAudio } from "../context/index.ts";
import { errorFromResponse, ProviderError } from "./errors.ts";
import { applyQuirks, quirksFor } from "./quirks.ts";
import { DEFAULT_RETRY, withRetries, type RetryDeps, type RetryPolicy } from "./retry.ts";
import { guardSequence, type SequenceGuardMode } from "./sequence-guard.ts";
import { ToolCallAssembler } from "./tool-call-assembler.ts";
import type { ChatRequest, ChatResult, StreamDelta, Usage } from "./types.ts";
import { ChunkWire, CompletionWire } from "./wire.ts";

export type ChatClientOptions = {
  baseUrl: string;
  apiKey?: string;
  /** Time allowed until response headers arrive, per attempt. */
  timeoutMs?: number;
  /** Longest silence allowed between two chunks of a stream. */
  idleTimeoutMs?: number;
  retry?: RetryPolicy;
  /** `throw` in tests; `repair` in production (see sequence-guard.ts). */
  sequenceGuard?: SequenceGuardMode;
  onRepair?: (repairs: string[]) => void;
  fetch?: typeof fetch;
} & RetryDeps;

export type CallOptions = { signal?: AbortSignal; onDelta?: (delta: StreamDelta) => void };

export class ChatClient {
  private readonly endpoint: string;
  private readonly doFetch: typeof fetch;

  constructor(private readonly options: ChatClientOptions) {
    this.endpoint = `${options.baseUrl.replace(/\/+$/, "")}/chat/completions`;
    this.doFetch = options.fetch ?? fetch;
  }

  /** One whole answer, without streaming. */
  complete(request: ChatRequest, call: CallOptions = {}): Promise<ChatResult> {
    return this.send(request, call, false);
  }

  /** A streamed answer: deltas go to `onDelta` as they arrive; resolves with the whole message. */
  stream(request: ChatRequest, call: CallOptions = {}): Promise<ChatResult> {
    return this.send(request, call, true);
  }

  private body(request: ChatRequest, stream: boolean): string {
    const guarded = guardSequence(request.messages, this.options.sequenceGuard ?? "repair", this.options.onRepair);
    // Audio parts are homed's own (a voice message's block): the model reads the transcript beside them.
    const messages = applyQuirks(withoutAudio(guarded), quirksFor(request.model));
    const { extra, ...rest } = request;
    return JSON.stringify({
      ...extra,
      ...rest,
      messages,
      stream,
      ...(stream ? { stream_options: { include_usage: true } } : {}),
    });
  }

  private async send(request: ChatRequest, call: CallOptions, stream: boolean): Promise<ChatResult> {
    const body = this.body(request, stream);
    let attempts = 0;
    const result = await withRetries(
      async () => {
        attempts++;
        return await this.attempt(body, stream, call);
      },
      this.options.retry ?? DEFAULT_RETRY,
      call.signal,
      this.options,
    );
    return { ...result, attempts };
  }

  private async attempt(body: string, stream: boolean, call: CallOptions): Promise<Omit<ChatResult, "attempts">> {
    const controller = new AbortController();
    const abort = () => controller.abort(call.signal?.reason);
    call.signal?.addEventListener("abort", abort, { once: true });
    let timedOut = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const arm = (ms: number) => {
      clearTimeout(timer);
      timer = setTimeout(() => {
        timedOut = true;
        controller.abort();
      }, ms);
    };
    try {
      if (call.signal?.aborted) throw call.signal.reason;
      arm(this.options.timeoutMs ?? 120_000);
      const response = await this.doFetch(this.endpoint, {
        method: "POST",
        headers: {
          "content-type": "application/json",
          accept: stream ? "text/event-stream" : "application/json",
          ...(this.options.apiKey ? { authorization: `Bearer ${this.options.apiKey}` } : {}),
        },
        body,
        signal: controller.signal,
      });
      if (!response.ok) throw await errorFromResponse(response);
      if (!stream) return parseCompletion(await response.text());
      return await readStream(response, call.onDelta ?? (() => {}), () => arm(this.options.idleTimeoutMs ?? 60_000));
    } catch (error) {
      if (error instanceof ProviderError) throw error;
      if (call.signal?.aborted) throw new ProviderError("aborted", "The request was cancelled", undefined, undefined, { cause: error });
      if (timedOut) throw new ProviderError("timeout", "The provider did not answer in time", undefined, undefined, { cause: error });
      throw new ProviderError("network", `Cannot reach the provider at ${this.endpoint}: ${(error as Error).message}`, undefined, undefined, { cause: error });
    } finally {
      clearTimeout(timer);
      call.signal?.removeEventListener("abort", abort);
    }
  }
}

function parseCompletion(text: string): Omit<ChatResult, "attempts"> {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new ProviderError("bad_response", `The provider answered something that is not JSON: ${text.slice(0, 200)}`, undefined, text, { cause: error });
  }
  const parsed = CompletionWire.safeParse(json);
  if (!parsed.success) {
    throw new ProviderError("bad_response", `The provider's answer is not a chat completion: ${parsed.error.issues[0]?.message}`, undefined, text);
  }
  const choice = parsed.data.choices[0]!;
  const toolCalls = (choice.message.tool_calls ?? []).map((c) => ({
    id: c.id,
    type: "function" as const,
    function: { name: c.function.name, arguments: c.function.arguments ?? "" },
  }));
  return {
    message: {
      role: "assistant",
      content: choice.message.content ?? null,
      ...(toolCalls.length ? { tool_calls: toolCalls } : {}),
      ...(choice.message.reasoning_content != null ? { reasoning_content: choice.message.reasoning_content } : {}),
    },
    finishReason: choice.finish_reason ?? null,
    usage: parsed.data.usage ?? undefined,
  };
}

async function readStream(response: Response, onDelta: (delta: StreamDelta) => void, onActivity: () => void): Promise<Omit<ChatResult, "attempts">> {
  if (!response.body) throw new ProviderError("bad_response", "The provider sent an empty stream");
  const events = response.body.pipeThrough(new TextDecoderStream()).pipeThrough(new EventSourceParserStream());
  const calls = new ToolCallAssembler();
  let content = "";
  let reasoning: string | undefined;
  let finishReason: string | null = null;
  let usage: Usage | undefined;
  onActivity();
  for await (const event of events) {
    onActivity();
    if (event.data.trim() === "[DONE]") break;
    let json: unknown;
    try {
      json = JSON.parse(event.data);
    } catch (error) {
      throw new ProviderError("bad_response", `The provider streamed a chunk that is not JSON: ${event.data.slice(0, 200)}`, undefined, event.data, { cause: error });
    }
    const chunk = ChunkWire.safeParse(json);
    if (!chunk.success) throw new ProviderError("bad_response", `The provider streamed a malformed chunk: ${chunk.error.issues[0]?.message}`, undefined, event.data);
    if (chunk.data.usage) usage = chunk.data.usage;
    for (const choice of chunk.data.choices) {
      const delta = choice.delta;
      if (delta?.reasoning_content) {
        reasoning = (reasoning ?? "") + delta.reasoning_content;
        onDelta({ type: "reasoning", text: delta.reasoning_content });
      }
      if (delta?.content) {
        content += delta.content;
        onDelta({ type: "content", text: delta.content });
      }
      for (const tc of delta?.tool_calls ?? []) {
        const d = { index: tc.index, id: tc.id ?? undefined, function: { name: tc.function?.name ?? undefined, arguments: tc.function?.arguments ?? undefined } };
        const index = calls.add(d);
        onDelta({ type: "tool_call", index, id: d.id, name: d.function.name, arguments: d.function.arguments ?? "" });
      }
      if (choice.finish_reason) finishReason = choice.finish_reason;
    }
  }
  const toolCalls = calls.result();
  return {
    message: {
      role: "assistant",
      content: content.length > 0 || toolCalls.length === 0 ? content : null,
      ...(toolCalls.length ? { tool_calls: toolCalls } : {}),
      ...(reasoning !== undefined ? { reasoning_content: reasoning } : {}),
    },
    finishReason,
    usage,
  };
}

/**
 * The OpenAI-compatible `/embeddings` driver (OpenAI, Ollama, SiliconFlow, vLLM, …): one POST
 * per batch, answers validated with zod, vectors checked for the promised dimension and
 * L2-normalised. Queries get one attempt within a time budget (default 1200 ms) because the
 * user is waiting and recall can do without the vector channel; writes retry with exponential
 * backoff on network errors, timeouts, 429 and 5xx, since a record stored without its vector
 * stays worse until it is re-embedded.
 *
 * Any width: without a `dimension` the model's own width is used, learnt from its first answer
 * (and every later answer must match it). With one, it is sent as OpenAI's `dimensions`
 * parameter (text-embedding-3-* and other Matryoshka models shorten their vectors) and checked.
 */
import { z } from "zod";
import { analysedPart } from "../text/index.ts";
import { EmbedError, EmbedTimeoutError, normalize, type EmbedOptions, type Embedder } from "./embedder.ts";

export type HttpEmbedderOptions = {
  /** Base URL including the version path, e.g. `http://127.0.0.1:11434/v1`. */
  baseUrl: string;
  model: string;
  /** Vectors of this many dimensions, asked for with `dimensions`; absent: the model's own width. */
  dimension?: number;
  apiKey?: string;
  /** Budget for a `query` embedding; after it the caller proceeds without vectors. */
  queryBudgetMs?: number;
  /** Per-attempt timeout for `write` embeddings. */
  writeTimeoutMs?: number;
  /** Attempts for a `write` (first try included). */
  writeAttempts?: number;
  /** First backoff delay; doubles each retry. */
  backoffMs?: number;
  /** Inputs per request; providers cap batch sizes (OpenAI 2048, many others far fewer). */
  maxBatch?: number;
};

const ResponseSchema = z.object({
  data: z.array(z.object({ embedding: z.array(z.number()), index: z.number().int().nonnegative().optional() })),
});

/** A failure worth retrying for a write (the next attempt may well succeed). */
class TransientError extends EmbedError {}

export function createHttpEmbedder(options: HttpEmbedderOptions): Embedder {
  const { model } = options;
  const asked = options.dimension;
  /** The width every vector must have: asked for, or learnt from the first answer (0 until then). */
  let dimension = asked ?? 0;
  const url = `${options.baseUrl.replace(/\/+$/, "")}/embeddings`;
  const queryBudgetMs = options.queryBudgetMs ?? 1200;
  const writeTimeoutMs = options.writeTimeoutMs ?? 30_000;
  const writeAttempts = options.writeAttempts ?? 4;
  const backoffMs = options.backoffMs ?? 250;
  const maxBatch = options.maxBatch ?? 64;
  // The width is part of the space's name only when asked for: the same model shortened is another space.
  const modelId = asked === undefined ? `openai:${model}` : `openai:${model}@${asked}`;
  const headers: Record<string, string> = { "content-type": "application/json" };
  if (options.apiKey) headers.authorization = `Bearer ${options.apiKey}`;

  async function request(input: readonly string[], timeoutMs: number): Promise<Float32Array[]> {
    let response: Response;
    try {
      response = await fetch(url, {
        method: "POST",
        headers,
        body: JSON.stringify(asked === undefined ? { model, input } : { model, input, dimensions: asked }),
        signal: AbortSignal.timeout(timeoutMs),
      });
    } catch (error) {
      const name = (error as Error).name;
      if (name === "TimeoutError" || name === "AbortError") throw new EmbedTimeoutError(modelId, timeoutMs, { cause: error });
      throw new TransientError(`Cannot reach ${url}: ${(error as Error).message}`, { cause: error });
    }
    let body: string;
    try {
      body = await response.text();
    } catch (error) {
      throw new EmbedTimeoutError(modelId, timeoutMs, { cause: error });
    }
    if (!response.ok) {
      const message = `Cannot embed with ${url}: HTTP ${response.status} ${body.slice(0, 200)}`;
      throw response.status === 429 || response.status >= 500 ? new TransientError(message) : new EmbedError(message);
    }
    let parsed: z.infer<typeof ResponseSchema>;
    try {
      parsed = ResponseSchema.parse(JSON.parse(body));
    } catch (error) {
      throw new EmbedError(`Cannot embed with ${url}: the answer is not an OpenAI embeddings response`, { cause: error });
    }
    if (parsed.data.length !== input.length) {
      throw new EmbedError(`Cannot embed with ${url}: sent ${input.length} inputs, got ${parsed.data.length} vectors`);
    }
    const ordered = parsed.data.map((item, i) => ({ at: item.index ?? i, embedding: item.embedding })).sort((a, b) => a.at - b.at);
    return ordered.map(({ embedding }) => {
      if (dimension === 0 && embedding.length > 0) dimension = embedding.length;
      if (embedding.length !== dimension) {
        const hint = asked === undefined ? "" : " (the server does not shorten vectors with `dimensions`: leave -embed-dim unset to use the model's own width)";
        throw new EmbedError(`Cannot embed with ${url}: model ${model} returned ${embedding.length} dimensions, expected ${dimension}${hint}`);
      }
      return normalize(Float32Array.from(embedding));
    });
  }

  async function withRetries(input: readonly string[]): Promise<Float32Array[]> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await request(input, writeTimeoutMs);
      } catch (error) {
        const retryable = error instanceof TransientError || error instanceof EmbedTimeoutError;
        if (!retryable || attempt >= writeAttempts) throw error;
        await new Promise((resolve) => setTimeout(resolve, backoffMs * 2 ** (attempt - 1)));
      }
    }
  }

  return {
    modelId,
    get dimension() {
      return dimension;
    },
    async embedTexts(texts: readonly string[], embedOptions: EmbedOptions = {}) {
      const out: Float32Array[] = [];
      for (let i = 0; i < texts.length; i += maxBatch) {
        // Only the analysed part of each text (`text/limits.ts`): a 15 MB text is no request to send.
        const batch = texts.slice(i, i + maxBatch).map(analysedPart);
        out.push(...(embedOptions.purpose === "query" ? await request(batch, queryBudgetMs) : await withRetries(batch)));
      }
      return out;
    },
  };
}

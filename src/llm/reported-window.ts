/**
 * The context window a provider says it serves a model with, read from its own `GET /models`
 * list. A provider's word is better than the table of well-known models (context-windows.ts): a
 * vLLM server started with `--max-model-len 8192` serves Qwen2.5 with 8k tokens, not the 128k the
 * model was trained for, and only the server knows. The fields, by who writes them:
 * - `max_model_len`: vLLM (and servers copying its model card);
 * - `context_window`: Groq;
 * - `context_length`: OpenRouter, Together, Fireworks; OpenRouter also `top_provider.context_length`,
 *   the window of the provider it routes to, which can be smaller;
 * - `max_context_length`: Mistral, LM Studio's own API.
 * The smallest given wins: a window guessed too large overflows the model, one too small only
 * costs recall a little. Left out on purpose: llama.cpp's `meta.n_ctx_train`, the window the model
 * was trained with and not the one the server runs (`-c`, 4096 by default). OpenAI reports none.
 * Ollama reports none either, and serves every model with its own `num_ctx` whatever the model's
 * nominal window: there the Modelfile's `num_ctx` is the window, and without one it is unknown —
 * never the table's (ollama-window.ts).
 */
import { z } from "zod";
import { CONTEXT_WINDOW_MAX, CONTEXT_WINDOW_MIN, knownContextWindow } from "./context-windows.ts";
import { fetchModelEntries, type ModelEntry } from "./list-models.ts";
import { isOllama, looksLikeOllama, ollamaNumCtx } from "./ollama-window.ts";

const Tokens = z.number().int().min(CONTEXT_WINDOW_MIN).max(CONTEXT_WINDOW_MAX);

/** Each field is read on its own: one a provider fills oddly (a string, 0) drops out, not the rest. */
const REPORTED_FIELDS: readonly ((entry: ModelEntry) => unknown)[] = [
  (e) => e.max_model_len,
  (e) => e.context_window,
  (e) => e.context_length,
  (e) => (e.top_provider as { context_length?: unknown } | null | undefined)?.context_length,
  (e) => e.max_context_length,
];

/** The window a model's entry reports, in tokens (the smallest of those it gives), or undefined. */
export function reportedContextWindow(entry: ModelEntry): number | undefined {
  const windows = REPORTED_FIELDS.map((field) => Tokens.safeParse(field(entry))).flatMap((r) => (r.success ? [r.data] : []));
  return windows.length === 0 ? undefined : Math.min(...windows);
}

/** How long a provider's list is trusted: models come and go, a server restarts with another `--max-model-len`. */
export const REPORTED_TTL_MS = 60 * 60_000;
/** A provider with no list (404, unreachable, not JSON) is asked again after this long, not every turn. */
export const UNREPORTED_TTL_MS = 10 * 60_000;
/** The list is asked for on a turn's way to the model: never let it hold the turn long. */
export const LIST_TIMEOUT_MS = 3_000;

/** `ollama`: the endpoint is an Ollama server, whose models' windows are only what `windows` says. */
type Listing = { windows: Map<string, number> | undefined; ollama: boolean; until: number };
/** Models of an Ollama server asked for their `num_ctx`, at most: a few are what a person keeps pulled. */
const OLLAMA_MODELS_ASKED = 50;

export type WindowTarget = { baseUrl: string; apiKey?: string; model: string; contextWindow?: number };

/** Where a window came from: the provider's settings, its model list, the table of well-known models, or nowhere. */
export type ResolvedWindow = { tokens: number; source: "configured" | "provider" | "known" } | { tokens?: undefined; source: "unknown" };

export type ContextWindowsOptions = {
  /** How the list is read (tests: a counting wrapper); `GET <baseUrl>/models` by default. */
  list?: (baseUrl: string, apiKey: string | undefined, timeoutMs: number) => Promise<ModelEntry[]>;
  now?: () => number;
  /** Told once for each window a provider reports for a model (the daemon's log). */
  onReported?: (line: string) => void;
};

/**
 * The context window a turn is sized to: the provider's configured `contextWindow`, else the one
 * the provider reports for the model, else a well-known model's, else none (today's bands). One
 * list request per provider endpoint an hour, shared by every model and turn of it.
 */
export class ContextWindows {
  readonly #listings = new Map<string, Listing | Promise<Listing>>();
  readonly #told = new Set<string>();

  constructor(private readonly options: ContextWindowsOptions = {}) {}

  async of(target: WindowTarget): Promise<number | undefined> {
    return (await this.resolve(target)).tokens;
  }

  /** The window and where it came from (the console's "Test connection" says both). */
  async resolve(target: WindowTarget): Promise<ResolvedWindow> {
    if (target.contextWindow !== undefined) return { tokens: target.contextWindow, source: "configured" };
    const listing = await this.#listing(target.baseUrl, target.apiKey);
    const reported = listing.windows?.get(target.model);
    if (reported !== undefined) {
      this.#tellOnce(
        `${target.baseUrl}\n${target.model}\n${reported}`,
        () => `the provider at ${target.baseUrl} serves ${target.model} with a context window of ${reported} tokens: recall's injection is sized to it`,
      );
      return { tokens: reported, source: "provider" };
    }
    const known = knownContextWindow(target.model);
    if (listing.ollama) {
      if (known !== undefined) {
        this.#tellOnce(
          `${target.baseUrl}\n${target.model}\nollama`,
          () =>
            `Ollama at ${target.baseUrl} runs ${target.model} with its own num_ctx, not the model's ${known} tokens: recall injects its standard amount (a num_ctx in the model's Modelfile, or the provider's contextWindow, gives it more)`,
        );
      }
      return { source: "unknown" };
    }
    return known === undefined ? { source: "unknown" } : { tokens: known, source: "known" };
  }

  /** Tells the daemon's log `line` the first time `key` is seen. */
  #tellOnce(key: string, line: () => string): void {
    if (this.#told.has(key)) return;
    this.#told.add(key);
    this.options.onReported?.(line());
  }

  async #listing(baseUrl: string, apiKey: string | undefined): Promise<Listing> {
    const now = this.options.now ?? Date.now;
    // The key is never written anywhere: different keys of one endpoint may see different models.
    const key = `${baseUrl}\n${apiKey ?? ""}`;
    const known = this.#listings.get(key);
    if (known && (known instanceof Promise || known.until > now())) return known;
    const pending = this.#read(baseUrl, apiKey).then(({ windows, ollama }) => {
      const listing = { windows, ollama, until: now() + (windows ? REPORTED_TTL_MS : UNREPORTED_TTL_MS) };
      this.#listings.set(key, listing);
      return listing;
    });
    this.#listings.set(key, pending);
    return pending;
  }

  /** Model id → reported window (undefined when the provider gives no list), and whether it is Ollama. */
  async #read(baseUrl: string, apiKey: string | undefined): Promise<Pick<Listing, "windows" | "ollama">> {
    let entries: ModelEntry[];
    try {
      entries = await (this.options.list ?? fetchModelEntries)(baseUrl, apiKey, LIST_TIMEOUT_MS);
    } catch {
      // No list (many providers have none, or refuse it to this key): the table decides.
      return { windows: undefined, ollama: false };
    }
    const windows = new Map<string, number>();
    for (const entry of entries) {
      const window = reportedContextWindow(entry);
      if (window !== undefined) windows.set(entry.id, window);
    }
    if (windows.size > 0 || !looksLikeOllama(entries) || !(await isOllama(baseUrl, LIST_TIMEOUT_MS))) return { windows, ollama: false };
    // At once, each under the list's timeout: a turn never waits longer than one request's worth.
    const asked = entries.slice(0, OLLAMA_MODELS_ASKED).map(async ({ id }) => [id, Tokens.safeParse(await ollamaNumCtx(baseUrl, id, LIST_TIMEOUT_MS))] as const);
    for (const [id, numCtx] of await Promise.all(asked)) if (numCtx.success) windows.set(id, numCtx.data);
    return { windows, ollama: true };
  }
}

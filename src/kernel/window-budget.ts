/**
 * A turn's request budget when the model's context window is known. The configured budget
 * (`kernel.budget`, 24,000 tokens by default) is one number for every provider: a model served
 * with 8,192 tokens (moonshot-v1-8k, a vLLM server started with `--max-model-len 8192`, an Ollama
 * Modelfile's num_ctx) was sent requests of up to 24,000 and refused every one of them once a
 * conversation grew past its window ("maximum context length is 8192 tokens"), or, on Ollama, had
 * its prompt cut from the start without an error. With the window known, the request keeps room
 * for the answer inside it; history that no longer fits sinks to cold memory as it does under any
 * budget, and recall brings it back when it matters.
 */

/** The least a request is given, whatever the window: below it no turn can say anything. */
export const MIN_REQUEST_BUDGET = 256;

/** Room left for the answer when the caller sets no max_tokens: a quarter of the window, at most this. */
export const ANSWER_RESERVE_MAX = 4096;

/** The answer's length the caller asked for (`max_tokens` / `max_completion_tokens`), if any. */
export function answerTokensOf(params: Record<string, unknown> | undefined): number | undefined {
  const asked = params?.max_completion_tokens ?? params?.max_tokens;
  return typeof asked === "number" && Number.isInteger(asked) && asked > 0 ? asked : undefined;
}

/** The budget of a turn: the configured one, or less when the window minus the answer's room is smaller. */
export function budgetFor(configured: number, contextWindow: number | undefined, answerTokens?: number): number {
  if (contextWindow === undefined) return configured;
  const reserve = answerTokens ?? Math.min(ANSWER_RESERVE_MAX, Math.floor(contextWindow / 4));
  return Math.min(configured, Math.max(MIN_REQUEST_BUDGET, contextWindow - reserve));
}

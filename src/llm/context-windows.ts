/**
 * How many tokens a model's context window holds, for the models people point homed at most,
 * from each provider's published model pages. A provider's configured `contextWindow` always wins;
 * an unknown model has none, and whatever is sized to the window (recall's injection) keeps its
 * small defaults — a guess too large would overflow a short window, a guess too small only costs
 * recall a little.
 */

/** The range of a window in tokens homed accepts, configured or reported. */
export const CONTEXT_WINDOW_MIN = 1024;
export const CONTEXT_WINDOW_MAX = 10_000_000;

/** Name patterns (matched anywhere in the model id, case-insensitive) → window in tokens; first match wins. */
const KNOWN: readonly (readonly [RegExp, number])[] = [
  [/gpt-4\.1/, 1_047_576],
  [/gpt-4o|gpt-4-turbo|gpt-5/, 128_000],
  [/\bo[134](-mini)?\b/, 200_000],
  [/claude/, 200_000],
  [/gemini-(1\.5|2)/, 1_048_576],
  [/deepseek/, 128_000],
  [/moonshot-v1-8k/, 8_192],
  [/moonshot-v1-32k/, 32_768],
  [/moonshot-v1-128k|kimi/, 131_072],
  [/qwen(2\.5|3)|qwen-(plus|max|turbo)/, 131_072],
  [/llama-?3\.[123]/, 131_072],
  [/glm-4/, 128_000],
];

/** The window of a well-known model, or undefined. */
export function knownContextWindow(model: string): number | undefined {
  const id = model.toLowerCase();
  return KNOWN.find(([pattern]) => pattern.test(id))?.[1];
}

/**
 * Token counts of plain text with a real BPE tokenizer: `o200k_base` (GPT-4o and later) from
 * gpt-tokenizer, a pure-JavaScript package whose rank table is a JS module, so it is bundled
 * into the binary and nothing is read from disk at run time.
 *
 * Why a real tokenizer rather than "characters / 4": on Chinese that rule is off by a factor of
 * about 2.5 (one Chinese character is roughly 0.6–0.8 tokens, not 0.25), and on mixed text any
 * fixed per-character rule is wrong for one of the two languages. bench/context prints the
 * measured error of both cheap rules against this count. Other providers' tokenizers
 * (DeepSeek, Qwen) differ from o200k by a few tens of percent on Chinese; o200k is a close,
 * honest proxy for all of them, not an exact count for any but OpenAI's.
 */
type O200k = typeof import("gpt-tokenizer/encoding/o200k_base");

/**
 * The rank table is large (parsing it costs ~0.3 s and ~90 MB): it is loaded on first need, not
 * when homed starts, so the daemon answers at once and commands that never count tokens never
 * pay for it. Every async entry point that leads to counting awaits `loadTokenizer()` first.
 */
let o200k: O200k | undefined;
let loading: Promise<void> | undefined;

export function loadTokenizer(): Promise<void> {
  loading ??= import("gpt-tokenizer/encoding/o200k_base").then((module) => {
    o200k = module;
  });
  return loading;
}

/** Name of the encoding behind `countTokens`, for reports. */
export const TOKENIZER = "o200k_base";

/** Tokens of `text` as the o200k_base encoding splits it (special-token text counts as text). */
export function countTokens(text: string): number {
  if (text.length === 0) return 0;
  if (!o200k) throw new Error("Cannot count tokens: the tokenizer is not loaded yet (await loadTokenizer() first)");
  // disallowedSpecial: none — user text that happens to contain "<|endoftext|>" is just text.
  return o200k.countTokens(text, { disallowedSpecial: new Set() });
}

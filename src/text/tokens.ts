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
import { mapYielding, PIECE_CHARS, pieceAt, textPieces } from "./pieces.ts";

type O200k = typeof import("gpt-tokenizer/encoding/o200k_base");

/**
 * The rank table is large (parsing it costs ~0.3 s and ~90 MB): it is loaded on first need, not
 * when homed starts, so the daemon answers at once and commands that never count tokens never
 * pay for it. Every async entry point that leads to counting awaits `loadTokenizer()` first.
 */
let o200k: O200k | undefined;
let loading: Promise<void> | undefined;

/**
 * Pre-tokens whose merges gpt-tokenizer remembers (its own default: 100,000). On an open
 * vocabulary almost every run of rare Chinese is a pre-token never seen again: counting 100k
 * open-vocabulary messages (bench/openvocab) left ~30 MiB of cache behind (a 100k import's memory
 * grew by as much), at no measurable gain in speed. A few thousand still keep a daemon's
 * recurring pieces (tool specs, its own prompts) cheap, in well under a MiB.
 */
export const MERGE_CACHE_ENTRIES = 2_048;

export function loadTokenizer(): Promise<void> {
  loading ??= import("gpt-tokenizer/encoding/o200k_base").then((module) => {
    module.setMergeCacheSize(MERGE_CACHE_ENTRIES);
    o200k = module;
  });
  return loading;
}

/** Name of the encoding behind `countTokens`, for reports. */
export const TOKENIZER = "o200k_base";

/**
 * Pieces counted one by one; a longer text is counted from this many pieces spread evenly over it
 * and the count scaled by its length, so that counting any text costs at most this many pieces
 * (512 × 2–10 ms for the slowest shape). Every piece is counted up to 256,000 characters (on the
 * repository's own mixed source and prose, 1 token off in 51,643); beyond, measured on 1 MB of
 * it, within 1 % of the piece-by-piece count.
 */
export const COUNTED_PIECES = 512;

/** The pieces that are counted and the factor their total is scaled by. */
function countedPieces(text: string): { pieces: Iterable<string>; scale: number } {
  if (text.length <= COUNTED_PIECES * PIECE_CHARS) return { pieces: textPieces(text), scale: 1 };
  const pieces: string[] = [];
  let chars = 0;
  for (let i = 0; i < COUNTED_PIECES; i++) {
    const piece = pieceAt(text, Math.floor((i * text.length) / COUNTED_PIECES));
    pieces.push(piece);
    chars += piece.length;
  }
  return { pieces, scale: text.length / chars };
}

function countPiece(piece: string): number {
  if (!o200k) throw new Error("Cannot count tokens: the tokenizer is not loaded yet (await loadTokenizer() first)");
  // disallowedSpecial: none — user text that happens to contain "<|endoftext|>" is just text.
  return o200k.countTokens(piece, { disallowedSpecial: new Set() });
}

const scaled = (counts: number[], scale: number) => Math.round(counts.reduce((a, b) => a + b, 0) * scale);

/**
 * Tokens of `text` as the o200k_base encoding splits it (special-token text counts as text),
 * counted piece by piece (see `pieces.ts`). Synchronous: for text that may be long, on a path
 * that serves requests, use `countTokensYielding`.
 */
export function countTokens(text: string): number {
  if (text.length <= PIECE_CHARS) return text.length === 0 ? 0 : countPiece(text);
  const { pieces, scale } = countedPieces(text);
  return scaled([...pieces].map(countPiece), scale);
}

/** `countTokens`, giving the event loop its turn between pieces. */
export async function countTokensYielding(text: string): Promise<number> {
  if (text.length <= PIECE_CHARS) return countTokens(text);
  const { pieces, scale } = countedPieces(text);
  return scaled(await mapYielding(pieces, countPiece), scale);
}

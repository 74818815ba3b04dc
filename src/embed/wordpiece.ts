/**
 * The BERT WordPiece tokenizer Chinese-CLIP was trained with (cn_clip's `bert_tokenizer.py`:
 * `FullTokenizer(do_lower_case=True)`), built from the model folder's `vocab.txt`, and
 * `clip.tokenize`'s framing: `[CLS]` + at most 50 word pieces + `[SEP]`, zero-padded to 52.
 *
 * Hand-written rather than a library: the official export ships only `vocab.txt` (the npm
 * tokenizers want a `tokenizer.json`), and ids must match the Python code bit for bit, which
 * is easiest to guarantee by following its ~100 lines directly.
 */

export const CONTEXT_LENGTH = 52;
/** Words longer than this become `[UNK]` whole, as in BERT (guards against pathological input). */
const MAX_WORD_CHARS = 100;

const CONTROL = /^\p{C}$/u;
const SPACE_SEPARATOR = /^\p{Zs}$/u;
const PUNCTUATION = /^\p{P}$/u;
const COMBINING_MARK = /\p{Mn}/gu;

function isWhitespace(ch: string): boolean {
  return ch === " " || ch === "\t" || ch === "\n" || ch === "\r" || SPACE_SEPARATOR.test(ch);
}

function isControl(ch: string): boolean {
  if (ch === "\t" || ch === "\n" || ch === "\r") return false;
  return CONTROL.test(ch);
}

/** BERT counts all non-alphanumeric ASCII as punctuation, e.g. `$` and `^`, which Unicode does not. */
function isPunctuation(ch: string): boolean {
  const cp = ch.codePointAt(0)!;
  if ((cp >= 33 && cp <= 47) || (cp >= 58 && cp <= 64) || (cp >= 91 && cp <= 96) || (cp >= 123 && cp <= 126)) return true;
  return PUNCTUATION.test(ch);
}

/** The CJK Unified Ideograph blocks BERT splits into single characters (not kana or hangul). */
function isCjk(cp: number): boolean {
  return (
    (cp >= 0x4e00 && cp <= 0x9fff) ||
    (cp >= 0x3400 && cp <= 0x4dbf) ||
    (cp >= 0x20000 && cp <= 0x2a6df) ||
    (cp >= 0x2a700 && cp <= 0x2b73f) ||
    (cp >= 0x2b740 && cp <= 0x2b81f) ||
    (cp >= 0x2b820 && cp <= 0x2ceaf) ||
    (cp >= 0xf900 && cp <= 0xfaff) ||
    (cp >= 0x2f800 && cp <= 0x2fa1f)
  );
}

/** BasicTokenizer: clean, split CJK characters, lower-case, strip accents, split punctuation. */
export function basicTokenize(text: string): string[] {
  let cleaned = "";
  for (const ch of text) {
    const cp = ch.codePointAt(0)!;
    // CJK first: it is most of Chinese text and never control or space, so skip the regexes.
    if (isCjk(cp)) cleaned += ` ${ch} `;
    else if (cp === 0 || cp === 0xfffd || isControl(ch)) continue;
    else if (isWhitespace(ch)) cleaned += " ";
    else cleaned += ch;
  }
  const out: string[] = [];
  for (const word of cleaned.split(" ")) {
    if (!word) continue;
    // Fast path: a unified ideograph is unchanged by lower-casing and NFD and is no punctuation
    // (compatibility ideographs F900–FAFF do change under NFD, so they take the full path).
    if (word.length === 1 && word >= "\u4e00" && word <= "\u9fff") {
      out.push(word);
      continue;
    }
    const folded = word.toLowerCase().normalize("NFD").replace(COMBINING_MARK, "");
    let current = "";
    for (const ch of folded) {
      if (isPunctuation(ch)) {
        if (current) out.push(current);
        out.push(ch);
        current = "";
      } else current += ch;
    }
    if (current) out.push(current);
  }
  return out;
}

export class WordPieceTokenizer {
  readonly vocab: ReadonlyMap<string, number>;
  private readonly unk: number;
  readonly cls: number;
  readonly sep: number;

  /** `vocabText` is the content of `vocab.txt`: one token per line, id = line number. */
  constructor(vocabText: string) {
    const vocab = new Map<string, number>();
    vocabText.split(/\r?\n/).forEach((line, id) => {
      const token = line.trim();
      if (token && !vocab.has(token)) vocab.set(token, id);
    });
    const need = (token: string) => {
      const id = vocab.get(token);
      if (id === undefined) throw new Error(`Cannot build tokenizer: vocab.txt has no ${token}`);
      return id;
    };
    this.vocab = vocab;
    this.unk = need("[UNK]");
    this.cls = need("[CLS]");
    this.sep = need("[SEP]");
  }

  /** Greedy longest-match-first word pieces; a word with an unmatchable rest is `[UNK]` whole. */
  private wordPieces(word: string, out: number[]): void {
    const chars = Array.from(word);
    if (chars.length > MAX_WORD_CHARS) {
      out.push(this.unk);
      return;
    }
    const pieces: number[] = [];
    for (let start = 0; start < chars.length; ) {
      let end = chars.length;
      let found: number | undefined;
      while (start < end) {
        const piece = (start > 0 ? "##" : "") + chars.slice(start, end).join("");
        found = this.vocab.get(piece);
        if (found !== undefined) break;
        end--;
      }
      if (found === undefined) {
        out.push(this.unk);
        return;
      }
      pieces.push(found);
      start = end;
    }
    out.push(...pieces);
  }

  /** Token ids of the text alone, without `[CLS]`/`[SEP]`. */
  tokenize(text: string): number[] {
    const ids: number[] = [];
    for (const word of basicTokenize(text)) this.wordPieces(word, ids);
    return ids;
  }

  /** `clip.tokenize` for one text: `[CLS]` ids `[SEP]`, truncated and zero-padded to `length`. */
  encode(text: string, length = CONTEXT_LENGTH): BigInt64Array {
    const ids = [this.cls, ...this.tokenize(text).slice(0, length - 2), this.sep];
    const out = new BigInt64Array(length);
    ids.forEach((id, i) => {
      out[i] = BigInt(id);
    });
    return out;
  }
}

/**
 * The tokenizer of the MiniSearch baseline: what a user indexing mixed Chinese/English text with an
 * off-the-shelf BM25 library would write, with no dictionary — Chinese runs as overlapping
 * character bigrams, Latin letters and digits as words.
 */
/** Chinese runs as overlapping bigrams (a lone character as itself), Latin letters and digits as words. */
export function cjkBigramsAndWords(text: string): string[] {
  const tokens: string[] = [];
  for (const [, han, word] of text.matchAll(/(\p{Script=Han}+)|([\p{Script=Latin}\p{N}]+)/gu)) {
    if (word) tokens.push(word);
    else {
      const chars = [...han!];
      if (chars.length === 1) tokens.push(chars[0]!);
      for (let i = 0; i + 1 < chars.length; i++) tokens.push(chars[i]! + chars[i + 1]!);
    }
  }
  return tokens;
}

// A conversation's name from its first message, so the list reads as topics rather than a
// column of "me · console": its first line, trimmed to what fits the list, cut between words.

/** Characters a name keeps; Chinese, Japanese and Korean text (two columns a character) keeps half. */
const WIDTH = 48;
const WIDE = /[\u2e80-\u9fff\uac00-\ud7af\uf900-\ufaff\uff00-\uffef]/;

/** The name a conversation takes from the first thing said in it; empty when there are no words. */
export function titleFrom(text: string): string {
  const line = (text.split("\n").find((l) => l.trim()) ?? "").replace(/\s+/g, " ").trim();
  const room = WIDE.test(line) ? WIDTH / 2 : WIDTH;
  const chars = [...line];
  if (chars.length <= room) return line;
  const cut = chars.slice(0, room).join("");
  // Between words when there is a space late enough to keep most of the line.
  const space = cut.lastIndexOf(" ");
  return `${(space > room / 2 ? cut.slice(0, space) : cut).replace(/[\s,.;:，。；：、]+$/, "")}…`;
}

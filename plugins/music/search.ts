/**
 * Searching the index by artist, title, album and lyrics, in any script. Text is folded before it
 * is compared (NFKC, lower case, accents removed: "Beyoncé" is found by "beyonce", full-width
 * "ＡＢＣ" by "abc"). The query is split into words at spaces and punctuation; a run of Chinese or
 * Japanese characters is one word matched anywhere in a field (those scripts put no spaces between
 * words), a Latin word counts more at the start of a word than inside one. Every word must be
 * found in some field. A match weighs by its field — title and artist over album over lyrics —
 * and a field that is the whole query, or holds it as a phrase, counts most.
 */
import type { Track } from "./library.ts";

const FIELDS = [
  ["title", 3],
  ["artist", 3],
  ["album", 2],
  ["lyrics", 1],
] as const;
type Field = (typeof FIELDS)[number][0];

/** Folded for comparison: compatibility forms unified, lower case, combining marks removed. */
export function fold(text: string): string {
  return text
    .normalize("NFKC")
    .toLowerCase()
    .normalize("NFD")
    .replace(/\p{M}+/gu, "")
    .normalize("NFC");
}

/** Words of a folded query: runs of letters and digits, split at spaces and punctuation. */
function words(folded: string): string[] {
  return folded.match(/[\p{L}\p{N}]+/gu) ?? [];
}

/** Scripts written without spaces between words: any place in a field is a word's start. */
const UNSPACED = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Thai}]/u;

/** How well `word` is found in `field`: 2 at a word's start, 1 inside a word, 0 absent. */
function wordMatch(field: string, word: string): number {
  let best = 0;
  for (let at = field.indexOf(word); at !== -1; at = field.indexOf(word, at + 1)) {
    const before = field[at - 1];
    if (at === 0 || before === undefined || !/[\p{L}\p{N}]/u.test(before) || UNSPACED.test(word[0]!)) return 2;
    best = 1;
  }
  return best;
}

export type Hit = { track: Track; score: number; matched: Field[]; lyricsExcerpt: string | null };

type Folded = Record<Field, string> & { all: string };

/**
 * Folded fields, kept per track object so a search over 50,000 tracks folds each once; `all`
 * joins them, so a track without some word is passed over after one look.
 */
const foldedCache = new WeakMap<Track, Folded>();
function foldedFields(track: Track): Folded {
  let folded = foldedCache.get(track);
  if (!folded) {
    const fields = { title: fold(track.title), artist: fold(track.artist), album: fold(track.album), lyrics: fold(track.lyrics ?? "") };
    folded = { ...fields, all: `${fields.title}\n${fields.artist}\n${fields.album}\n${fields.lyrics}` };
    foldedCache.set(track, folded);
  }
  return folded;
}

export function searchTracks(tracks: Iterable<Track>, query: string, limit: number): { total: number; hits: Hit[] } {
  const phrase = fold(query).trim();
  const terms = [...new Set(words(phrase))];
  if (terms.length === 0) return { total: 0, hits: [] };
  const hits: Hit[] = [];
  for (const track of tracks) {
    const fields = foldedFields(track);
    // Every word must be found in some field (`all` holds them all, apart).
    if (!terms.every((term) => fields.all.includes(term))) continue;
    let score = 0;
    const matched = new Set<Field>();
    for (const term of terms) {
      let best = 0;
      for (const [field, weight] of FIELDS) {
        const found = wordMatch(fields[field], term) * weight;
        if (found > 0) matched.add(field);
        best = Math.max(best, found);
      }
      score += best;
    }
    for (const [field, weight] of FIELDS) {
      if (fields[field] === phrase) score += 4 * weight;
      else if (terms.length > 1 && fields[field].includes(phrase)) score += 2 * weight;
    }
    hits.push({ track, score, matched: [...matched], lyricsExcerpt: null });
  }
  // Ties by code point, not localeCompare: a common word can tie thousands of hits, and ICU's collation is many times slower.
  const order = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
  hits.sort((a, b) => b.score - a.score || order(a.track.artist, b.track.artist) || order(a.track.album, b.track.album) || order(a.track.path, b.track.path));
  // Excerpts only for what is returned (a common word can match thousands of lyrics).
  const shown = hits.slice(0, limit).map((hit) => (hit.matched.includes("lyrics") ? { ...hit, lyricsExcerpt: excerpt(hit.track.lyrics ?? "", foldedFields(hit.track).lyrics, terms) } : hit));
  return { total: hits.length, hits: shown };
}

/** The line of the lyrics where a query word is first found (at most 80 characters). */
function excerpt(lyrics: string, folded: string, terms: string[]): string {
  const at = Math.max(
    0,
    ...terms
      .map((t) => folded.indexOf(t))
      .filter((i) => i >= 0)
      .slice(0, 1),
  );
  // Folding keeps most characters in place; where it does not, the line found is off by a few characters at most.
  const lines = lyrics.split(/\r?\n/);
  let offset = 0;
  for (const line of lines) {
    if (at < offset + line.length + 1) return line.length > 80 ? line.slice(0, 80) : line;
    offset += line.length + 1;
  }
  return lyrics.slice(0, 80);
}

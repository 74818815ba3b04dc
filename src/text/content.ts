/**
 * The content of a query: its text with Chinese function words cut out by part of speech
 * (jieba's tagger), each replaced by a line break so that no word or n-gram spans the gap.
 *
 * Why by part of speech and not a stop list: the usual Chinese stop lists are full of single
 * characters that are content as often as not (年, 等, 做), while the tagger decides in context.
 * Why it matters: a dialogue used as a query is mostly pronouns, particles and adverbs (我, 的,
 * 了, 呢, 非常, 都), and memories share them too ("感到非常开心"); in BM25 over a small store such
 * words still carry weight, so they rank long memories that happen to contain many of them above
 * the one about the same thing. Only the query is cut: a stored text keeps every word, and a
 * query word that is gone simply adds nothing to any memory's score.
 *
 * English function words (`searchWords`' stop list: the, and, you, about…) are cut out the same
 * way. `searchWords` drops them from the words anyway, but the query's trigrams came from this
 * text, and their trigrams are the commonest in any English store ("the" in 67 % of the
 * synthetic 100k, "you" 39 %): the longest posting lists a query reads, for terms BM25 gives
 * next to nothing. Measured: a chat turn's injection at 100k (synthetic, interleaved A/B) 358 →
 * 196 ms p50; LoCoMo dev R@5/10/25/50 .661/.732/.823/.871 → .649/.731/.826/.869, MADial unchanged.
 */
import { tag } from "jieba-wasm/web";
import { loadJieba } from "./jieba.ts";
import { isEnglishFunctionWord } from "./words.ts";
import { mapPieces } from "./pieces.ts";
import { analysedPart } from "./limits.ts";

/**
 * jieba (ICTCLAS) tags of words that carry no topic: pronouns (r), prepositions (p),
 * conjunctions (c), auxiliaries (u, uj 的, ul 了, uz 着, ug 过, uv 地, ud 得), modal particles
 * (y), interjections (e), onomatopoeia (o) and adverbs (d: 非常, 都, 也, 最, 真的).
 */
export const FUNCTION_WORD_TAGS: ReadonlySet<string> = new Set(["r", "p", "c", "u", "uj", "ul", "uz", "ug", "uv", "ud", "y", "e", "o", "d"]);

type Tagged = { word: string; tag: string };

const isFunctionWord = ({ word, tag: t }: Tagged) => FUNCTION_WORD_TAGS.has(t) || isEnglishFunctionWord(word.toLowerCase());

const LONE_HAN = /^\p{Script=Han}$/u;
/**
 * Function-word tags whose characters are also given names' (和 c, 于 p, 也 d, 之 u, 其 r); never
 * the particles (了 ul, 的 uj, 着, 过, 地, 得, 吗/呢 y), which no name holds.
 */
const IN_NAMES_TAGS: ReadonlySet<string> = new Set(["p", "c", "d", "r", "u"]);
const HAN = /^\p{Script=Han}+$/u;

/**
 * A piece of a word jieba does not know: a lone Han character that is no function word, or Han
 * characters its HMM joined into a word of no dictionary (tagged `x`, e.g. 田约 of 周在田约).
 */
const isUnknownPiece = (t: Tagged | undefined) => t !== undefined && HAN.test(t.word) && !isFunctionWord(t) && (t.word.length === 1 || t.tag === "x");

/**
 * A one-character function word between two such pieces: the three are almost always one word
 * jieba does not know, cut apart — a name (林和远, 李也青, 周在田: 和, 也, 在 are common in names and
 * are a conjunction, an adverb, a preposition too). Cutting the middle one out left pieces that
 * match nothing of the name ("我昨天见到了林和远" found no memory of 林和远), so it stays. Words
 * of their own around it (他和我, 学校和医院) do not qualify.
 */
function inUnknownWord(tagged: readonly Tagged[], i: number): boolean {
  const t = tagged[i]!;
  return LONE_HAN.test(t.word) && IN_NAMES_TAGS.has(t.tag) && isUnknownPiece(tagged[i - 1]) && isUnknownPiece(tagged[i + 1]);
}

export async function contentText(text: string): Promise<string> {
  await loadJieba();
  const tagged: Tagged[] = (await mapPieces(text, (piece) => tag(piece, true))).flat();
  return tagged.map((t, i) => (isFunctionWord(t) && !inUnknownWord(tagged, i) ? "\n" : t.word)).join("");
}

/**
 * A text's topic words as the person wrote them, for naming a scene: the content words and
 * phrases of its analysed part in order (function words and punctuation split them), first
 * `max` distinct. Search stems would read "pleas, us, tool, recal" for "please use the recall
 * tool"; these read "Please, use, recall, tool".
 */
export async function topicWords(text: string, max: number): Promise<string[]> {
  const out: string[] = [];
  for (const phrase of (await contentText(analysedPart(text))).split(/[\s\p{P}\p{S}]+/u)) {
    if (phrase && !out.includes(phrase)) out.push(phrase);
    if (out.length === max) break;
  }
  return out;
}

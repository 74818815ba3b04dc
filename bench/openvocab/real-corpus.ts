/**
 * The open-vocabulary benchmark's real-text mode (issue 26): the same shape as `openVocabCorpus`
 * (lines, and per message its queryable rare terms) built from text no one in the project wrote —
 * the development halves of LoCoMo (English chat turns, `../locomo/convert.ts`) and MADial
 * (Chinese memories, `../madial/convert.ts`, and the Chinese dialogue lines those memories come up
 * in). ~3,500 messages: 2,760 LoCoMo turns, 83 MADial memories, 697 MADial dialogue lines.
 *
 * Ids: a message's own id prefixed with its conversation (`conv-26:D1:3`, `user-1:M1`,
 * `user-1/dialogue-0:3`), so they are unique across conversations (LoCoMo's dia_ids repeat in
 * each). The dialogues carry no date: their lines are dated a day a dialogue, a minute a turn.
 *
 * A message's query words are what a person would type to find it, taken with a segmentation that
 * is NOT homed's: homed segments Chinese with jieba, and picking query words with jieba would hand
 * its words channel exactly the tokens it indexed. `Intl.Segmenter` (ICU's dictionary word
 * segmenter) splits Chinese; Latin words are kept as written; only its word-like segments count.
 * A term is queryable when:
 * - it has at least 2 characters (Chinese) or 3 (Latin, digits): one Chinese character is mostly a
 *   function word or a piece of a word ICU does not know, and nobody recalls a message by "at";
 * - at most MAX_HOLDERS messages hold it (case folded) — the rare words of one message. This df
 *   bound is what excludes everyday words: over ~3,500 messages of chat, an everyday word is held by
 *   far more than 5. It is counted over all the real dev messages whatever the size asked (rarity is
 *   a property of the language, not of a subset) plus the generated filler when there is some (a
 *   word the filler also uses is not rare there);
 * - it is not in STOP_WORDS: a small list of chat fillers and function words whose rare spellings
 *   ("hahaha", "yep", "嗯嗯") the df bound lets through, though nobody searches by them.
 * Lookups are `exactLookups` unchanged: 3–4 of a message's rarest such terms, and a typo variant.
 *
 * Sizes: below the real count, an evenly spaced subset of the real messages (deterministic);
 * above it, every real message spread evenly through generated open-vocabulary filler
 * (`openVocabCorpus`, conversations c0…c99, ids m0…) up to the size. Filler messages carry no
 * query terms, so queries target real messages only.
 */
import { join } from "node:path";
import { convertLocomo } from "../locomo/convert.ts";
import { convertMadial, readDialogues } from "../madial/convert.ts";
import { openVocabCorpus, type OpenVocabCorpus, type OpenVocabLine } from "./corpus.ts";

export const DEV_DATA = process.env.HOMED_DEV_DATA ?? "/work/shared/data";

/** The most messages a term may be held by and still be one message's rare word. */
export const MAX_HOLDERS = 5;

/** Chat fillers and function words the df bound can let through in a rare spelling. */
export const STOP_WORDS = new Set(
  `haha hahaha hahahaha lol lmao omg wow yay yep yup yeah nope hmm hmmm umm uh huh aww awww ooh oops ok okay okey hey hiya thanks thx pls please yes the and but you your yours that this with from what when where which who whom whose would could should there their they them then than have been were will shall just also very really too
   嗯嗯 哈哈 哈哈哈 嘿嘿 呵呵 哇哦 哎呀 哎哟 呜呜 啊啊 好的 是的 谢谢 我们 你们 他们 她们 它们 自己 这个 那个 什么 怎么 为什么 因为 所以 但是 然后 如果 虽然 而且 还是 或者 就是 可以 已经 一个 一些 一下 一起 没有 不是 知道 觉得`.split(
    /\s+/,
  ),
);

const segmenter = new Intl.Segmenter("zh", { granularity: "word" });

/** A text's word-like segments as written, in order (repeats kept). */
export function words(text: string): string[] {
  const out: string[] = [];
  for (const s of segmenter.segment(text)) if (s.isWordLike) out.push(s.segment);
  return out;
}

const fold = (term: string) => term.toLowerCase();
const longEnough = (term: string) => [...term].length >= (/\p{Script=Han}/u.test(term) ? 2 : 3);

/** LoCoMo dev turns, MADial dev memories and dialogue lines, ids prefixed with their conversation. */
export function realMessages(data = DEV_DATA): OpenVocabLine[] {
  const prefixed = (l: OpenVocabLine): OpenVocabLine => ({ ...l, id: `${l.conversation}:${l.id}` });
  const madial = join(data, "madial");
  const dialogueLines = readDialogues(madial).flatMap((d) =>
    d.dialogue.flatMap((utterance, turn) => {
      // `<Bart>:"…"`; a few lines lack a quote, double the colon or end in a stray `<eod`.
      const m = /^<([^>]+)>:+\s*"?([\s\S]*?)"?\s*(<eod>?)?$/i.exec(utterance.trim());
      if (!m || m[1] === "BOD" || m[1] === "EOD" || m[2]!.trim() === "") return [];
      const conversation = `user-${d["user-id"]}/dialogue-${d.id}`;
      const assistant = m[1] === "Assistant";
      return [
        {
          conversation,
          session: "dialogue",
          time: new Date(Date.UTC(2024, 0, 1 + d.id, 12, turn)).toISOString(),
          speaker: m[1]!,
          role: assistant ? ("assistant" as const) : ("user" as const),
          text: m[2]!.trim(),
          id: `${conversation}:${turn}`,
        },
      ];
    }),
  );
  return [...convertLocomo(join(data, "locomo", "locomo-dev.json")).lines.map(prefixed), ...convertMadial(madial).lines.map(prefixed), ...dialogueLines];
}

export type RealCorpus = OpenVocabCorpus & {
  /** Real messages in `lines`; the rest is generated filler. */
  real: number;
  filler: number;
  /** Distinct word-like terms (case folded) of the real messages in `lines`. */
  realDistinctTerms: number;
};

/** `size` messages: real ones, evenly subset or spread through generated filler (see the file's comment). */
export function realCorpus(size: number, data = DEV_DATA, seed = 26): RealCorpus {
  const all = realMessages(data);
  const real = Math.min(size, all.length);
  const generated = real < size ? openVocabCorpus(size - real, seed) : undefined;
  const filler = generated?.lines ?? [];
  const df = new Map<string, number>();
  const count = (text: string) => {
    for (const t of new Set(words(text).map(fold))) df.set(t, (df.get(t) ?? 0) + 1);
  };
  for (const l of all) count(l.text);
  for (const l of filler) count(l.text);

  const picked = Array.from({ length: real }, (_, j) => all[Math.floor((j * all.length) / real)]!);
  const lines: OpenVocabLine[] = [];
  const rareTerms: string[][] = [];
  let next = 0;
  for (let i = 0; i < size; i++) {
    // Real message j goes at position ⌊j·size/real⌋: evenly spread, and all of them when size = real.
    if (next < real && Math.floor((next * size) / real) === i) {
      const line = picked[next++]!;
      lines.push(line);
      const rare = new Map<string, string>();
      for (const t of words(line.text)) {
        const key = fold(t);
        if (!rare.has(key) && longEnough(t) && !STOP_WORDS.has(key) && df.get(key)! <= MAX_HOLDERS) rare.set(key, t);
      }
      rareTerms.push([...rare.values()]);
    } else {
      lines.push(filler[i - next]!);
      rareTerms.push([]);
    }
  }
  const realDistinctTerms = new Set(picked.flatMap((l) => words(l.text).map(fold))).size;
  // The sum counts a word both use twice; the header prints the real share on its own.
  return { lines, rareTerms, distinctTerms: realDistinctTerms + (generated?.distinctTerms ?? 0), real, filler: filler.length, realDistinctTerms };
}

if (import.meta.main) {
  const corpus = realCorpus(Number(process.argv[2] ?? "3540"));
  console.error(`${corpus.real} real, ${corpus.filler} filler, ${corpus.realDistinctTerms} distinct real terms`);
  for (const line of corpus.lines) process.stdout.write(`${JSON.stringify(line)}\n`);
}

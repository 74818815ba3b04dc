/**
 * A small deterministic open-vocabulary chat corpus for exact lookups, to compare fusions on
 * (bench/fusion-probe/run.ts). Mixed Chinese/English lines: unsegmented Chinese runs built from
 * invented CJK words jieba does not know (so it cuts them differently in a short query and in a
 * long message), invented Latin words, codes and numbers, drawn Zipf-like so most are rare, among
 * everyday filler. A query is 3–4 of one message's rarest words; its gold is that message.
 * The same corpus for the same seed: seed 1 is the development split fusion choices were made
 * on, seed 2 the held-out one reported beside it. (bench/openvocab/ is the full benchmark; this
 * stays small so a fusion can be re-measured in seconds.)
 */
import type { ImportLine } from "../locomo/convert.ts";

/** A seeded PRNG (mulberry32), as bench/synthetic-corpus.ts. */
function rng(seed: number): () => number {
  return () => {
    seed |= 0;
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Characters invented names are made of: common ones, so jieba knows each alone but not the compounds. */
const CJK = Array.from(
  "安白北本边波才草长成城川春从大丹道德东冬方飞丰风福高歌光国海禾和河红宏华花欢黄辉吉佳江金锦景静菊康兰蓝乐雷黎莉良林玲龙露绿曼梅美明墨木南宁鹏平萍琪千强青清秋泉然荣瑞若森山善尚绍深胜诗石书舒霜水顺思松涛天亭庭通桐万伟文武西熙霞仙贤祥小晓心新星秀雪雅烟岩扬阳叶一仪怡逸银英影永友羽玉元原远月云泽展章振正之志中舟竹子",
);
const SYLLABLES = ["ka", "lo", "mi", "ren", "tor", "vex", "sul", "dra", "nim", "qu", "zel", "por", "fin", "gar", "hol", "jub", "wen", "yst", "bri", "cav"];
const FILLER_ZH = ["我觉得", "昨天", "我们", "今天下午", "还是", "已经", "说好了", "一起去", "看看", "可能要", "顺便", "记得", "后来", "其实", "然后"];
const FILLER_EN = ["I think", "yesterday", "we should", "remember", "about the", "with", "maybe", "after lunch", "the meeting", "again", "by the way", "next week"];

export type ProbeQuery = { id: string; conversation: string; query: string; gold: string[] };
export type Probe = { lines: ImportLine[]; queries: ProbeQuery[] };

/**
 * `messages` lines across `conversations`, and `queryCount` exact lookups. Term i of the
 * vocabulary is drawn with weight 1/(i+1) (Zipf, s = 1), so a few recur everywhere and most
 * appear a handful of times.
 */
export function probeCorpus(seed: number, messages = 10_000, conversations = 12, queryCount = 400): Probe {
  const random = rng(seed);
  const pick = <T>(xs: readonly T[]) => xs[Math.floor(random() * xs.length)]!;
  const vocabulary: string[] = [];
  const seen = new Set<string>();
  while (vocabulary.length < 6000) {
    const kind = random();
    let term: string;
    if (kind < 0.55) term = Array.from({ length: 2 + Math.floor(random() * 3) }, () => pick(CJK)).join("");
    else if (kind < 0.85) term = Array.from({ length: 2 + Math.floor(random() * 2) }, () => pick(SYLLABLES)).join("");
    else term = `${pick(["KX", "TB", "RQ", "M7", "ZP"])}-${1000 + Math.floor(random() * 9000)}`;
    if (!seen.has(term)) vocabulary.push(term), seen.add(term);
  }
  // Zipf weights as a cumulative table, sampled by binary search.
  const cumulative: number[] = [];
  let total = 0;
  for (let i = 0; i < vocabulary.length; i++) cumulative.push((total += 1 / (i + 1)));
  const drawTerm = () => {
    const x = random() * total;
    let lo = 0;
    let hi = cumulative.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (cumulative[mid]! < x) lo = mid + 1;
      else hi = mid;
    }
    return vocabulary[lo]!;
  };
  const isCjk = (s: string) => /\p{Script=Han}/u.test(s);
  const lines: ImportLine[] = [];
  const termsOf: string[][] = [];
  const start = Date.UTC(2025, 0, 1);
  for (let i = 0; i < messages; i++) {
    const terms = Array.from({ length: 4 + Math.floor(random() * 5) }, drawTerm);
    const pieces: string[] = [];
    for (const term of terms) {
      pieces.push(term);
      if (random() < 0.5) pieces.push(random() < 0.6 ? pick(FILLER_ZH) : pick(FILLER_EN));
    }
    // Chinese pieces next to each other are written without a space, as people write them.
    let text = "";
    for (const p of pieces) text += text === "" || (isCjk(p.slice(0, 1)) && isCjk(text.slice(-1))) ? p : ` ${p}`;
    lines.push({
      conversation: `c${i % conversations}`,
      session: `s${Math.floor(i / 50)}`,
      time: new Date(start + i * 60_000).toISOString(),
      speaker: i % 2 ? "Lin" : "Sam",
      role: i % 2 ? "assistant" : "user",
      text,
      id: `p${i}`,
    });
    termsOf.push([...new Set(terms)]);
  }
  const df = new Map<string, number>();
  for (const terms of termsOf) for (const t of terms) df.set(t, (df.get(t) ?? 0) + 1);
  const queries: ProbeQuery[] = [];
  for (let q = 0; q < queryCount; q++) {
    const m = Math.floor(random() * messages);
    const rarest = [...termsOf[m]!].sort((a, b) => df.get(a)! - df.get(b)! || a.localeCompare(b)).slice(0, 3 + Math.floor(random() * 2));
    if (rarest.length < 3) continue;
    queries.push({ id: `q${q}`, conversation: lines[m]!.conversation, query: rarest.join(" "), gold: [lines[m]!.id] });
  }
  return { lines, queries };
}

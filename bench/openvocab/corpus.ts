/**
 * An open-vocabulary chat history for recall benchmarks (issue 26): mixed Chinese/English
 * messages in conversations, deterministic from a seed, with exact-lookup queries built from it.
 * `bench/recall/corpus.ts` draws from a few hundred template phrases; real memories are full of
 * words no dictionary knows, and a closed vocabulary flatters speed, memory and ranking.
 *
 * The distributions (fixed here, not tuned to any system's result):
 * - Two vocabularies, each ranked and drawn Zipfian (P(rank r) ∝ 1/r, exponent 1):
 *   Chinese, 24,000 terms — ranks 1–150 real everyday words (吃饭, 工作, 医院…), the rest
 *   invented: 60 % random compounds of 2–4 characters from ~600 common characters (words jieba
 *   does not know), 20 % Chinese personal names (surname + 1–2 characters), 20 % transliterated
 *   foreign names of 2–4 characters (卡维娜, 罗德森…); Latin, 16,000 terms — ranks 1–200 real
 *   English words, the rest 55 % invented words of 2–4 syllables, 20 % capitalised invented names,
 *   15 % product codes ("AX-7731"), 10 % model/version codes ("QX300", "v2.14"). At rank 150 of
 *   24,000 about half the Chinese draws are invented terms; about 40 % of Latin ones.
 * - 100 conversations, turns interleaved (message i belongs to conversation i mod 100), sessions of
 *   20 turns a minute apart, a day between sessions; user and assistant alternate; each
 *   conversation has a user name from the vocabulary and 40 terms of its own (its people,
 *   projects, places: drawn uniformly from the invented tails) that fill 15 % of its content slots,
 *   so a conversation repeats its own names as real ones do.
 * - A message is Chinese (45 %), English (35 %) or mixed (20 %: a Chinese line where 40 % of the
 *   content slots are Latin terms, spaced or glued to the Chinese at random). It holds 3–10 content
 *   terms joined by function words (Chinese without spaces: 的, 了, 在, 我…; English: the, a, to…),
 *   with an optional opener and end punctuation. 8 % carry an order number ("订单号 58213",
 *   "order #58213", "快递单号SF…"), 12 % a number (price, time, date, percentage). Each real English
 *   word is misspelt 4 % of the time (one deletion, transposition or substitution).
 *
 * Queries: a person recalling a thing they said — 3 or 4 of one message's rarest terms (invented
 * terms, names, codes and order numbers, by document frequency in this corpus; real everyday words
 * are never chosen), shuffled, space separated. The target is that message; only messages with 3
 * or more such terms are targets. Variants: the same query scoped to the target's conversation,
 * and the query with one typo in its longest term (a Latin or digit term: one deletion,
 * transposition or substitution after its first character; a Chinese one: a character replaced by
 * another common one, as a wrong IME pick).
 *
 * Run directly to write JSONL: `bun bench/openvocab/corpus.ts 10000 > history.jsonl`.
 */
import { prng } from "../recall/corpus.ts";

const COMMON_CHARS = [
  ..."的一是不了人我在有他这中大来上国个到说们为子和你地出道也时年得就那要下以生会自着去之过家学对可她里后小么心多天而能好都然没日于起还发成事只作当想看文无开手十用主行方又如前所本见经头面公同三已老从动两长知民样现分将外但身些与高意进把法此实回二理美点月明其种声全工己话儿者向情部正名定女问力机给等几很业最间新什打便位因重被走电四第门相次东政海口使教西再平真听世气信北少关并内加化由却代军产入先山五太水万市眼体别处总才场师书比住员九笑性通目华报立马命张活难神数件安表原车白应路期叫死常提感金何更反合放做系计或司利受光王果亲界及今京务制解各任至清物台象记边共风战干接它许八特觉望直服毛林题建南度统色字请交爱让认算论百吃义科怎元社术结六功指思非流每青管夫连远资队跟带花快条院变联言权往展该领传近留红治决周保达办运武半候七必城父强步完革深区即求品士转量空甚众技轻程告江语英基派满式李息写呢识极令黄德收脸钱党倒未持取设始版双历越史商千片容研像找友孩站广改议形委早房音火际则首单据导影失拿网香似斯专石若兵弟谁校读志飞观争究包组造落视济喜离虽坐集编宝谈府拉黑且随格尽剑讲布杀微怕母调局根曾准团段终乐切级克精哪官示冷域",
].filter((c, i, all) => all.indexOf(c) === i);
const SURNAMES = [
  ..."王李张刘陈杨黄赵吴周徐孙马朱胡郭何高林罗郑梁谢宋唐许韩冯邓曹彭曾肖田董袁潘于蒋蔡余杜叶程苏魏吕丁任沈姚卢姜崔钟谭陆汪范金石廖贾夏韦付方白邹孟熊秦邱江尹薛闫段雷侯龙史陶黎贺顾毛郝龚邵万钱严覃武戴莫孔向汤",
];
const GIVEN = [..."伟芳娜敏静丽强磊军洋勇艳杰娟涛明超秀霞平刚桂英华玉萍红鹏辉建晶婷雪琳鑫淼浩宇轩欣怡梓涵子墨思远嘉诚晨曦若彤俊峰"];
const TRANSLIT = [..."斯克尔特娜丽莎维奥伊卡罗拉德森布兰格米亚安托尼玛雅贝琳诺蒂费埃杰姆汉泽西塔菲比"];
const ZH_COMMON =
  `吃饭 工作 医院 朋友 周末 晚上 明天 今天 昨天 时间 老师 学校 公司 孩子 妈妈 爸爸 电话 手机 电脑 问题 事情 东西 地方 房子 钱包 衣服 天气 下雨 上班 下班 开会 项目 老板 同事 客户 快递 外卖 超市 医生 感冒 发烧 咖啡 奶茶 火锅 米饭 面条 水果 早餐 午饭 晚饭 高铁 飞机 机场 地铁 出租车 酒店 旅游 假期 生日 礼物 蛋糕 电影 音乐 游戏 运动 跑步 健身 游泳 篮球 足球 书店 图书馆 考试 作业 报告 邮件 文件 合同 工资 房租 银行 信用卡 密码 账号 网站 软件 系统 数据 服务器 会议 计划 安排 预算 价格 便宜 贵 好吃 好看 开心 难过 担心 紧张 累 忙 舒服 方便 麻烦 记得 忘了 提醒 告诉 知道 觉得 喜欢 需要 准备 完成 开始 结束 回家 出门 见面 聊天 休息 睡觉 起床 洗澡 做饭 买菜 打车 排队 等待 检查 修理 搬家 装修 宠物 小猫 小狗 花园 公园 海边 北京 上海 广州 深圳 杭州 成都 城市 小区 邻居 亲戚 家里 楼下 附近 路上`.split(
    " ",
  );
const EN_COMMON =
  `time people year way day thing man world life hand part child eye woman place work week case point number group problem fact today tomorrow yesterday morning evening night weekend meeting office home school house car phone email message call dinner lunch breakfast coffee tea water food friend family mother father brother sister doctor teacher manager team project report budget plan idea question answer reason money price ticket flight hotel trip city street room door window table book movie music game party birthday gift store market order package delivery account password server database bug release deploy build test issue ticket client contract invoice payment bank card rent salary job interview schedule deadline weather rain summer winter spring holiday beach park garden dog cat kid baby happy sad tired busy late early good great nice bad new old big small long short important different easy hard free ready sure remember forget remind need want like love think know make take give find tell ask work call try leave feel seem become keep start show hear play run move live believe bring happen write sit stand lose pay meet include continue set learn change lead understand watch follow stop create speak read spend grow open walk win offer buy send build stay fall cut reach kill raise pass sell decide return explain hope develop carry break receive agree support hit produce eat cover catch draw choose cook clean fix check book`.split(
    " ",
  );
const SYLLABLES =
  `ba be bi bo bu ca ce ci co cu da de di do du fa fe fi fo ga ge gi go ha he hi ho ka ke ki ko ku la le li lo lu ma me mi mo mu na ne ni no nu pa pe pi po ra re ri ro ru sa se si so su ta te ti to tu va ve vi vo za ze zo bra bre cla cri dro fla gre kra pla pro sla sta tre vor zan lin mar tek rix dal quin sor bel`.split(
    " ",
  );
const ZH_GLUE = [..."的了在和我你他要去把给是也就还都跟说想"];
const ZH_OPENERS = ["我觉得", "昨天", "刚才", "你知道吗，", "对了，", "话说", "上次"];
const ZH_ENDS = ["。", "！", "？", "～", "", "吧。", "吗？", "了。", "呢？"];
const EN_GLUE = ["the", "a", "to", "and", "with", "for", "of", "in", "on", "at", "is", "was", "I", "we", "you", "my", "that", "it"];
const EN_OPENERS = ["so", "btw", "hey", "remember", "yesterday", "actually", "ok"];
const EN_ENDS = [".", "!", "?", "", "...", " :)"];
const LETTERS = "abcdefghijklmnopqrstuvwxyz";
const UPPER = "ABCDEFGHJKLMNPQRSTUVWXYZ";

export const CONVERSATIONS = 100;
const ZH_SIZE = 24_000;
const EN_SIZE = 16_000;
const OWN_TERMS = 40;

type Random = () => number;
const pickFrom = <T>(random: Random, list: readonly T[]): T => list[Math.floor(random() * list.length)]!;
const digits = (random: Random, n: number) => Array.from({ length: n }, (_, i) => (i === 0 ? 1 + Math.floor(random() * 9) : Math.floor(random() * 10))).join("");

/** A ranked vocabulary drawn Zipfian (exponent 1) by binary search over its cumulative weights. */
class Vocabulary {
  private readonly cumulative: Float64Array;
  constructor(
    readonly terms: readonly string[],
    /** Ranks below this are real everyday words, never chosen for a query. */
    readonly common: number,
  ) {
    this.cumulative = new Float64Array(terms.length);
    let sum = 0;
    for (let r = 0; r < terms.length; r++) this.cumulative[r] = sum += 1 / (r + 1);
  }
  draw(random: Random): { term: string; rare: boolean } {
    const target = random() * this.cumulative[this.cumulative.length - 1]!;
    let lo = 0;
    let hi = this.cumulative.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (this.cumulative[mid]! < target) lo = mid + 1;
      else hi = mid;
    }
    return { term: this.terms[lo]!, rare: lo >= this.common };
  }
  /** A term of the invented tail, uniformly. */
  tail(random: Random): string {
    return this.terms[this.common + Math.floor(random() * (this.terms.length - this.common))]!;
  }
}

/** Fills `common` up to `size` distinct terms from `invent`, in the order invented. */
function vocabulary(common: readonly string[], size: number, invent: () => string): Vocabulary {
  const terms = new Set(common);
  while (terms.size < size) terms.add(invent());
  return new Vocabulary([...terms], common.length);
}

function chineseVocabulary(random: Random): Vocabulary {
  const run = (pool: readonly string[], min: number, max: number) => Array.from({ length: min + Math.floor(random() * (max - min + 1)) }, () => pickFrom(random, pool)).join("");
  return vocabulary(ZH_COMMON, ZH_SIZE, () => {
    const kind = random();
    if (kind < 0.6) return run(COMMON_CHARS, 2, 4);
    if (kind < 0.8) return pickFrom(random, SURNAMES) + run(GIVEN, 1, 2);
    return run(TRANSLIT, 2, 4);
  });
}

function latinVocabulary(random: Random): Vocabulary {
  const word = () => Array.from({ length: 2 + Math.floor(random() * 3) }, () => pickFrom(random, SYLLABLES)).join("");
  return vocabulary(EN_COMMON, EN_SIZE, () => {
    const kind = random();
    if (kind < 0.55) return word();
    if (kind < 0.75) {
      const name = word();
      return name[0]!.toUpperCase() + name.slice(1);
    }
    if (kind < 0.9) return `${pickFrom(random, [...UPPER])}${pickFrom(random, [...UPPER])}-${digits(random, 4)}`;
    return random() < 0.5 ? `${pickFrom(random, [...UPPER])}${pickFrom(random, [...UPPER])}${digits(random, 3)}` : `v${1 + Math.floor(random() * 9)}.${Math.floor(random() * 30)}`;
  });
}

/** One edit of a word, after its first character: deletion, transposition or substitution. */
export function misspell(random: Random, word: string): string {
  const chars = [...word];
  if (chars.length < 2) return word;
  const at = 1 + Math.floor(random() * (chars.length - 1));
  const kind = random();
  const cjk = /\p{Script=Han}/u.test(chars[at]!);
  const number = /\d/.test(chars[at]!);
  const substitute = () => {
    let next = chars[at]!;
    while (next === chars[at]) next = cjk ? pickFrom(random, COMMON_CHARS) : number ? String(Math.floor(random() * 10)) : pickFrom(random, [...LETTERS]);
    chars[at] = next;
  };
  if (cjk || number || kind < 1 / 3) substitute();
  else if (kind < 2 / 3 && chars.length > 3) chars.splice(at, 1);
  else if (at < chars.length - 1 && chars[at] !== chars[at + 1]) [chars[at], chars[at + 1]] = [chars[at + 1]!, chars[at]!];
  else substitute();
  return chars.join("");
}

export type OpenVocabLine = { conversation: string; session: string; time: string; speaker: string; role: "user" | "assistant"; text: string; id: string };

export type OpenVocabCorpus = {
  lines: OpenVocabLine[];
  /** Per message, its queryable terms (invented words, names, codes, order numbers), as written. */
  rareTerms: string[][];
  /** Distinct terms the messages use: the rare ones they hold plus the everyday words (misspellings not counted). */
  distinctTerms: number;
};

/** Message text from its content terms, in one of the three kinds of line. */
function writeLine(random: Random, zh: Vocabulary, en: Vocabulary, own: readonly string[], record: (term: string) => void): string {
  const kind = random();
  const mode = kind < 0.45 ? "zh" : kind < 0.8 ? "en" : "mixed";
  const content: { term: string; latin: boolean }[] = [];
  for (let n = 3 + Math.floor(random() * 8); n > 0; n--) {
    if (random() < 0.15) {
      const term = pickFrom(random, own);
      record(term);
      content.push({ term, latin: !/\p{Script=Han}/u.test(term) });
      continue;
    }
    const latin = mode === "en" || (mode === "mixed" && random() < 0.4);
    const drawn = (latin ? en : zh).draw(random);
    if (drawn.rare) record(drawn.term);
    const misspelt = latin && !drawn.rare && random() < 0.04;
    content.push({ term: misspelt ? misspell(random, drawn.term) : drawn.term, latin });
  }
  const extras: string[] = [];
  if (random() < 0.08) {
    const order = digits(random, 5);
    record(order);
    extras.push(mode === "en" ? `order #${order}` : pickFrom(random, [`订单号 ${order}`, `订单 #${order}`, `快递单号SF${order}${digits(random, 5)}`]));
  }
  if (random() < 0.12) {
    const h = Math.floor(random() * 24);
    const m = String(Math.floor(random() * 60)).padStart(2, "0");
    extras.push(
      mode === "en"
        ? pickFrom(random, [
            `$${Math.floor(random() * 500)}.${digits(random, 2)}`,
            `${h}:${m}`,
            `2024-${String(1 + Math.floor(random() * 12)).padStart(2, "0")}-${String(1 + Math.floor(random() * 28)).padStart(2, "0")}`,
            `${Math.floor(random() * 100)}%`,
          ])
        : pickFrom(random, [`${Math.floor(random() * 2000)} 块`, `${h}:${m}`, `${1 + Math.floor(random() * 12)}月${1 + Math.floor(random() * 28)}号`, `${Math.floor(random() * 100)}%`]),
    );
  }
  if (mode === "en") {
    const words: string[] = [];
    if (random() < 0.3) words.push(pickFrom(random, EN_OPENERS));
    for (const c of content) {
      if (words.length > 0 && random() < 0.6) words.push(pickFrom(random, EN_GLUE));
      words.push(c.term);
    }
    words.push(...extras);
    const line = words.join(" ");
    return line[0]!.toUpperCase() + line.slice(1) + pickFrom(random, EN_ENDS);
  }
  let line = random() < 0.3 ? pickFrom(random, ZH_OPENERS) : "";
  for (const c of content) {
    if (line !== "") line += random() < 0.15 ? "，" : random() < 0.6 ? pickFrom(random, ZH_GLUE) : "";
    line += c.latin && random() < 0.5 ? ` ${c.term} ` : c.term;
  }
  for (const extra of extras) line += `，${extra}`;
  return line.replace(/ +/g, " ").trim() + pickFrom(random, ZH_ENDS);
}

/** `count` messages; the vocabularies depend on the seed only, not on the count. */
export function openVocabCorpus(count: number, seed = 26): OpenVocabCorpus {
  const words = prng(seed);
  const zh = chineseVocabulary(words);
  const en = latinVocabulary(words);
  const conversations = Array.from({ length: CONVERSATIONS }, () => ({
    user: words() < 0.5 ? zh.tail(words) : en.tail(words),
    own: Array.from({ length: OWN_TERMS }, () => (words() < 0.5 ? zh.tail(words) : en.tail(words))),
  }));
  const random = prng(seed + 1);
  const start = Date.UTC(2024, 0, 1);
  const lines: OpenVocabLine[] = [];
  const rareTerms: string[][] = [];
  for (let i = 0; i < count; i++) {
    const c = i % CONVERSATIONS;
    const turn = Math.floor(i / CONVERSATIONS);
    const session = Math.floor(turn / 20);
    const user = turn % 2 === 0;
    const rare = new Set<string>();
    const text = writeLine(random, zh, en, conversations[c]!.own, (term) => rare.add(term));
    rareTerms.push([...rare]);
    lines.push({
      conversation: `c${c}`,
      session: `s${session}`,
      time: new Date(start + session * 86_400_000 + (turn % 20) * 60_000).toISOString(),
      speaker: user ? conversations[c]!.user : "assistant",
      role: user ? "user" : "assistant",
      text,
      id: `m${i}`,
    });
  }
  return { lines, rareTerms, distinctTerms: new Set(rareTerms.flat()).size + ZH_COMMON.length + EN_COMMON.length };
}

export type ExactLookup = {
  id: string;
  /** The message the query was taken from. */
  target: string;
  conversation: string;
  query: string;
  /** The same query with one typo in its longest term. */
  typo: string;
  /** Whether the target is the only message holding all of the query's terms. */
  unique: boolean;
};

/** `count` exact lookups over distinct target messages (see the file's comment). */
export function exactLookups(corpus: OpenVocabCorpus, count: number, seed = 7): ExactLookup[] {
  const holders = new Map<string, number[]>();
  corpus.rareTerms.forEach((terms, i) => {
    for (const t of terms) {
      const list = holders.get(t);
      if (list) list.push(i);
      else holders.set(t, [i]);
    }
  });
  const random = prng(seed);
  const eligible = corpus.rareTerms.flatMap((terms, i) => (terms.length >= 3 ? [i] : []));
  const chosen = new Set<number>();
  const lookups: ExactLookup[] = [];
  while (lookups.length < Math.min(count, eligible.length)) {
    const i = pickFrom(random, eligible);
    if (chosen.has(i)) continue;
    chosen.add(i);
    const rarest = [...corpus.rareTerms[i]!].sort((a, b) => holders.get(a)!.length - holders.get(b)!.length || (a < b ? -1 : 1));
    const terms = rarest.slice(0, random() < 0.5 ? 3 : 4);
    const others = terms.slice(1).map((t) => new Set(holders.get(t)));
    const together = holders.get(terms[0]!)!.filter((m) => others.every((o) => o.has(m)));
    for (let j = terms.length - 1; j > 0; j--) {
      const k = Math.floor(random() * (j + 1));
      [terms[j], terms[k]] = [terms[k]!, terms[j]!];
    }
    const longest = terms.reduce((best, t, j) => ([...t].length > [...terms[best]!].length ? j : best), 0);
    const typo = terms.map((t, j) => (j === longest ? misspell(random, t) : t));
    const line = corpus.lines[i]!;
    lookups.push({ id: `q${lookups.length}`, target: line.id, conversation: line.conversation, query: terms.join(" "), typo: typo.join(" "), unique: together.length === 1 });
  }
  return lookups;
}

if (import.meta.main) {
  const corpus = openVocabCorpus(Number(process.argv[2] ?? "10000"));
  for (const line of corpus.lines) process.stdout.write(`${JSON.stringify(line)}\n`);
}

/**
 * A synthetic but realistic chat history for speed measurements: mixed Chinese/English
 * messages (everyday plans, work, food, places, numbers, code words), deterministic from a seed
 * so every run and every machine measures the same corpus. Run directly to write JSONL:
 * `bun bench/recall/corpus.ts 10000 > history.jsonl`.
 */

/** mulberry32: a tiny seeded PRNG; Math.random cannot be seeded. */
export function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const NAMES = ["Alice", "Bob", "小明", "李雷", "韩梅梅", "Carol", "王芳", "David", "Eve", "张伟"];
const PLACES = ["Costco", "北京", "上海", "the office", "健身房", "Shenzhen", "图书馆", "the airport", "咖啡馆", "Lisbon", "杭州西湖", "the dentist"];
const THINGS = [
  "coffee beans",
  "机票",
  "a new laptop",
  "生日蛋糕",
  "the quarterly report",
  "Python 脚本",
  "跑步鞋",
  "a birthday gift",
  "火锅",
  "the Kubernetes cluster",
  "租房合同",
  "vitamins",
  "iPhone 充电器",
  "a guitar",
  "月饼",
];
const TIMES = ["tomorrow", "明天下午", "next Monday", "周末", "at 3pm", "下个月", "tonight", "后天早上", "in two weeks", "春节前"];
const FEELINGS = ["开心", "tired", "有点紧张", "excited", "很失望", "relieved", "无聊", "proud", "担心", "curious"];
const TEMPLATES = [
  (p: Pick) => `I'm going to ${p(PLACES)} ${p(TIMES)} to get ${p(THINGS)}.`,
  (p: Pick) => `我${p(TIMES)}要去${p(PLACES)}买${p(THINGS)}，你要一起吗？`,
  (p: Pick) => `${p(NAMES)} said the ${p(THINGS)} will be ready ${p(TIMES)}, I feel ${p(FEELINGS)}.`,
  (p: Pick) => `今天和${p(NAMES)}聊了${p(THINGS)}的事情，感觉${p(FEELINGS)}。`,
  (p: Pick) => `Can you remind me to call ${p(NAMES)} about ${p(THINGS)} ${p(TIMES)}?`,
  (p: Pick) => `刚从${p(PLACES)}回来，${p(THINGS)}花了 ${Math.floor(p.n() * 900 + 100)} 块钱。`,
  (p: Pick) => `The meeting with ${p(NAMES)} at ${p(PLACES)} moved to ${p(TIMES)}; bring ${p(THINGS)}.`,
  (p: Pick) => `帮我记一下：${p(NAMES)}喜欢${p(THINGS)}，不喜欢${p(THINGS)}。`,
  (p: Pick) => `Deploy failed again on ${p(THINGS)}, error code ${Math.floor(p.n() * 9000 + 1000)}. So ${p(FEELINGS)}.`,
  (p: Pick) => `${p(TIMES)}的航班改到${p(PLACES)}了，记得带${p(THINGS)}。`,
];

type Pick = (<T>(list: readonly T[]) => T) & { n: () => number };

export type SyntheticLine = { conversation: string; session: string; time: string; speaker: string; role: "user" | "assistant"; text: string; id: string };

/** `count` messages over `conversations` conversations, sessions of 20 turns, a minute apart. */
export function* syntheticHistory(count: number, conversations = 100, seed = 42): Generator<SyntheticLine> {
  const n = prng(seed);
  const pick = Object.assign(<T>(list: readonly T[]) => list[Math.floor(n() * list.length)]!, { n }) as Pick;
  const start = Date.UTC(2024, 0, 1);
  for (let i = 0; i < count; i++) {
    const conversation = i % conversations;
    const turn = Math.floor(i / conversations);
    const session = Math.floor(turn / 20);
    const user = turn % 2 === 0;
    yield {
      conversation: `c${conversation}`,
      session: `s${session}`,
      time: new Date(start + session * 86_400_000 + (turn % 20) * 60_000).toISOString(),
      speaker: user ? NAMES[conversation % NAMES.length]! : "assistant",
      role: user ? "user" : "assistant",
      text: pick(TEMPLATES)(pick),
      id: `m${i}`,
    };
  }
}

/** Queries like a person would type: two or three content words of a stored message's kind. */
export function syntheticQueries(count: number, conversations = 100, seed = 7): { id: string; query: string; conversation: string }[] {
  const n = prng(seed);
  const pick = <T>(list: readonly T[]) => list[Math.floor(n() * list.length)]!;
  return Array.from({ length: count }, (_, i) => ({
    id: `q${i}`,
    query: n() < 0.5 ? `${pick(THINGS)} ${pick(PLACES)}` : `${pick(NAMES)} ${pick(THINGS)} ${pick(TIMES)}`,
    conversation: `c${Math.floor(n() * conversations)}`,
  }));
}

if (import.meta.main) {
  const count = Number(process.argv[2] ?? "10000");
  for (const line of syntheticHistory(count)) process.stdout.write(`${JSON.stringify(line)}\n`);
}

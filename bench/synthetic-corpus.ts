/**
 * Deterministic synthetic conversation history for benchmarks: realistic mixed Chinese/English
 * chat lines about everyday topics, the same for a given seed and size.
 */
import type { ColdMessage } from "../src/memory/index.ts";

const TOPICS_EN = [
  "my sister's wedding in Hangzhou",
  "the new database migration",
  "a trip to Kyoto next spring",
  "fixing the bike's rear brake",
  "learning to bake sourdough",
  "the quarterly budget review",
  "a bug in the login page",
  "our cat Miso's vet visit",
  "running a half marathon",
  "moving to a new apartment",
];
const TOPICS_ZH = ["周末去西湖散步", "公司的年终总结", "学习弹吉他", "孩子的数学作业", "装修新房子的预算", "和朋友吃火锅", "准备考驾照", "给妈妈买生日礼物", "北京的雾霾天气", "换一台新笔记本电脑"];
const VERBS_EN = ["I keep thinking about", "Can you remind me about", "Yesterday we talked about", "I finally decided on", "What do you know about"];
const TAILS_ZH = ["，感觉有点累。", "，你觉得怎么样？", "，已经安排好了。", "，还没想好。", "，下周再说吧。"];

/** A tiny seeded PRNG (mulberry32) so corpora are reproducible. */
function rng(seed: number): () => number {
  return () => {
    seed |= 0;
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export function syntheticHistory(count: number, seed = 7): ColdMessage[] {
  const random = rng(seed);
  const pick = <T>(xs: readonly T[]) => xs[Math.floor(random() * xs.length)]!;
  const start = Date.UTC(2025, 0, 1);
  return Array.from({ length: count }, (_, i) => {
    const zh = random() < 0.5;
    const text = zh ? `${pick(TOPICS_ZH)}${pick(TAILS_ZH)} (${pick(TOPICS_EN)})` : `${pick(VERBS_EN)} ${pick(TOPICS_EN)} — ${pick(TOPICS_ZH)} #${i}`;
    return {
      conversation: `user-${i % 20}`,
      session: `s${Math.floor(i / 50)}`,
      time: start + i * 60_000,
      speaker: i % 2 ? "assistant" : "user",
      role: i % 2 ? "assistant" : "user",
      text,
      sourceId: `m${i}`,
    } satisfies ColdMessage;
  });
}

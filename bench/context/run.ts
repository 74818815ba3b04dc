/**
 * bench/context: what the L1 context engine costs, each number beside a baseline measured in
 * the same run. Prints numbers; never fails.
 *
 * - Token estimates: the error of the two cheap rules a user would otherwise pick
 *   (characters / 4, and "one token per CJK character + other characters / 4") against the
 *   real o200k_base count, on Chinese (MADial memories), English (LoCoMo turns) and mixed
 *   messages; and the counting speed of each.
 * - Pruning (plan: overflow ratio, pinned N, dense scoring, keep/sink) and rendering under a
 *   budget at 1k, 10k and 100k events, with the growth ratio between sizes. Baseline for
 *   rendering: per-message truncation from the newest message back, the blind cut homed
 *   refuses — as fast, but it breaks tool-call pairs, counted here.
 * - The store side over 1000 turns: each turn appends an L1 event (jieba, both vectors,
 *   blocks, search rows) and runs the overflow check, which prunes and sinks in one
 *   transaction when L1 passes 1.25 × budget; baseline: a one-row write transaction.
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { hashEmbed } from "../../src/embed/index.ts";
import { countTokens, loadTokenizer, searchWords, TfidfCorpus } from "../../src/text/index.ts";
import {
  createContextEngine,
  eventTokens,
  inspectSequence,
  messageTokens,
  planPrune,
  renderUnderBudget,
  type ChatMessage,
  type ContextEvent,
  type PrunableEvent,
  type RenderableEvent,
} from "../../src/context/index.ts";
import { openStore } from "../../src/store/index.ts";

await loadTokenizer();

const DATA = new URL("../../../shared/data/", import.meta.url).pathname;
const MODEL = "fallback-hash-v1@512";

function section(title: string, body: () => Promise<void>): Promise<void> {
  console.log(`\n-- ${title}`);
  return body().catch((error) => console.log(`(section failed: ${(error as Error).message})`));
}

function time<T>(fn: () => T, runs = 3): { ms: number; value: T } {
  let best = Infinity;
  let value!: T;
  for (let i = 0; i < runs; i++) {
    const started = performance.now();
    value = fn();
    best = Math.min(best, performance.now() - started);
  }
  return { ms: best, value };
}

function loadTexts(): { zh: string[]; en: string[] } {
  const lines = (file: string) => readFileSync(join(DATA, file), "utf8").split("\n").filter(Boolean);
  const memories = lines("madial/memory-dev.jsonl").map((line) => (Object.values(JSON.parse(line))[0] as { event: string }).event);
  // Dialogue utterances look like `<Bart>:"…"`: keep the words, drop the speaker tag and quotes.
  const utterances = lines("madial/dialogue-dev.jsonl").flatMap((line) =>
    (JSON.parse(line) as { dialogue: string[] }).dialogue
      .map((u) =>
        u
          .trim()
          .replace(/^<[^>]+>:"?/, "")
          .replace(/"$/, ""),
      )
      .filter((u) => u.length > 0 && u !== "<BOD>" && u !== "<EOD>"),
  );
  const zh = [...memories, ...utterances];
  const conversations = JSON.parse(readFileSync(join(DATA, "locomo/locomo-dev.json"), "utf8")) as { conversation: Record<string, unknown> }[];
  const en: string[] = [];
  for (const c of conversations) {
    for (const [key, turns] of Object.entries(c.conversation)) {
      if (/^session_\d+$/.test(key) && Array.isArray(turns)) for (const t of turns) en.push((t as { text: string }).text);
    }
  }
  return { zh, en };
}

const CJK = /[\u3000-\u303f\u3400-\u9fff\uf900-\ufaff\uff00-\uffef]/g;
const RULES: Record<string, (t: string) => number> = {
  "chars/4": (t) => Math.ceil(t.length / 4),
  "CJK=1, rest/4": (t) => {
    const cjk = t.match(CJK)?.length ?? 0;
    return cjk + Math.ceil((t.length - cjk) / 4);
  },
};

async function tokenSection(zh: string[], en: string[]) {
  const mixed = zh.slice(0, 1000).map((z, i) => `${z} ${en[i % en.length]} {"path":"src/app_${i}.ts"}`);
  const sets: Record<string, string[]> = { Chinese: zh, English: en.slice(0, 3000), mixed };
  console.log("mean |error| per message against o200k_base (signed total error in brackets):");
  for (const [name, texts] of Object.entries(sets)) {
    const truth = texts.map(countTokens);
    const total = truth.reduce((a, b) => a + b, 0);
    const cells = Object.entries(RULES).map(([rule, f]) => {
      let abs = 0;
      let sum = 0;
      texts.forEach((t, i) => {
        const est = f(t);
        abs += Math.abs(est - truth[i]!) / Math.max(1, truth[i]!);
        sum += est;
      });
      return `${rule}: ${((abs / texts.length) * 100).toFixed(0)}% [${(((sum - total) / total) * 100).toFixed(0)}%]`;
    });
    const chars = texts.reduce((a, t) => a + t.length, 0);
    console.log(`  ${name.padEnd(8)} ${texts.length} msgs, ${(total / chars).toFixed(2)} tokens/char  ${cells.join("   ")}`);
  }
  const sample = [...zh, ...en].slice(0, 5000);
  const chars = sample.reduce((a, t) => a + t.length, 0);
  const real = time(() => sample.reduce((a, t) => a + countTokens(t), 0));
  const cheap = time(() => sample.reduce((a, t) => a + RULES["CJK=1, rest/4"]!(t), 0));
  console.log(
    `speed on ${sample.length} messages (${(chars / 1e3).toFixed(0)}k chars): o200k ${real.ms.toFixed(1)} ms ` +
      `(${(chars / real.ms / 1e3).toFixed(1)} M chars/s, warm merge cache), CJK rule ${cheap.ms.toFixed(2)} ms — ${(real.ms / cheap.ms).toFixed(0)}× slower, paid once per event on entry`,
  );
}

type BenchEvent = RenderableEvent & PrunableEvent;

/** `n` events cycling through real turns; every fifth is a tool frame with three parallel calls. */
async function makeEvents(n: number, zh: string[], en: string[]): Promise<BenchEvent[]> {
  const pool = [...zh.slice(0, 500), ...en.slice(0, 1500)];
  const words = await Promise.all(pool.map((t) => searchWords(t)));
  const corpus = TfidfCorpus.fromDocuments(words);
  const vectors = pool.map((t, i) => ({ dense: { model: MODEL, vector: hashEmbed(t) }, tfidf: corpus.vector(words[i]!) }));
  const events: BenchEvent[] = [];
  for (let i = 0; i < n; i++) {
    const k = i % pool.length;
    const text = pool[k]!;
    const messages: ChatMessage[] =
      i % 5 === 4
        ? [
            { role: "assistant", content: null, tool_calls: [0, 1, 2].map((j) => ({ id: `c${i}_${j}`, type: "function" as const, function: { name: "search", arguments: `{"q":"${j}"}` } })) },
            ...[2, 0, 1].map((j): ChatMessage => ({ role: "tool", tool_call_id: `c${i}_${j}`, content: text })),
          ]
        : [{ role: i % 2 ? "assistant" : "user", content: text }];
    events.push({ id: `e${i}`, messages, tokens: eventTokens(messages), ...vectors[k]! });
  }
  return events;
}

/** Per-message token counts, computed once as the events' own counts are. */
const messageCounts = new WeakMap<ChatMessage, number>();
const tokensOf = (m: ChatMessage) => {
  let t = messageCounts.get(m);
  if (t === undefined) messageCounts.set(m, (t = messageTokens(m)));
  return t;
};

/** The blind cut: newest messages back until the budget is used, whatever they belong to. */
function truncateMessages(events: readonly RenderableEvent[], budget: number): ChatMessage[] {
  const out: ChatMessage[] = [];
  let used = 0;
  for (let i = events.length - 1; i >= 0; i--) {
    const ms = events[i]!.messages;
    for (let j = ms.length - 1; j >= 0; j--) {
      const t = tokensOf(ms[j]!);
      if (used + t > budget) return out.reverse();
      out.push(ms[j]!);
      used += t;
    }
  }
  return out.reverse();
}

async function engineSection(zh: string[], en: string[]) {
  const sizes = [1_000, 10_000, 100_000];
  const rows: { n: number; prune: number; render: number; baseline: number; broken: number; sunk: number }[] = [];
  const query = { dense: { model: MODEL, vector: hashEmbed("what did we decide about the trip to 杭州") } };
  for (const n of sizes) {
    const events = await makeEvents(n, zh, en);
    const total = events.reduce((a, e) => a + e.tokens, 0);
    const pruneBudget = Math.floor(total / 2); // ratio 2: above the 1.25 threshold, half must sink
    const prune = time(() => planPrune(events, query, { budget: pruneBudget }));
    const renderBudget = 64_000;
    for (const e of events) for (const m of e.messages) tokensOf(m);
    const render = time(() => renderUnderBudget(events, renderBudget), 5);
    const baseline = time(() => truncateMessages(events, renderBudget), 5);
    // Probe the blind cut at many budgets: how often its request would be rejected.
    let broken = 0;
    const probes = 200;
    for (let b = 0; b < probes; b++) {
      const r = inspectSequence(truncateMessages(events.slice(-400), 500 + b * 37));
      if (r.dangling + r.orphans > 0) broken++;
    }
    const ours = inspectSequence(render.value.messages);
    if (ours.dangling + ours.orphans > 0) console.log("  (bug: homed's render broke a pair)");
    rows.push({ n, prune: prune.ms, render: render.ms, baseline: baseline.ms, broken: broken / probes, sunk: prune.value.sink.length });
  }
  console.log("events    prune plan   sunk      render (64k)   blind cut   blind cut: requests with a broken pair");
  for (const r of rows) {
    console.log(
      `${String(r.n).padEnd(9)} ${r.prune.toFixed(1).padStart(8)} ms ${String(r.sunk).padStart(7)} ${r.render.toFixed(2).padStart(10)} ms ${r.baseline.toFixed(2).padStart(9)} ms   ${(r.broken * 100).toFixed(0)}% of 200 budgets (homed: 0%)`,
    );
  }
  for (let i = 1; i < rows.length; i++) {
    const a = rows[i - 1]!;
    const b = rows[i]!;
    console.log(`growth ${a.n}→${b.n} (×${b.n / a.n}): prune ×${(b.prune / a.prune).toFixed(1)}, render ×${(b.render / a.render).toFixed(1)}, blind cut ×${(b.baseline / a.baseline).toFixed(1)}`);
  }
}

async function storeSection(zh: string[], en: string[]) {
  const dir = mkdtempSync(join(tmpdir(), "homed-bench-context-"));
  const store = await openStore({ url: `file:${join(dir, "homed.db")}` });
  try {
    const engine = createContextEngine({ client: store.client });
    const pool = [...zh.slice(0, 200), ...en.slice(0, 800)];
    const budget = 4_000;
    let appendMs = 0;
    let pruneMs = 0;
    let sunk = 0;
    let prunes = 0;
    for (let i = 0; i < 1_000; i++) {
      const event: ContextEvent = { id: `e${i}`, time: new Date(Date.UTC(2026, 0, 1, 0, 0, i)).toISOString(), messages: [{ role: "user", content: pool[i % pool.length]! }] };
      let started = performance.now();
      await engine.append("bench", "bench", event);
      appendMs += performance.now() - started;
      started = performance.now();
      const plan = await engine.prune("bench", pool[(i * 7) % pool.length]!, budget);
      pruneMs += performance.now() - started;
      sunk += plan.sink.length;
      if (plan.overflow) prunes++;
    }
    const l1 = await store.client.execute("SELECT COUNT(*) AS n, SUM(tokens) AS t FROM events WHERE layer = 'L1'");
    console.log(
      `1000 turns at a ${budget}-token budget: append ${(appendMs / 1000).toFixed(2)} ms/turn (jieba, embed, TF-IDF, blocks, search rows, commit), ` +
        `overflow check ${(pruneMs / 1000).toFixed(2)} ms/turn; ${prunes} prunes sank ${sunk} events with their blocks; L1 ends with ${l1.rows[0]!.n} events, ${l1.rows[0]!.t} tokens`,
    );
    const started = performance.now();
    for (let i = 0; i < 100; i++) {
      const tx = await store.client.transaction("write");
      await tx.execute({ sql: "INSERT INTO settings (key, value, updated_at) VALUES (?, '1', 0)", args: [`bench-${i}`] });
      await tx.commit();
      tx.close();
    }
    console.log(`baseline: one-row write transaction on the same file ${((performance.now() - started) / 100).toFixed(2)} ms (the commit's share of an append)`);
  } finally {
    store.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

const { zh, en } = loadTexts();
await section("token estimates", () => tokenSection(zh, en));
await section("prune and render at 1k / 10k / 100k events", () => engineSection(zh, en));
await section("store: L1 writes and a sink", () => storeSection(zh, en));

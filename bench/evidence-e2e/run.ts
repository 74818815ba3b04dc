/**
 * What the model is actually given (issue 26, item 4): LoCoMo dev imported with `homed import`,
 * then every category 1–4 question asked through `/v1/chat/completions` of a real daemon from
 * source, one ordinary chat, as an OpenAI client would. The provider is a scripted server on
 * 127.0.0.1 that records each request homed sends it; a question's evidence "reaches the model"
 * when an evidence turn's text is in that request (its first 60 characters, whitespace folded —
 * an injected memory may be shortened at its end, never at its start).
 *
 * Run once per context window the provider reports (`HOMED_CONTEXT_WINDOW`): a short one gets
 * today's fixed bands, a large one more memories when more are relevant. The baseline in the same
 * run is recall itself: the same questions through `homed recall` (top 8 and top 25), i.e. what
 * the injection could carry at most if it took recall's list as is. Prints figures, never fails.
 *
 * Run: bun bench/evidence-e2e/run.ts [-questions N]  (N: a deterministic subset spread over all conversations, default 300 of 762; 0 for all)
 */
import { rmSync } from "node:fs";
import { join } from "node:path";
import { startApiDaemon } from "../../tests/support/api-daemon.ts";
import { startScriptedProvider } from "../../tests/support/scripted-provider.ts";
import { batchRecall, evidenceRecall, importInto, tempDir, writeJsonl } from "../evidence.ts";
import { convertLocomo } from "../locomo/convert.ts";

const DATA = process.env.LOCOMO_FILE ?? "/work/shared/data/locomo/locomo-dev.json";
const WINDOWS = [8_192, 32_768, 131_072] as const;
const flag = process.argv.indexOf("-questions");
const limit = flag > 0 ? Number(process.argv[flag + 1]) : 300;

// dia_ids ("D1:3") repeat across conversations, and an ordinary chat recalls from all five: ids
// are made unique as "conversation/dia_id", in the history and in the evidence alike.
const locomo = convertLocomo(DATA);
const lines = locomo.lines.map((l) => ({ ...l, id: `${l.conversation}/${l.id}` }));
const all = locomo.questions.map((q) => ({ ...q, evidence: q.evidence.map((e) => `${q.conversation}/${e}`) }));
// A deterministic subset spread over all conversations: every k-th question.
const step = limit > 0 ? Math.max(1, Math.floor(all.length / limit)) : 1;
const questions = limit > 0 ? all.filter((_, i) => i % step === 0).slice(0, limit) : all;
const fold = (text: string) => text.replace(/\s+/g, " ").trim();
const textOf = new Map(lines.map((l) => [l.id, fold(l.text)] as const));
const probeOf = (id: string) => textOf.get(id)?.slice(0, 60);
console.log(`LoCoMo: ${lines.length} turns, ${questions.length} of ${all.length} questions (categories 1-4) from ${DATA}`);

const dir = tempDir("homed-evidence-e2e-");
const historyFile = join(dir, "history.jsonl");
writeJsonl(historyFile, lines);
const imported = importInto(join(dir, "data"), historyFile);
console.log(imported.summary);

/** The share of questions with any / all of their evidence present, and of all evidence turns. */
function reach(present: (questionIndex: number, evidence: string) => boolean) {
  let any = 0;
  let every = 0;
  let turns = 0;
  let found = 0;
  questions.forEach((q, i) => {
    const hits = q.evidence.filter((e) => probeOf(e) !== undefined && present(i, e)).length;
    const known = q.evidence.filter((e) => probeOf(e) !== undefined).length;
    if (hits > 0) any++;
    if (known > 0 && hits === known) every++;
    turns += known;
    found += hits;
  });
  return { any: any / questions.length, every: every / questions.length, turns: found / turns };
}
const pct = (x: number) => `${(100 * x).toFixed(1)} %`;

// Baseline: recall's own ranking, unscoped like an ordinary chat's (imported history is `user`).
const queriesFile = join(dir, "queries.jsonl");
writeJsonl(
  queriesFile,
  questions.map((q) => ({ id: q.id, query: q.query })),
);
const ranked = batchRecall(join(dir, "data"), queriesFile, 25);
for (const k of [8, 25]) {
  const r = reach((i, e) => (ranked.get(questions[i]!.id) ?? []).slice(0, k).some((sources) => sources.includes(e)));
  console.log(`baseline: homed recall top ${k} (no window):`.padEnd(46), `questions with evidence ${pct(r.any)}, with all of it ${pct(r.every)}, evidence turns ${pct(r.turns)}`);
}
const gold = questions.map((q) => ({ id: q.id, gold: q.evidence }));
console.log(
  `(recall@8/25 as bench/locomo scores it: ${evidenceRecall(gold, (id) => ranked.get(id) ?? [], [8, 25])
    .map((x) => x.toFixed(3))
    .join(" / ")})`,
);

const provider = await startScriptedProvider(() => ({ content: "ok." }));
try {
  for (const window of WINDOWS) {
    process.env.HOMED_CONTEXT_WINDOW = String(window);
    const daemon = await startApiDaemon(join(dir, "data"), provider.url);
    const requests: string[] = [];
    const started = performance.now();
    try {
      for (const q of questions) {
        const before = provider.requests.length;
        const response = await fetch(`${daemon.url}/v1/chat/completions`, {
          method: "POST",
          headers: daemon.headers,
          body: JSON.stringify({ model: "scripted", messages: [{ role: "user", content: q.query }] }),
        });
        if (!response.ok) throw new Error(`/v1/chat/completions: ${response.status} ${await response.text()}`);
        await response.json();
        const sent = provider.requests.slice(before).find((r) => JSON.stringify(r.body.messages).includes(JSON.stringify(q.query).slice(1, -1)));
        requests.push(sent ? fold(sent.body.messages.map((m: { content: unknown }) => (typeof m.content === "string" ? m.content : JSON.stringify(m.content))).join("\n")) : "");
      }
    } finally {
      await daemon.stop();
    }
    const ms = (performance.now() - started) / questions.length;
    const r = reach((i, e) => requests[i]!.includes(probeOf(e)!));
    const chars = requests.map((t) => t.length).sort((a, b) => a - b);
    const mean = chars.reduce((s, c) => s + c, 0) / chars.length;
    console.log(
      `homed /v1, context window ${String(window).padStart(6)} tokens:`.padEnd(46),
      `questions with evidence ${pct(r.any)}, with all of it ${pct(r.every)}, evidence turns ${pct(r.turns)};`,
      `request ${Math.round(mean)} chars mean, ${chars[Math.floor(chars.length * 0.95)]} p95; ${ms.toFixed(0)} ms/question`,
    );
  }
} finally {
  delete process.env.HOMED_CONTEXT_WINDOW;
  await provider.close();
  rmSync(dir, { recursive: true, force: true });
}

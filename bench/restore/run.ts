/**
 * The restore threshold (DESIGN §3 "peek → confirm → move"): how sure must recall be before a
 * cold event is moved back into L1 verbatim? A wrong move costs room in the request (it pushes
 * the least relevant live turns down to L2), so the threshold trades coverage for precision.
 * Measured on the LoCoMo dev conversations (imported in process, recall within each
 * conversation, words + grams as a chat without an embedding model runs it). Fused RRF scores
 * are ranks, not confidence, and their scale grows with the channels that ran, so the rule is
 * "ranked within the top R by every channel that ran": for each R, the share of candidates
 * passing it that are evidence turns (precision) and the share of questions that would restore
 * anything (coverage). The baseline row is every candidate (no rule).
 */
import { rmSync } from "node:fs";
import { join } from "node:path";
import { coldcontextQuery, coldEventId, importHistory, queryCoverage, recallQuery } from "../../src/memory/index.ts";
import { openStore } from "../../src/store/index.ts";
import { tempDir } from "../evidence.ts";
import { convertLocomo } from "../locomo/convert.ts";

const DATA = process.env.LOCOMO_FILE ?? "/work/shared/data/locomo/locomo-dev.json";
const K = 8;
/** Worst rank a candidate may have in any channel that ran (Infinity: the baseline, no rule). */
const RANKS = [Infinity, 10, 5, 3, 2, 1];
/** With rank 1: the least share of the query's words the event must hold. */
const COVERAGES = [0.25, 0.34, 0.5, 0.67];
const CHANNELS = ["words", "grams"] as const;

const { lines, questions } = convertLocomo(DATA);
const dir = tempDir("homed-restore-");
const store = await openStore({ url: `file:${join(dir, "homed.db")}` });
try {
  const started = performance.now();
  await importHistory(
    store.client,
    lines.map((l) => ({ conversation: l.conversation, session: l.session, time: Date.parse(l.time), speaker: l.speaker, role: l.role, text: l.text, sourceId: l.id })),
  );
  console.log(`LoCoMo dev: ${lines.length} turns imported in ${((performance.now() - started) / 1000).toFixed(1)} s; ${questions.length} questions`);
  const scored: { worst: number; coverage: number; hit: boolean; question: string }[] = [];
  const top1: { worst: number; hit: boolean }[] = [];
  for (const q of questions) {
    const gold = new Set(q.evidence.map((e) => coldEventId(q.conversation, e)));
    const found = await coldcontextQuery(store.client, recallQuery(q.query), { k: K, conversation: q.conversation });
    const worst = (c: (typeof found)[number]) => Math.max(...CHANNELS.map((ch) => c.channels[ch]?.rank ?? Infinity));
    const words = (await recallQuery(q.query).terms()).words;
    for (const c of found) scored.push({ worst: worst(c), coverage: worst(c) === 1 ? await queryCoverage(words, c.text) : 0, hit: gold.has(c.id), question: q.id });
    if (found[0]) top1.push({ worst: worst(found[0]), hit: gold.has(found[0].id) });
  }
  console.log("\nworst rank  candidates  precision  top-1 precision  questions restoring");
  for (const r of RANKS) {
    const above = scored.filter((s) => s.worst <= r || r === Infinity);
    const tops = top1.filter((s) => s.worst <= r || r === Infinity);
    const share = (n: number, of: number) => (of === 0 ? "  -  " : (n / of).toFixed(3));
    const questionsRestoring = new Set(above.map((s) => s.question)).size;
    console.log(
      `${(r === Infinity ? "any" : `≤ ${r}`).padStart(10)}  ${String(above.length).padStart(12)}  ${share(above.filter((s) => s.hit).length, above.length).padStart(9)}  ${share(tops.filter((s) => s.hit).length, tops.length).padStart(15)}  ${share(questionsRestoring, questions.length).padStart(19)}${r === Infinity ? "  (baseline: every candidate)" : ""}`,
    );
  }
  console.log("\nfirst in every channel, and holding at least this share of the query's words:");
  console.log(" coverage  candidates  precision  questions restoring");
  for (const c of COVERAGES) {
    const above = scored.filter((s) => s.worst === 1 && s.coverage >= c);
    console.log(
      `${c.toFixed(2).padStart(9)}  ${String(above.length).padStart(10)}  ${(above.filter((s) => s.hit).length / Math.max(1, above.length)).toFixed(3).padStart(9)}  ${(new Set(above.map((s) => s.question)).size / questions.length).toFixed(3).padStart(19)}`,
    );
  }
} finally {
  store.close();
  rmSync(dir, { recursive: true, force: true });
}

import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { hashEmbed } from "../../src/embed/index.ts";
import { formatOverflowCheck, pinnedCount, planPrune, queryTfidf, type PrunableEvent } from "../../src/context/index.ts";
import { TfidfCorpus } from "../../src/text/index.ts";

const MODEL = "fallback-hash-v1@512";
const dense = (text: string) => ({ model: MODEL, vector: hashEmbed(text) });

describe("pinned recent events", () => {
  test("a 50k window with 5.8k-token events and a 40k budget pins fewer than 10, and they fit the budget", () => {
    // The 50k window leaves 40k for L1 after the system prompt and the reply; N is bounded by that budget.
    const n = pinnedCount({ budget: 40_000, avgTokensPerEvent: 5_800 });
    assert.ok(n < 10, `pinned ${n}`);
    assert.ok(n * 5_800 <= 40_000, `pinned ${n} × 5.8k exceeds the budget`);
    assert.equal(n, 6);
  });

  test("small events pin the configured count, 10 by default", () => {
    assert.equal(pinnedCount({ budget: 40_000, avgTokensPerEvent: 200 }), 10);
    assert.equal(pinnedCount({ configured: 3, budget: 40_000, avgTokensPerEvent: 200 }), 3);
  });

  test("the prune plan pins that many: 20 events of 5.8k at a 40k budget keep at most 40k", () => {
    const events: PrunableEvent[] = Array.from({ length: 20 }, (_, i) => ({ id: `e${i}`, tokens: 5_800, dense: dense(`topic ${i}`) }));
    const plan = planPrune(events, { dense: dense("topic 3") }, { budget: 40_000 });
    assert.equal(plan.pinned, 6);
    for (const id of ["e14", "e15", "e16", "e17", "e18", "e19"]) assert.ok(plan.keep.includes(id), `${id} pinned`);
    assert.ok(plan.keep.length * 5_800 <= 40_000);
  });
});

function session(): PrunableEvent[] {
  const texts = [
    "deploy the kubernetes cluster with helm",
    "what is for lunch today",
    "the weather is nice",
    "kubernetes pod crashloop after deploy",
    "buy milk and eggs",
    "favourite movie recommendations",
    "learn to play guitar",
    "holiday plans for the summer",
    "book a dentist appointment",
    "the cat knocked over a plant",
    "call mum on sunday",
    "new running shoes",
  ];
  return texts.map((text, i) => ({ id: `e${i}`, tokens: 100, dense: dense(text), text }));
}

describe("relevance pruning", () => {
  test("above 1.25 × budget: pinned stay, the relevant survive, the rest sink, kept ≤ budget", () => {
    const events = session();
    const plan = planPrune(events, { dense: dense("kubernetes deploy crashloop") }, { budget: 600, pinned: 2 });
    assert.equal(plan.ratio, 2);
    assert.ok(plan.overflow);
    assert.deepEqual(plan.keep.slice(-2), ["e10", "e11"], "pinned recent events kept");
    assert.ok(plan.keep.includes("e0") && plan.keep.includes("e3"), `relevant events kept: ${plan.keep}`);
    assert.equal(plan.keep.length * 100, 600, "fills the budget exactly");
    assert.deepEqual([...plan.keep, ...plan.sink].sort(), events.map((e) => e.id).sort(), "every event in exactly one list");
    assert.equal(new Set([...plan.keep, ...plan.sink]).size, events.length);
  });

  test("at or below 1.25 × budget nothing sinks", () => {
    const events = session(); // 1200 tokens
    assert.deepEqual(planPrune(events, {}, { budget: 960 }).sink, []); // ratio 1.25 exactly
    assert.ok(planPrune(events, {}, { budget: 959 }).sink.length > 0); // ratio 1.2513
  });

  test("events without a dense vector are scored by TF-IDF against the input", () => {
    const texts = session().map((e) => (e as PrunableEvent & { text: string }).text);
    const words = texts.map((t) => t.split(" "));
    const corpus = TfidfCorpus.fromDocuments(words);
    const events: PrunableEvent[] = words.map((w, i) => ({ id: `e${i}`, tokens: 100, tfidf: corpus.vector(w) }));
    const query = { dense: dense("kubernetes crashloop"), tfidf: queryTfidf(["kubernetes", "crashloop"], events) };
    const plan = planPrune(events, query, { budget: 300, pinned: 1 });
    assert.deepEqual(plan.keep, ["e0", "e3", "e11"]);
  });

  test("a dense vector from another model is never compared: TF-IDF decides", () => {
    const events: PrunableEvent[] = [
      { id: "a", tokens: 100, dense: { model: "other@512", vector: hashEmbed("kubernetes") }, tfidf: { lunch: 1 } },
      { id: "b", tokens: 100, dense: { model: "other@512", vector: hashEmbed("lunch") }, tfidf: { kubernetes: 1 } },
      { id: "c", tokens: 100 },
    ];
    const plan = planPrune(events, { dense: dense("kubernetes"), tfidf: { kubernetes: 1 } }, { budget: 200, pinned: 1 });
    assert.deepEqual(plan.keep, ["b", "c"]);
  });

  test("the overflow log line has the exact shape", () => {
    assert.equal(formatOverflowCheck(3, 1.3749, 42), "overflow check #3: ratio=1.37 events=42 (threshold=1.25)");
  });
});

import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { coldcontextQuery, stableQuery, writeFact } from "../../src/memory/index.ts";
import { shapeQuery, utterances } from "../../src/memory/query-shape.ts";
import { searchWords } from "../../src/text/index.ts";
import { message, openTempStore, seed } from "./fixture.ts";

const ids = (results: { sources: string[] }[]) => results.flatMap((r) => r.sources);
const copies = (terms: string[], term: string) => terms.filter((t) => t === term).length;
const queryTrigramsOf = async (text: string) => (await shapeQuery(text)).trigrams;
/** Unrelated memories, so that the terms under test are rare (positive IDF) in the store. */
const filler = ["今天下雨了", "晚饭吃了面条", "新买的台灯很亮"].map((text, i) => message(text, { sourceId: `filler-${i}` }));

describe("query shaping: a stretch of dialogue as a recall query", () => {
  test("speaker tags are markup: a memory that only names the speakers is not found", async () => {
    await using store = await openTempStore();
    await seed(store, [message("Bart and Assistant", { sourceId: "names" }), message("新开的披萨店很好吃", { sourceId: "pizza" }), ...filler]);
    const query = '<Bart>:"披萨好香"\n<Assistant>:"是啊"';
    assert.deepEqual(ids(await coldcontextQuery(store.client, query, { k: 5 })), ["pizza"]);
  });

  test("utterances: the non-empty lines, a leading <name>: (either colon) removed, other colons kept", () => {
    assert.deepEqual(utterances('<Bart>:"嘿"\n\n  <助手>： 好\nNote: keep <b>this</b>'), ['"嘿"', "好", "Note: keep <b>this</b>"]);
  });

  test("function words do not match: a memory sharing only pronouns and particles is not found", async () => {
    await using store = await openTempStore();
    await seed(store, [message("我们都在那里呢", { sourceId: "function-words" }), message("他画了一幅画", { sourceId: "drawing" }), ...filler]);
    // 你 我们 的 呢 are a pronoun, a pronoun, an auxiliary and a modal particle: only 觉得 and 画 are asked.
    assert.deepEqual((await shapeQuery("你觉得我们的画呢？")).words, ["觉得", "画"]);
    assert.deepEqual(ids(await coldcontextQuery(store.client, "你觉得我们的画呢？", { k: 5 })), ["drawing"]);
  });

  test("a name jieba does not know keeps its function-word character: 林和远 is asked whole, 他和我 is not", async () => {
    // jieba: 林/ng 和/c 远/a — 和 is a conjunction, but between two lone characters it is the middle of a name.
    const name = await shapeQuery("我昨天见到了林和远");
    assert.ok(name.bigrams.includes("林和") && name.bigrams.includes("和远"), `the name's bigrams are asked: ${name.bigrams}`);
    assert.ok(name.trigrams.includes("林和远"));
    assert.ok((await shapeQuery("我跟李也青吃饭")).trigrams.includes("李也青"));
    // jieba: 周/nr 在/p 田约/x 了/ul — a piece its HMM joined counts as a piece of the name; 了, a particle no name holds, is still cut.
    const joined = await shapeQuery("我和周在田约了饭");
    assert.ok(joined.trigrams.includes("周在田"), `${joined.trigrams}`);
    assert.ok(!joined.words.includes("了") && !joined.trigrams.some((t) => t.includes("了")), `${joined.words}`);
    // Between words of their own (a pronoun, two-character nouns) it stays a function word.
    for (const query of ["他和我去了", "学校和医院都关门了"]) assert.ok(!(await shapeQuery(query)).bigrams.some((b) => b.includes("和")), query);
    await using store = await openTempStore();
    await seed(store, [
      message("林和远说他下周去杭州出差", { sourceId: "name" }),
      message("林子里有很多鸟", { sourceId: "forest" }),
      message("远方的朋友来信了", { sourceId: "far" }),
      message("林远说明天下雨", { sourceId: "look-alike" }),
      ...filler,
    ]);
    assert.equal(ids(await coldcontextQuery(store.client, "我昨天见到了林和远", { k: 5 }))[0], "name");
  });

  test("English function words are not asked as trigrams: a memory sharing only them is not found", async () => {
    await using store = await openTempStore();
    await seed(store, [message("what about the other one", { sourceId: "function-words" }), message("budget review done", { sourceId: "budget" }), ...filler]);
    const { trigrams } = await shapeQuery("What about the budget?");
    assert.ok(trigrams.includes("bud"), "content words keep their trigrams");
    for (const gram of ["wha", "abo", "out", "the"]) assert.ok(!trigrams.includes(gram), `${gram} (of what/about/the) is not asked`);
    assert.deepEqual(ids(await coldcontextQuery(store.client, "What about the budget?", { k: 5 })), ["budget"]);
    // Nothing but function words: asked as it is (trigrams included), as for Chinese.
    assert.ok((await shapeQuery("what about them?")).trigrams.includes("abo"));
  });

  test("a Latin word asks every other trigram and its last; a run with CJK asks every trigram", async () => {
    assert.deepEqual(await queryTrigramsOf("quarterly"), ["qua", "art", "ter", "rly"]);
    assert.deepEqual(await queryTrigramsOf("budget"), ["bud", "dge", "get"]);
    assert.deepEqual(await queryTrigramsOf("周末去西湖"), ["周末去", "末去西", "去西湖"]);
    assert.deepEqual(await queryTrigramsOf("3d打印"), ["3d打", "d打印"]);
    // Every letter is still in a trigram: a misspelt word still finds its memory.
    await using store = await openTempStore();
    await seed(store, [message("the quarterly report", { sourceId: "report" }), ...filler]);
    assert.deepEqual(ids(await coldcontextQuery(store.client, "quartrly", { k: 5 })), ["report"]);
  });

  test("a query of nothing but function words is asked as it is", async () => {
    await using store = await openTempStore();
    await seed(store, [message("他们都在那里", { sourceId: "them" }), ...filler]);
    assert.deepEqual((await shapeQuery("<Ann>: 他们呢？")).words, await searchWords("他们呢？"));
    assert.deepEqual(ids(await coldcontextQuery(store.client, "他们呢？", { k: 5 })), ["them"]);
  });

  test("facts (L3) are asked with the same shaped terms: function words do not match them either", async () => {
    await using store = await openTempStore();
    for (const [predicate, object] of [
      ["said", "我们都在那里呢"],
      ["drew", "一幅画"],
    ]) {
      const tx = await store.client.transaction("write");
      await writeFact(tx, { subject: "Ann", predicate: predicate!, object: object!, kind: "event", scope: "conv-a", confidence: 0.9, importance: 0.5, evidence: "manual" });
      await tx.commit();
      tx.close();
    }
    const found = await stableQuery(store.client, "你觉得我们的画呢？", { k: 5, conversation: "conv-a" });
    assert.deepEqual(
      found.map((f) => f.text),
      ["Ann drew 一幅画"],
    );
  });

  test("the last exchange weighs more: a term from the last lines outranks one from the first", async () => {
    await using store = await openTempStore();
    // Alone, the short memory would win (BM25 favours short texts); the swim is in the last line.
    await seed(store, [message("爬山", { sourceId: "hike" }), message("游泳了一下午", { sourceId: "swim" }), ...filler]);
    const query = '<Ann>:"上周末我去爬山了"\n<Bot>:"真不错"\n<Ann>:"明天想去游泳"';
    assert.deepEqual(ids(await coldcontextQuery(store.client, "爬山\n游泳", { k: 2 })), ["hike", "swim"], "precondition: with equal weights the short memory ranks first");
    assert.deepEqual(ids(await coldcontextQuery(store.client, query, { k: 2 })), ["swim", "hike"]);
  });

  test("weights: the last two lines' terms twice, older ones once, a term at its most recent line's weight", async () => {
    const terms = await shapeQuery("爬山\n去游泳\n去跑步");
    assert.equal(copies(terms.words, "爬山"), 1);
    assert.equal(copies(terms.words, "游泳"), 2);
    assert.equal(copies(terms.words, "跑步"), 2);
    assert.equal(copies(terms.bigrams, "爬山"), 1);
    assert.equal(copies(terms.bigrams, "跑步"), 2);
    assert.equal(copies(terms.words, "去"), 2, "去 is in an old and a recent line: it counts as recent");
  });

  test("a question (one or two lines) asks each term once, exactly as unshaped", async () => {
    const question = "When did Caroline go to the LGBTQ support group?";
    assert.deepEqual((await shapeQuery(question)).words, [...new Set(await searchWords(question))]);
    const twoLines = await shapeQuery("去游泳\n去跑步");
    assert.equal(copies(twoLines.words, "游泳"), 1);
    assert.equal(copies(twoLines.words, "去"), 1);
  });
});

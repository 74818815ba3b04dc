import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { coldcontextQuery } from "../../src/memory/index.ts";
import { searchWords } from "../../src/text/index.ts";
import { message, openTempStore, phraseEmbedder, seed } from "./fixture.ts";

const ids = (results: { sources: string[] }[]) => results.flatMap((r) => r.sources);

describe("recall channels: each finds what only it can find", () => {
  test("grams: a Chinese substring that jieba cuts differently (2 characters, across a word boundary)", async () => {
    await using store = await openTempStore();
    await seed(store, [message("我们去北京天安门广场看升旗", { sourceId: "tiananmen" }), message("今天下雨了", { sourceId: "rain" })]);
    // Precondition: the query's words are not among the stored words, so BM25 over words misses.
    const stored = new Set(await searchWords("我们去北京天安门广场看升旗"));
    assert.ok(
      (await searchWords("门广")).every((w) => !stored.has(w)),
      "jieba must cut 门广 apart from the stored words",
    );
    assert.deepEqual(ids(await coldcontextQuery(store.client, "门广", { k: 5, channels: ["words"] })), []);
    assert.deepEqual(ids(await coldcontextQuery(store.client, "门广", { k: 5, channels: ["grams"] })), ["tiananmen"]);
    assert.deepEqual(ids(await coldcontextQuery(store.client, "门广", { k: 5 })), ["tiananmen"]);
  });

  test("grams: a typo", async () => {
    await using store = await openTempStore();
    await seed(store, [message("We booked the accommodation in Lisbon", { sourceId: "hotel" }), message("The weather was fine", { sourceId: "weather" })]);
    assert.deepEqual(ids(await coldcontextQuery(store.client, "acommodation", { k: 5, channels: ["words"] })), []);
    assert.deepEqual(ids(await coldcontextQuery(store.client, "acommodation", { k: 5, channels: ["grams"] })), ["hotel"]);
  });

  test("words: English stems meet (research / researched) and function words do not match", async () => {
    await using store = await openTempStore();
    await seed(store, [message("I researched adoption agencies", { sourceId: "adopt" }), message("What did you do with it", { sourceId: "chat" })]);
    // Only the stem "research" is shared with the first; only function words with the second.
    assert.deepEqual(ids(await coldcontextQuery(store.client, "What did you do, researching?", { k: 5, channels: ["words"] })), ["adopt"]);
  });

  test("vector: a paraphrase with no shared word or character, through the configured embedder", async () => {
    await using store = await openTempStore();
    const embedder = phraseEmbedder({ automobile: 1, "car broke down": 1, birthday: 2 });
    await seed(store, [message("my car broke down on the highway", { sourceId: "car" }), message("birthday cake", { sourceId: "cake" })], embedder);
    assert.deepEqual(ids(await coldcontextQuery(store.client, "automobile", { k: 5, channels: ["words", "grams"], embedder })), []);
    const found = await coldcontextQuery(store.client, "automobile", { k: 1, channels: ["vector"], embedder });
    assert.deepEqual(ids(found), ["car"]);
    assert.equal(found[0]!.channels.vector?.rank, 1);
  });

  test("vector: through the DiskANN index (large scopes) the scope and model still apply", async () => {
    await using store = await openTempStore();
    const embedder = phraseEmbedder({ automobile: 1, "car broke down": 1, birthday: 2 });
    await seed(
      store,
      [
        message("my car broke down on the highway", { conversation: "A", sourceId: "car-a" }),
        message("my car broke down again", { conversation: "B", sourceId: "car-b" }),
        message("birthday cake", { conversation: "A", sourceId: "cake" }),
      ],
      embedder,
    );
    const viaIndex = { k: 1, channels: ["vector"] as const, embedder, exactScanLimit: 0 };
    assert.deepEqual(ids(await coldcontextQuery(store.client, "automobile", { ...viaIndex, conversation: "A" })), ["car-a"]);
    assert.deepEqual(ids(await coldcontextQuery(store.client, "automobile", { ...viaIndex, conversation: "B" })), ["car-b"]);
    const other = phraseEmbedder({ automobile: 1 }, "model-b@512");
    assert.deepEqual(ids(await coldcontextQuery(store.client, "automobile", { ...viaIndex, embedder: other })), []);
  });

  test("vector: vectors of another model are never compared", async () => {
    await using store = await openTempStore();
    const stored = phraseEmbedder({ "car broke down": 1 }, "model-a@512");
    const asking = phraseEmbedder({ automobile: 1 }, "model-b@512");
    await seed(store, [message("my car broke down", { sourceId: "car" })], stored);
    assert.deepEqual(ids(await coldcontextQuery(store.client, "automobile", { k: 5, channels: ["vector"], embedder: asking })), []);
  });

  test("the speaker and the neighbouring turns are searchable with a message", async () => {
    await using store = await openTempStore();
    await seed(store, [
      message("What did you do yesterday?", { speaker: "Mel", sourceId: "q", session: "s1" }),
      message("I went to a support group", { speaker: "Caroline", sourceId: "a", session: "s1" }),
      message("Nice weather", { speaker: "Caroline", sourceId: "w", session: "s2" }),
    ]);
    // "yesterday" is only in the question before the answer; "Caroline" only in the speaker field.
    const found = ids(await coldcontextQuery(store.client, "Caroline yesterday", { k: 1, channels: ["words"] }));
    assert.deepEqual(found, ["a"]);
  });

  test("the message that says the words ranks above the neighbours that only carry them", async () => {
    await using store = await openTempStore();
    // Two neighbours each side are indexed with a message: in a three-turn session every row
    // holds all three texts, so with neighbours weighed as the message's own words they tied.
    await seed(store, [
      message("I tidied the desk today", { sourceId: "before", session: "s1" }),
      message("The spare key is in the zorbel drawer", { sourceId: "says", session: "s1" }),
      message("Thanks, I will look tonight", { sourceId: "after", session: "s1" }),
    ]);
    for (const channels of [["words"], ["grams"], ["words", "grams"]] as const) {
      const found = await coldcontextQuery(store.client, "zorbel drawer", { k: 3, channels: [...channels] });
      assert.equal(ids(found)[0], "says", `${channels.join("+")}: ${ids(found).join(", ")}`);
      assert.equal(found.length, 3, "the neighbours are still found through their context");
      assert.ok(found[0]!.score > found[1]!.score, `${channels.join("+")}: no tie, ${found.map((f) => f.score).join(", ")}`);
    }
  });
});

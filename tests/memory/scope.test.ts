import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { coldcontextQuery } from "../../src/memory/index.ts";
import { message, openTempStore, phraseEmbedder, seed } from "./fixture.ts";

const sources = (results: { sources: string[] }[]) => results.flatMap((r) => r.sources).sort();

describe("recall scope and time filters", () => {
  test("a query in conversation A never returns B's memories, on any channel", async () => {
    await using store = await openTempStore();
    const embedder = phraseEmbedder({ piano: 1 });
    await seed(
      store,
      [
        message("piano lesson on Tuesday", { conversation: "A", sourceId: "a1" }),
        message("piano lesson on Tuesday", { conversation: "B", sourceId: "b1" }),
        message("piano tuner came by", { conversation: "B", sourceId: "b2" }),
      ],
      embedder,
    );
    for (const channels of [["words"], ["grams"], ["vector"], ["words", "grams", "vector"]] as const) {
      const found = await coldcontextQuery(store.client, "piano lesson", { k: 10, conversation: "A", channels, embedder });
      assert.deepEqual(sources(found), ["a1"], channels.join("+"));
      assert.ok(found.every((r) => r.conversation === "A"));
    }
    const everywhere = await coldcontextQuery(store.client, "piano", { k: 10, channels: ["words"] });
    assert.deepEqual(sources(everywhere), ["a1", "b1", "b2"]);
  });

  test("a viewer sees the user's memories and its own private ones, on every channel; a viewer of no partner or project only the user's", async () => {
    await using store = await openTempStore();
    const embedder = phraseEmbedder({ piano: 1 });
    await seed(
      store,
      [
        message("piano lesson on Tuesday", { sourceId: "shared" }),
        message("piano lesson with Ann", { sourceId: "ann", privateTo: "partner:Ann" }),
        message("piano lesson with Bob", { sourceId: "bob", privateTo: "partner:Bob" }),
      ],
      embedder,
    );
    for (const channels of [["words"], ["grams"], ["vector"]] as const) {
      const asAnn = await coldcontextQuery(store.client, "piano lesson", { k: 10, channels, embedder, viewer: { partner: "Ann" } });
      assert.deepEqual(sources(asAnn), ["ann", "shared"], channels.join("+"));
      const asNobody = await coldcontextQuery(store.client, "piano lesson", { k: 10, channels, embedder, viewer: {} });
      assert.deepEqual(sources(asNobody), ["shared"], channels.join("+"));
    }
  });

  test("user-wide memories are visible from every conversation", async () => {
    await using store = await openTempStore();
    await seed(store, [message("allergic to peanuts", { conversation: "profile", scope: "user", sourceId: "u1" }), message("peanuts at the party", { conversation: "B", sourceId: "b1" })]);
    const found = await coldcontextQuery(store.client, "peanuts", { k: 10, conversation: "A", channels: ["words"] });
    assert.deepEqual(sources(found), ["u1"]);
  });

  test("the scope is applied inside the query: a small conversation is not cut away by a big one", async () => {
    await using store = await openTempStore();
    // 300 of B's messages outrank A's only message for "garden"; a filter applied after a
    // top-100 cut would find nothing for A.
    const many = Array.from({ length: 300 }, (_, i) => message("garden garden garden", { conversation: "B", sourceId: `b${i}` }));
    await seed(store, [...many, message("we talked about the garden and many other long things here", { conversation: "A", sourceId: "a1" })]);
    for (const channels of [["words"], ["grams"]] as const) {
      const found = await coldcontextQuery(store.client, "garden", { k: 5, conversation: "A", channels });
      assert.deepEqual(sources(found), ["a1"], channels.join("+"));
    }
  });

  test("time filters: since and until are inclusive bounds", async () => {
    await using store = await openTempStore();
    const t = Date.UTC(2024, 5, 1);
    await seed(store, [
      message("trip to Kyoto", { time: t - 86_400_000, sourceId: "before" }),
      message("trip to Kyoto", { time: t, sourceId: "on" }),
      message("trip to Kyoto", { time: t + 86_400_000, sourceId: "after" }),
    ]);
    const q = (range: { since?: number; until?: number }) => coldcontextQuery(store.client, "Kyoto", { k: 10, channels: ["words", "grams"], ...range });
    assert.deepEqual(sources(await q({ since: t })), ["after", "on"]);
    assert.deepEqual(sources(await q({ until: t })), ["before", "on"]);
    assert.deepEqual(sources(await q({ since: t, until: t })), ["on"]);
  });
});

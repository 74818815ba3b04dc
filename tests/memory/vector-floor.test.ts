/**
 * The vector channel's noise floor (src/memory/vector-floor.ts): a memory whose vector is
 * unrelated to the query (cosine below the floor) is not a vector hit, however few memories there
 * are; a neighbour above it still is.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { coldcontextQuery, coldEventId } from "../../src/memory/index.ts";
import { message, openTempStore, phraseEmbedder, seed } from "./fixture.ts";

test("vector hits below the noise floor are dropped; neighbours above it stay", async () => {
  await using store = await openTempStore();
  // The query and the car message share an axis (cosine 1); the birthday one is orthogonal (cosine 0).
  const embedder = phraseEmbedder({ automobile: 1, "car broke down": 1, birthday: 2 });
  await seed(store, [message("my car broke down on the highway", { sourceId: "car" }), message("birthday party on Sunday", { sourceId: "cake" })], embedder);
  const found = await coldcontextQuery(store.client, "automobile", { k: 10, channels: ["vector"], embedder, conversation: "conv-a" });
  assert.deepEqual(
    found.map((c) => c.id),
    [coldEventId("conv-a", "car")],
  );
});

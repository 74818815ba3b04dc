import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { coldcontextQuery, coldcontextRecall, coldEventId, RecallError } from "../../src/memory/index.ts";
import { count, message, openTempStore, seed, type TempStore } from "./fixture.ts";

async function snapshot(store: TempStore): Promise<string> {
  const events = await store.client.execute("SELECT id, layer, access_count, last_access, seq FROM events ORDER BY id");
  const blocks = await store.client.execute("SELECT id, event_id, holder FROM blocks ORDER BY id");
  return JSON.stringify([events.rows, blocks.rows]);
}

async function seeded(): Promise<TempStore> {
  const store = await openTempStore();
  await seed(store, [
    message("first: planted tomatoes", { session: "s", sourceId: "1" }),
    message("second: watered tomatoes", { session: "s", sourceId: "2", images: ["file:///photos/tomato.jpg"] }),
    message("third: picked tomatoes", { session: "s", sourceId: "3" }),
    message("fourth: ate a salad", { session: "s", sourceId: "4" }),
  ]);
  return store;
}

const id = (source: string) => coldEventId("conv-a", source);

describe("peek, then move", () => {
  test("coldcontext_query changes nothing", async () => {
    await using store = await seeded();
    const before = await snapshot(store);
    const found = await coldcontextQuery(store.client, "tomatoes", { k: 10 });
    assert.equal(found.length, 4);
    assert.equal(await snapshot(store), before);
  });

  test("coldcontext_recall moves events to L1 in original order, blocks keep one holder", async () => {
    await using store = await seeded();
    const blocksBefore = await count(store, "SELECT count(*) FROM blocks");
    // Ids sort as 1 < 4 < 3 (hashes): an order taken from the ids would show here.
    const moved = await coldcontextRecall(store.client, [id("4"), id("1"), id("2"), id("3")], 1234);
    assert.deepEqual(
      moved.map((m) => m.text),
      ["first: planted tomatoes", "second: watered tomatoes", "third: picked tomatoes", "fourth: ate a salad"],
    );
    assert.equal(await count(store, "SELECT count(*) FROM blocks"), blocksBefore, "nothing copied, nothing deleted");
    assert.equal(await count(store, "SELECT count(*) FROM events WHERE layer = 'L1'"), 4);
    assert.equal(await count(store, "SELECT count(*) FROM blocks WHERE holder = 'L1'"), 5);
    assert.equal(await count(store, "SELECT count(*) FROM blocks b JOIN events e ON e.id = b.event_id WHERE b.holder != e.layer"), 0);
    assert.equal(await count(store, "SELECT access_count FROM events WHERE id = ?", [id("1")]), 1);
    assert.equal(await count(store, "SELECT last_access FROM events WHERE id = ?", [id("1")]), 1234);
    // Gone from L2: recall no longer offers them.
    assert.deepEqual(await coldcontextQuery(store.client, "tomatoes salad", { k: 10 }), []);
  });

  test("recalling an id that is not in L2 moves nothing at all", async () => {
    await using store = await seeded();
    await coldcontextRecall(store.client, [id("4")]);
    // Id 4 was recalled already: it cannot be recalled twice, and 1 must not move without it.
    const before = await snapshot(store);
    await assert.rejects(coldcontextRecall(store.client, [id("1"), id("4")]), (e: Error) => e instanceof RecallError && e.message.includes(id("4")));
    await assert.rejects(coldcontextRecall(store.client, [id("1"), "ev_nope"]), /not in cold context/);
    assert.equal(await snapshot(store), before);
  });
});

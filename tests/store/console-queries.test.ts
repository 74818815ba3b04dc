/** The memory browser's plain queries (src/store/events-table.ts, triples-table.ts) on a real libSQL file. */
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { join } from "node:path";
import { databaseBytes, eventsByIds, layerTotals, listEvents, listFacts, openStore, tripleCount, writtenPerDay } from "../../src/store/index.ts";
import { tempDir } from "../support/temp-dir.ts";

const DAY = 86_400_000;

async function seeded() {
  const dir = tempDir("homed-console-queries-");
  const store = await openStore({ url: `file:${join(dir.path, "homed.db")}` });
  const event = (id: string, layer: string, seq: number, text: string, conversation = "alice", scope = "conversation") =>
    store.client.execute({
      sql: "INSERT INTO events (id, session_id, conversation, scope, layer, seq, time, messages, text, tokens, created_at) VALUES (?, 's1', ?, ?, ?, ?, ?, '[]', ?, ?, ?)",
      args: [id, conversation, scope, layer, seq, 1000 + seq, text, text.length, seq * DAY],
    });
  await store.client.execute("INSERT INTO sessions (id, channel, partner, created_at, updated_at) VALUES ('s1', 'test', 'alice', 0, 0)");
  await event("e1", "L1", 1, "The Harbour boat leaves at nine");
  await event("e2", "L2", 2, "the harbour is closed on Sundays");
  await event("e3", "L2", 3, "tea with milk", "bob");
  await event("e4", "L1", 4, "harbour lights", "alice", "user");
  const fact = async (id: string, scope: string, updatedAt: number) => {
    await store.client.execute({
      sql: "INSERT INTO blocks (id, kind, holder, content, created_at) VALUES (?, 'text', 'L3', ?, 0), (?, 'text', 'L3', ?, 0)",
      args: [`${id}s`, `subject ${id}`, `${id}o`, `object ${id}`],
    });
    await store.client.execute({
      sql: "INSERT INTO triples (id, subject_block_id, predicate, object_block_id, kind, scope, confidence, importance, evidence, created_at, updated_at) VALUES (?, ?, 'likes', ?, 'preference', ?, 0.9, 0.5, 'manual', 0, ?)",
      args: [id, `${id}s`, `${id}o`, scope, updatedAt],
    });
  };
  await fact("f-user", "user", 3);
  await fact("f-alice", "alice", 2);
  await fact("f-bob", "bob", 1);
  await fact("f-project", "project", 4);
  return { client: store.client, close: () => (store.close(), dir.remove()) };
}

describe("console queries", () => {
  test("events: by id, and listed newest first by layer, text, scope and conversation", async () => {
    const s = await seeded();
    try {
      assert.deepEqual(
        (await eventsByIds(s.client, ["e3", "nope"])).map((e) => [e.id, e.conversation, e.sessionId]),
        [["e3", "bob", "s1"]],
      );
      assert.deepEqual(await eventsByIds(s.client, []), []);
      const ids = async (f: Parameters<typeof listEvents>[1]) => (await listEvents(s.client, f)).map((e) => e.id);
      assert.deepEqual(await ids({ limit: 10 }), ["e4", "e3", "e2", "e1"]);
      assert.deepEqual(await ids({ limit: 2 }), ["e4", "e3"]);
      assert.deepEqual(await ids({ containing: "HARBOUR", limit: 10 }), ["e4", "e2", "e1"], "a substring, any case");
      assert.deepEqual(await ids({ containing: "harbour", notLayer: "L2", limit: 10 }), ["e4", "e1"]);
      assert.deepEqual(await ids({ layer: "L2", limit: 10 }), ["e3", "e2"]);
      assert.deepEqual(await ids({ scope: "user", limit: 10 }), ["e4"]);
      assert.deepEqual(await ids({ conversation: "bob", limit: 10 }), ["e3"]);
    } finally {
      s.close();
    }
  });

  test("facts: with their words, by scope, as one conversation sees them, newest change first", async () => {
    const s = await seeded();
    try {
      const ids = async (f: Parameters<typeof listFacts>[1]) => (await listFacts(s.client, f)).map((r) => r.id);
      const [first] = await listFacts(s.client, { ids: ["f-alice"] });
      assert.deepEqual([first!.subject, first!.predicate, first!.object, first!.updatedAt], ["subject f-alice", "likes", "object f-alice", 2]);
      assert.deepEqual(await ids({ limit: 10 }), ["f-project", "f-user", "f-alice", "f-bob"]);
      assert.deepEqual(await ids({ visibleFrom: "alice", limit: 10 }), ["f-user", "f-alice"], "its own and the user-wide ones");
      assert.deepEqual(await ids({ scope: { anyConversation: true }, limit: 10 }), ["f-alice", "f-bob"]);
      assert.deepEqual(await ids({ scope: { equals: "user" }, limit: 10 }), ["f-user"]);
      assert.deepEqual(await ids({ ids: [] }), []);
      assert.equal(await tripleCount(s.client), 4);
    } finally {
      s.close();
    }
  });

  test("totals per layer, writes per day, the file's size", async () => {
    const s = await seeded();
    try {
      const totals = Object.fromEntries((await layerTotals(s.client)).map((r) => [r.layer, [Number(r.events), Number(r.chars)]]));
      assert.deepEqual(totals, { L1: [2, 45], L2: [2, 45] });
      assert.deepEqual(await writtenPerDay(s.client), [
        { layer: "L1", day: "1970-01-02", n: 1 },
        { layer: "L2", day: "1970-01-03", n: 1 },
        { layer: "L2", day: "1970-01-04", n: 1 },
        { layer: "L1", day: "1970-01-05", n: 1 },
      ]);
      assert.ok((await databaseBytes(s.client)) >= 4096);
    } finally {
      s.close();
    }
  });
});

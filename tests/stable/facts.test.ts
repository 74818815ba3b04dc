import { describe, test, afterEach } from "node:test";
import assert from "node:assert/strict";
import { OWNER, forgetRecord, nearDuplicateObjects, trigramOverlap, openRecord, REVISIONS_KEPT, RecordError, writeFact, type FactRecord, type NewFact } from "../../src/memory/index.ts";
import type { Store } from "../../src/store/index.ts";
import { message, storeWith } from "./support.ts";

let store: Store | undefined;
afterEach(() => {
  store?.close();
  store = undefined;
});

const fact = (over: Partial<NewFact>): NewFact => ({
  subject: "Mia",
  predicate: "likes",
  object: "jasmine tea",
  kind: "preference",
  scope: "user",
  confidence: 0.8,
  importance: 0.6,
  evidence: "manual",
  ...over,
});

/** A revision's snapshot, as stored since revisions began: a frozen format (old rows are read back). */
const SNAPSHOT_COLUMNS = [
  "id",
  "subject_block_id",
  "predicate",
  "object_block_id",
  "kind",
  "scope",
  "private_to",
  "confidence",
  "importance",
  "revision",
  "evidence",
  "source_session",
  "source_turn",
  "source_event_id",
  "excerpt",
  "excerpt_hash",
  "access_count",
  "cited_count",
  "last_access",
  "embed_model",
  "created_at",
  "updated_at",
  "object_text",
];

async function write(f: NewFact) {
  const tx = await store!.client.transaction("write");
  try {
    const result = await writeFact(tx, f, Date.now());
    await tx.commit();
    return result;
  } finally {
    tx.close();
  }
}

describe("L3 facts", () => {
  test("a near-duplicate in the same scope updates, keeping the old snapshot", async () => {
    ({ store } = await storeWith([]));
    const first = await write(fact({}));
    const second = await write(fact({ object: "jasmine green tea" }));
    assert.equal(second.id, first.id);
    assert.deepEqual([second.action, second.revision], ["updated", 2]);
    const record = (await openRecord(store.client, first.id, OWNER)) as FactRecord;
    assert.equal(record.object, "jasmine green tea");
    assert.deepEqual(
      record.history.map((h) => h.revision),
      [1],
    );
    assert.equal(record.history[0]!.snapshot.revision, 1);
    // The snapshot is the stored row as it was, under the stored column names, without the vector.
    assert.deepEqual(Object.keys(record.history[0]!.snapshot).sort(), [...SNAPSHOT_COLUMNS].sort());
    assert.equal(record.history[0]!.snapshot.object_text, "jasmine tea");
  });

  test("different objects are different facts; another scope is another fact", async () => {
    ({ store } = await storeWith([]));
    const tea = await write(fact({}));
    const coffee = await write(fact({ object: "black coffee" }));
    const elsewhere = await write(fact({ scope: "conv-b" }));
    assert.equal(new Set([tea.id, coffee.id, elsewhere.id]).size, 3);
  });

  test("a correction replaces the newest fact of the same subject and predicate", async () => {
    ({ store } = await storeWith([]));
    const home = await write(fact({ predicate: "lives in", object: "Beijing", kind: "entity" }));
    const moved = await write(fact({ predicate: "lives in", object: "Shanghai", kind: "correction" }));
    assert.equal(moved.id, home.id);
    assert.equal(((await openRecord(store.client, home.id, OWNER)) as FactRecord).object, "Shanghai");
  });

  test(`only the newest ${REVISIONS_KEPT} snapshots are kept`, async () => {
    ({ store } = await storeWith([]));
    let id = "";
    for (let i = 0; i < REVISIONS_KEPT + 5; i++) id = (await write(fact({ predicate: "lives in", object: `city ${i}`, kind: "correction" }))).id;
    const record = (await openRecord(store.client, id, OWNER)) as FactRecord;
    assert.equal(record.revision, REVISIONS_KEPT + 5);
    assert.equal(record.history.length, REVISIONS_KEPT);
    assert.equal(record.history[0]!.revision, REVISIONS_KEPT + 4);
  });

  test("near-duplicate detection: character-trigram overlap", () => {
    assert.ok(trigramOverlap("jasmine tea", "jasmine green tea") >= 0.7);
    assert.ok(trigramOverlap("喜欢喝茉莉花茶", "喜欢喝茉莉花绿茶") >= 0.7);
    assert.ok(trigramOverlap("jasmine tea", "black coffee") < 0.7);
    assert.ok(trigramOverlap("Beijing", "Shanghai") < 0.7);
    assert.equal(nearDuplicateObjects("jasmine tea", "jasmine green tea"), true);
    assert.equal(nearDuplicateObjects("room 2", "room 25"), false, "different numbers are different facts");
  });

  test("evidence: a missing source is reported unavailable; an altered excerpt is caught", async () => {
    ({ store } = await storeWith([message(0, "My passport expires in March 2027.")]));
    const event = (await store.client.execute("SELECT id, session_id, seq, text FROM events")).rows[0]!;
    const source = { session: String(event.session_id), turn: Number(event.seq), eventId: String(event.id), text: String(event.text) };
    const written = await write(fact({ predicate: "passport expires", object: "March 2027", evidence: "verbatim", source }));
    assert.equal(((await openRecord(store.client, written.id, OWNER)) as FactRecord).check, "verified");
    await store.client.execute({ sql: "UPDATE triples SET excerpt = 'My passport expires in 2030.' WHERE id = ?", args: [written.id] });
    assert.equal(((await openRecord(store.client, written.id, OWNER)) as FactRecord).check, "excerpt_altered");
    await store.client.execute({ sql: "UPDATE triples SET excerpt = ?1 WHERE id = ?2", args: [source.text, written.id] });
    await forgetRecord(store.client, source.eventId, OWNER);
    assert.equal(((await openRecord(store.client, written.id, OWNER)) as FactRecord).check, "source_unavailable");
  });

  test("forget by the 8-character suffix shown in injected lines; unknown ids are clear errors", async () => {
    ({ store } = await storeWith([]));
    const { id } = await write(fact({}));
    const suffix = id.replace(/[^a-zA-Z0-9]/g, "").slice(-8);
    const searchRows = async () => Number((await store!.client.execute({ sql: "SELECT count(*) AS n FROM fact_words WHERE doc_id = ?", args: [id] })).rows[0]!.n);
    assert.equal(await searchRows(), 1);
    assert.deepEqual(await forgetRecord(store.client, suffix, OWNER), { kind: "fact", id });
    assert.equal((await store.client.execute("SELECT count(*) AS n FROM triples")).rows[0]!.n, 0);
    assert.equal(await searchRows(), 0);
    await assert.rejects(openRecord(store.client, suffix, OWNER), (e: Error) => e instanceof RecordError && e.code === "not_found");
  });
});

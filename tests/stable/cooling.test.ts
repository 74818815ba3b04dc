import { describe, test, afterEach } from "node:test";
import assert from "node:assert/strict";
import { OWNER, coolOnce, openRecord, type FactRecord } from "../../src/memory/index.ts";
import type { Store } from "../../src/store/index.ts";
import { startScriptedProvider, type ScriptedProvider } from "../support/scripted-provider.ts";
import { askProvider, DAY, distilledText, message, storeWith } from "./support.ts";

let store: Store | undefined;
let provider: ScriptedProvider | undefined;
afterEach(async () => {
  store?.close();
  await provider?.close();
  store = provider = undefined;
});

const now = () => 10 * DAY;
const one = (sql: string, args: any[] = []) => store!.client.execute({ sql, args }).then((r) => r.rows);

describe("cooling (L2 → L3)", () => {
  test("a model's valid JSON becomes facts with provenance; the event's blocks move to L3", async () => {
    ({ store } = await storeWith([message(0, "I switched to jasmine tea, coffee keeps me awake.")]));
    provider = await startScriptedProvider(() => ({
      content: JSON.stringify({ triples: [{ subject: "Mia", predicate: "drinks", object: "jasmine tea", kind: "preference", scope: "user", confidence: 0.9, importance: 0.8 }] }),
    }));
    const run = await coolOnce({ client: store.client, ask: askProvider(provider.url), now });
    assert.deepEqual(run, { distilled: 1, facts: 1, fallbacks: 0, skipped: 0 });
    assert.deepEqual(provider.requests[0]!.body.response_format, { type: "json_object" });
    assert.deepEqual(
      (await one("SELECT layer FROM events")).map((r) => r.layer),
      ["L3"],
    );
    const holders = await one("SELECT DISTINCT holder FROM blocks");
    assert.deepEqual(
      holders.map((r) => r.holder),
      ["L3"],
    );
    const factId = String((await one("SELECT id FROM triples"))[0]!.id);
    const fact = (await openRecord(store.client, factId, OWNER)) as FactRecord;
    assert.equal(fact.subject, "Mia");
    assert.equal(fact.object, "jasmine tea");
    assert.equal(fact.scope, "user");
    assert.equal(fact.evidence, "verbatim");
    assert.equal(fact.provenance.excerpt, "I switched to jasmine tea, coffee keeps me awake.");
    assert.equal(fact.check, "verified");
    assert.equal(fact.provenance.session, "conv-a/s1");
  });

  for (const [what, step] of [
    ["invalid JSON", { content: '{"triples":[{"subject":"Mia"}]}' }],
    ["prose instead of JSON", { content: "Sure! Mia likes tea." }],
    ["a provider error", { status: 500 }],
    ["a timeout", { hang: true }],
  ] as const) {
    test(`${what} falls back to a deterministic fact that keeps the verbatim text`, async () => {
      ({ store } = await storeWith([message(0, "The spare key is under the blue flowerpot.")]));
      provider = await startScriptedProvider(() => step as any);
      const run = await coolOnce({ client: store.client, ask: askProvider(provider.url), now });
      assert.equal(run.fallbacks, 1);
      const facts = await one("SELECT t.predicate, o.content AS object, t.kind FROM triples t JOIN blocks o ON o.id = t.object_block_id");
      assert.deepEqual(
        facts.map((r) => [r.predicate, r.object, r.kind]),
        [["said", "The spare key is under the blue flowerpot.", "event"]],
      );
    });
  }

  test("without any model the deterministic distillation runs", async () => {
    ({ store } = await storeWith([message(0, "Remember: the meeting moved to Thursday.")]));
    const run = await coolOnce({ client: store.client, now });
    assert.deepEqual(run, { distilled: 1, facts: 1, fallbacks: 1, skipped: 0 });
  });

  test("only events with ≤ 2 accesses and 72 h idle are distilled", async () => {
    ({ store } = await storeWith([message(0, "old and quiet"), message(1, "old but popular"), message(2, "fresh")]));
    const ids = (await one("SELECT id, text FROM events ORDER BY seq")).map((r) => String(r.id));
    await store.client.execute({ sql: "UPDATE events SET access_count = 3 WHERE id = ?", args: [ids[1]!] });
    await store.client.execute({ sql: "UPDATE events SET last_access = ? WHERE id = ?", args: [10 * DAY - 71 * 3600_000, ids[2]!] });
    const run = await coolOnce({ client: store.client, now });
    assert.equal(run.distilled, 1);
    const layers = await one("SELECT text, layer FROM events ORDER BY seq");
    assert.deepEqual(
      layers.map((r) => [r.text, r.layer]),
      [
        ["old and quiet", "L3"],
        ["old but popular", "L2"],
        ["fresh", "L2"],
      ],
    );
  });

  test("the access bound is exactly 2: an event used twice still cools, three times does not", async () => {
    ({ store } = await storeWith([message(0, "used twice"), message(1, "used three times")]));
    const ids = (await one("SELECT id FROM events ORDER BY seq")).map((r) => String(r.id));
    await store.client.execute({ sql: "UPDATE events SET access_count = 2 WHERE id = ?", args: [ids[0]!] });
    await store.client.execute({ sql: "UPDATE events SET access_count = 3 WHERE id = ?", args: [ids[1]!] });
    await coolOnce({ client: store.client, now });
    const layers = await one("SELECT text, layer FROM events ORDER BY seq");
    assert.deepEqual(
      layers.map((r) => [r.text, r.layer]),
      [
        ["used twice", "L3"],
        ["used three times", "L2"],
      ],
    );
  });

  test("a fact distilled from a partner-private event stays private to that partner", async () => {
    ({ store } = await storeWith([message(0, "Mia's locker code is 2231"), message(1, "the bus leaves at six")]));
    const ids = (await one("SELECT id FROM events ORDER BY seq")).map((r) => String(r.id));
    await store.client.execute({ sql: "UPDATE events SET private_to = 'partner:Mia' WHERE id = ?", args: [ids[0]!] });
    await coolOnce({ client: store.client, now });
    const facts = await one("SELECT source_event_id, private_to FROM triples ORDER BY source_event_id = ? DESC", [ids[0]!]);
    assert.deepEqual(
      facts.map((r) => [r.source_event_id, r.private_to]),
      [
        [ids[0], "partner:Mia"],
        [ids[1], null],
      ],
    );
  });

  test("a second run distills nothing twice", async () => {
    ({ store } = await storeWith([message(0, "a"), message(1, "b")]));
    await coolOnce({ client: store.client, now });
    const again = await coolOnce({ client: store.client, now });
    assert.equal(again.distilled, 0);
    assert.equal((await one("SELECT count(*) AS n FROM triples"))[0]!.n, 2);
  });

  test("the scripted distiller sees each event's own text", async () => {
    ({ store } = await storeWith([message(0, "first thing"), message(1, "second thing")]));
    provider = await startScriptedProvider((req) => ({
      content: JSON.stringify({ triples: [{ subject: "Mia", predicate: "noted", object: distilledText(req.body), kind: "event", scope: "conversation", confidence: 1, importance: 0.5 }] }),
    }));
    await coolOnce({ client: store.client, ask: askProvider(provider.url), now });
    const objects = await one("SELECT o.content AS object FROM triples t JOIN blocks o ON o.id = t.object_block_id ORDER BY o.content");
    assert.deepEqual(
      objects.map((r) => r.object),
      ["first thing", "second thing"],
    );
  });
});

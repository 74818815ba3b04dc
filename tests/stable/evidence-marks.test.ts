/**
 * Evidence marks written where they apply (DESIGN §3): a model's fact whose object is not in its
 * source's words is "summary only"; one that is, "verbatim source"; a fact whose source event is
 * forgotten keeps its pointer and becomes "pointer only". Read back through the injected lines.
 */
import { describe, test, afterEach } from "node:test";
import assert from "node:assert/strict";
import { OWNER, buildInjection, coolOnce, DEFAULT_INJECTION, openRecord, runMemoryTool, type FactRecord } from "../../src/memory/index.ts";
import type { Store } from "../../src/store/index.ts";
import { DAY, message, storeWith } from "./support.ts";

let store: Store | undefined;
afterEach(() => {
  store?.close();
  store = undefined;
});

const lineOf = async (query: string, object: RegExp) => (await buildInjection(store!.client, query, { config: DEFAULT_INJECTION })).lines.find((l) => l.layer === "L3" && object.test(l.line))?.line;

describe("evidence marks", () => {
  test("a model's paraphrase is a summary, its quote verbatim; a forgotten source leaves a pointer", async () => {
    ({ store } = await storeWith([message(0, "I switched to jasmine tea, coffee keeps me awake at night."), message(1, "The spare key is under the blue flowerpot.")]));
    const ask = async (_system: string, user: string) =>
      JSON.stringify({
        triples: user.includes("jasmine")
          ? [
              { subject: "Mia", predicate: "drinks", object: "jasmine tea", kind: "preference", scope: "user", confidence: 0.9, importance: 0.5 },
              { subject: "Mia", predicate: "avoids", object: "caffeine in the evening", kind: "preference", scope: "user", confidence: 0.8, importance: 0.5 },
            ]
          : [{ subject: "the spare key", predicate: "is", object: "under the blue flowerpot", kind: "entity", scope: "user", confidence: 0.9, importance: 0.5 }],
      });
    await coolOnce({ client: store.client, ask, now: () => 10 * DAY });
    assert.match((await lineOf("what does Mia drink, jasmine tea?", /jasmine tea/))!, /\[L3 · verbatim source\] Mia drinks jasmine tea/);
    assert.match((await lineOf("does Mia avoid caffeine in the evening?", /caffeine/))!, /\[L3 · summary only\] Mia avoids caffeine/);

    const key = (await store.client.execute("SELECT id, source_event_id FROM triples WHERE predicate = 'is'")).rows[0]!;
    assert.match((await lineOf("where is the spare key?", /flowerpot/))!, /verbatim source/);
    await runMemoryTool("memory_forget", { id: String(key.source_event_id) }, { client: store.client, access: OWNER });
    const fact = (await openRecord(store.client, String(key.id), OWNER)) as FactRecord;
    assert.equal(fact.evidence, "pointer");
    assert.equal(fact.check, "source_unavailable");
    assert.ok(fact.provenance.excerpt && fact.provenance.hash, "the pointer stays: excerpt and hash");
    assert.match((await lineOf("where is the spare key?", /flowerpot/))!, /\[L3 · pointer only\] the spare key is under the blue flowerpot/);
  });
});

/**
 * "What homed remembers" over real HTTP against a daemon: `GET /api/memory/facts` gives each
 * fact its parts, its source and when a chat last used it (the injection audit, citations);
 * `PUT /api/memory/facts/:id` corrects a fact the way memory_note and memory_forget would (the
 * same fact restated is revised in place, its old text in the history; another fact replaces
 * it); `GET /api/memory/explain` says for a turn's memories why each matched, in words.
 */
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { rmSync } from "node:fs";
import { join } from "node:path";
import { writeFact, type NewFact } from "../../src/memory/index.ts";
import { insertInjectionAudit, openStore } from "../../src/store/index.ts";
import type { CorrectAnswer, ExplainAnswer, FactsAnswer } from "../../src/server/index.ts";
import { startApiDaemon, type ApiDaemon } from "../support/api-daemon.ts";
import { tempDir } from "../support/temp-dir.ts";

describe("what homed remembers, over HTTP", () => {
  const data = tempDir("homed-remembers-").path;
  let daemon: ApiDaemon;
  const ids: { [name: string]: string } = {};
  const usedAt = Date.parse("2026-03-01T09:00:00Z");

  before(async () => {
    daemon = await startApiDaemon(data);
    const store = await openStore({ url: `file:${join(data, "homed.db")}` });
    try {
      const fact = (subject: string, predicate: string, object: string, source?: NewFact["source"]): NewFact => ({
        subject,
        predicate,
        object,
        kind: "preference",
        scope: "user",
        confidence: 0.9,
        importance: 0.5,
        evidence: source ? "verbatim" : "manual",
        ...(source ? { source } : {}),
      });
      const write = async (name: string, f: NewFact) => {
        const tx = await store.client.transaction("write");
        ids[name] = (await writeFact(tx, f)).id;
        await tx.commit();
      };
      await write("boat", fact("alice", "keeps", "a blue harbour boat", { session: "alice/gym", turn: 1, eventId: "ev_gone", text: "I keep a blue harbour boat." }));
      await write("allergy", fact("I", "am_allergic_to", "peanuts"));
      // A turn was given the boat fact: its audit record is what "last used" reads.
      await insertInjectionAudit(
        store.client,
        { time: usedAt, sessionId: null, query: "where is my boat", ids: [{ id: ids.boat!, layer: "L3", band: "IMMEDIATE", evidence: "verbatim" }], counts: { L2: 0, L3: 1 }, chars: 40 },
        1000,
      );
    } finally {
      store.close();
    }
  });
  after(async () => {
    await daemon?.stop();
    rmSync(data, { recursive: true, force: true });
  });

  const get = async <T>(path: string): Promise<T> => {
    const response = await fetch(`${daemon.url}${path}`, { headers: daemon.headers });
    assert.equal(response.status, 200, path);
    return (await response.json()) as T;
  };
  const correct = (id: string, body: unknown) => fetch(`${daemon.url}/api/memory/facts/${id}`, { method: "PUT", headers: daemon.headers, body: JSON.stringify(body) });

  test("facts come with their parts, their source and when a chat last used them", async () => {
    const { facts } = await get<FactsAnswer>("/api/memory/facts");
    const boat = facts.find((f) => f.id === ids.boat)!;
    assert.deepEqual([boat.subject, boat.predicate, boat.object], ["alice", "keeps", "a blue harbour boat"]);
    assert.equal(boat.source.via, "import");
    assert.equal(boat.source.said, "I keep a blue harbour boat.");
    assert.equal(boat.used.lastInjected, usedAt);
    const allergy = facts.find((f) => f.id === ids.allergy)!;
    assert.equal(allergy.source.via, "note");
    assert.equal(allergy.used.lastInjected, null);
  });

  test("a correction of the same fact revises it in place and keeps the old text in its history", async () => {
    const response = await correct(ids.boat!, { subject: "alice", predicate: "keeps", object: "a blue harbour boats" });
    assert.equal(response.status, 200);
    const answer = (await response.json()) as CorrectAnswer;
    assert.deepEqual([answer.id, answer.revision, answer.replaced], [ids.boat, 2, null]);
    const record = await get<{ object: string; evidence: string; history: { snapshot: { object_text: string } }[] }>(`/api/memory/records/${ids.boat}`);
    assert.equal(record.object, "a blue harbour boats");
    assert.equal(record.evidence, "manual");
    assert.equal(record.history[0]!.snapshot.object_text, "a blue harbour boat");
  });

  test("a correction to another fact replaces it: the old one is forgotten", async () => {
    const response = await correct(ids.allergy!, { subject: "I", predicate: "am_allergic_to", object: "cashews" });
    assert.equal(response.status, 200);
    const answer = (await response.json()) as CorrectAnswer;
    assert.equal(answer.replaced, ids.allergy);
    assert.notEqual(answer.id, ids.allergy);
    const gone = await fetch(`${daemon.url}/api/memory/records/${ids.allergy}`, { headers: daemon.headers });
    assert.equal(gone.status, 404);
    const { facts } = await get<FactsAnswer>("/api/memory/facts");
    assert.deepEqual(
      facts.filter((f) => f.subject === "I").map((f) => f.object),
      ["cashews"],
    );
    ids.allergy = answer.id;
  });

  test("a correction is refused without all three parts, and for a fact that is not there", async () => {
    assert.equal((await correct(ids.allergy!, { subject: "I", predicate: "", object: "x" })).status, 400);
    assert.equal((await correct("fact_nope", { subject: "I", predicate: "like", object: "tea" })).status, 404);
  });

  test("explain says which words a memory shares with the question, its source and the engineer's detail", async () => {
    const q = "Where is my harbour boat moored?";
    const { cards } = await get<ExplainAnswer>(`/api/memory/explain?${new URLSearchParams({ q, ids: `${ids.boat},fact_forgotten` })}`);
    assert.equal(cards.length, 1, "a forgotten memory has no card");
    const card = cards[0]!;
    assert.deepEqual(card.sharedWords.sort(), ["boats", "harbour"]);
    assert.equal(card.layer, "L3");
    assert.deepEqual(card.fact, { subject: "alice", predicate: "keeps", object: "a blue harbour boats" });
    assert.ok(card.channels.includes("words"), `channels: ${card.channels}`);
    assert.ok(card.score! > 0);
  });
});

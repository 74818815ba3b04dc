/**
 * The console's memory search over real HTTP against a daemon: facts (L3) are ranked the way
 * recall ranks them, not by how recently they changed; a time window keeps what was written
 * (events) or last changed (facts) within it.
 */
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { rmSync } from "node:fs";
import { join } from "node:path";
import { writeFact, type NewFact } from "../../src/memory/index.ts";
import { openStore } from "../../src/store/index.ts";
import { startApiDaemon, type ApiDaemon } from "../support/api-daemon.ts";
import { tempDir } from "../support/temp-dir.ts";

const DAY = 86_400_000;

type Record = { id: string; kind: string; layer: string; text: string; time: number; score?: number; channels?: string[]; provenance: { evidence?: string } };

describe("console memory search", () => {
  const data = tempDir("homed-memory-search-").path;
  let daemon: ApiDaemon;
  const ids: { [name: string]: string } = {};

  before(async () => {
    daemon = await startApiDaemon(data);
    const store = await openStore({ url: `file:${join(data, "homed.db")}` });
    try {
      const fact = (subject: string, predicate: string, object: string, scope: string): NewFact => ({
        subject,
        predicate,
        object,
        kind: "entity",
        scope,
        confidence: 0.9,
        importance: 0.5,
        evidence: "verbatim",
      });
      const write = async (name: string, f: NewFact, at: number) => {
        const tx = await store.client.transaction("write");
        ids[name] = (await writeFact(tx, f, at)).id;
        await tx.commit();
      };
      const now = Date.now();
      // The best match is the oldest; the newest mentions the words only in passing.
      await write("strong", fact("alice", "keeps", "a sailing boat in the harbour", "alice"), now - 60 * DAY);
      await write("weak", fact("alice", "said", "her neighbour once looked at a sailing course, a bicycle, a car and a boat show ticket", "alice"), now - DAY);
      await write("elsewhere", fact("carol", "keeps", "a sailing boat in the harbour", "carol"), now - 30 * DAY);
    } finally {
      store.close();
    }
  });
  after(async () => {
    await daemon?.stop();
    rmSync(data, { recursive: true, force: true });
  });

  const search = async (query: string): Promise<Record[]> => {
    const response = await fetch(`${daemon.url}/api/memory/search?${query}`, { headers: daemon.headers });
    assert.equal(response.status, 200);
    return ((await response.json()) as { records: Record[] }).records;
  };

  test("a better-matching older fact ranks above a weaker recent one, with its score and channels", async () => {
    const records = await search("q=sailing%20boat%20harbour&layer=L3&conversation=alice");
    assert.deepEqual(
      records.map((r) => r.id),
      [ids.strong, ids.weak],
      "in alice's scope, best match first",
    );
    const [best] = records;
    assert.ok(best!.score! > records[1]!.score!);
    assert.ok(best!.channels!.length > 0);
    // The shape the console renders: text, time and the fact's provenance.
    assert.equal(best!.kind, "fact");
    assert.equal(best!.text, "alice keeps a sailing boat in the harbour");
    assert.equal(best!.provenance.evidence, "verbatim");
  });

  test("across layers the ranked facts lead, best first; without a conversation every scope is searched", async () => {
    const records = await search("q=sailing%20boat%20harbour");
    const facts = records.filter((r) => r.kind === "fact").map((r) => r.id);
    assert.equal(facts.length, 3);
    assert.ok(facts.indexOf(ids.strong!) < facts.indexOf(ids.weak!), "the strong match before the weak one");
    assert.ok(facts.indexOf(ids.elsewhere!) < facts.indexOf(ids.weak!));
  });

  test("with no query, facts are listed newest first", async () => {
    const records = await search("layer=L3");
    assert.deepEqual(
      records.map((r) => r.id),
      [ids.weak, ids.elsewhere, ids.strong],
    );
    assert.equal(records[0]!.score, undefined);
    // A fact's scope is its conversation's key: the "conversation" filter finds them, "user" does not.
    assert.equal((await search("layer=L3&scope=conversation")).length, 3);
    assert.equal((await search("layer=L3&scope=user")).length, 0);
    assert.deepEqual(
      (await search("layer=L3&conversation=carol")).map((r) => r.id),
      [ids.elsewhere],
    );
  });

  test("a time window keeps only what was written (events) or last changed (facts) within it, listed and ranked", async () => {
    const now = Date.now();
    const line = (id: string, daysAgo: number, text: string) =>
      JSON.stringify({ conversation: "dora", session: "d1", time: new Date(now - daysAgo * DAY).toISOString(), speaker: "me", role: "user", id, text });
    const imported = await fetch(`${daemon.url}/api/memory/import`, {
      method: "POST",
      headers: { ...daemon.headers, "content-type": "application/x-ndjson" },
      body: [line("old", 50, "the kayak trip to the fjord"), line("mid", 20, "the kayak paddles need new grips"), line("new", 2, "sold the kayak at last")].join("\n"),
    });
    assert.equal(imported.status, 200);
    await imported.text();
    const window = `since=${now - 45 * DAY}&until=${now - 10 * DAY}`;
    const texts = (records: Record[]) => records.map((r) => r.text).sort();
    assert.deepEqual(texts(await search(`layer=L2&${window}`)), ["the kayak paddles need new grips"]);
    assert.deepEqual(texts(await search(`q=kayak&layer=L2&${window}`)), ["the kayak paddles need new grips"]);
    assert.deepEqual(
      (await search(`layer=L3&${window}`)).map((r) => r.id),
      [ids.elsewhere],
    );
    assert.deepEqual((await search(`q=sailing%20boat%20harbour&layer=L3&since=${now - 45 * DAY}`)).map((r) => r.id).sort(), [ids.elsewhere, ids.weak].sort());
    const bad = await fetch(`${daemon.url}/api/memory/search?since=yesterday`, { headers: daemon.headers });
    assert.equal(bad.status, 400);
  });
});

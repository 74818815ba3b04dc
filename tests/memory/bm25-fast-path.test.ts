/**
 * Unscoped BM25 takes a fast path: FTS5 ranks and cuts its own table before events are joined.
 * It must rank exactly as the full path does (which scoped queries take), and the layer and time
 * filters must still hold when the best matches are filtered away.
 */
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { coldcontextQuery, type Candidate, type QueryOptions } from "../../src/memory/index.ts";
import { bm25Of, scopedMatch, SEARCH_TABLES } from "../../src/store/index.ts";
import { message, openTempStore, seed, type TempStore } from "./fixture.ts";

const OLD = Date.UTC(2020, 0, 1);
const CUTOFF = Date.UTC(2021, 0, 1);

/**
 * 450 messages in one conversation, all matching "piano" with scores that fall as they were
 * written later-to-earlier: more mentions and fewer other words rank higher. The 30 written
 * first, in 2020, mention it once among many words, so they rank last.
 */
async function pianoStore(): Promise<TempStore> {
  const store = await openTempStore();
  const messages = Array.from({ length: 450 }, (_, i) => {
    const old = i < 30;
    const text = old ? `piano ${"lorem ipsum dolor sit amet ".repeat(6)}${i}` : `${"piano ".repeat(1 + (i % 9))}${"lesson ".repeat(1 + (i % 5))}n${i}`;
    return message(text, { conversation: "A", session: "s", sourceId: `m${i}`, time: old ? OLD + i * 60_000 : Date.UTC(2024, 0, 1) + i * 60_000 });
  });
  await seed(store, messages);
  return store;
}

const ranking = (results: Candidate[]) => results.map((r) => [r.sources[0], r.channels.words?.score]);
const words = (options: Partial<QueryOptions>): QueryOptions => ({ k: 10, channels: ["words"], ...options });

describe("unscoped BM25 fast path", () => {
  test("ranks as the full path does, whether FTS5's cut holds every match or not", async () => {
    await using store = await pianoStore();
    // k 10 reads 400 of 450 matches; k 60 reads them all. Scoped (all 450 are in A) is the full path.
    for (const k of [10, 60]) {
      const unscoped = await coldcontextQuery(store.client, "piano", words({ k }));
      const scoped = await coldcontextQuery(store.client, "piano", words({ k, conversation: "A" }));
      assert.equal(unscoped.length, k);
      assert.deepEqual(ranking(unscoped), ranking(scoped));
    }
  });

  test("a time window that drops every fetched match falls back to the full ranking", async () => {
    await using store = await pianoStore();
    const old = await coldcontextQuery(store.client, "piano", words({ k: 50, until: CUTOFF }));
    assert.deepEqual(new Set(old.map((r) => r.sources[0])), new Set(Array.from({ length: 30 }, (_, i) => `m${i}`)));
    assert.deepEqual(ranking(old), ranking(await coldcontextQuery(store.client, "piano", words({ k: 50, until: CUTOFF, conversation: "A" }))));
  });

  test("events outside L2 among the best matches are skipped, and the next ones fill their places", async () => {
    await using store = await pianoStore();
    const before = await coldcontextQuery(store.client, "piano", words({ k: 10 }));
    const best = before.slice(0, 3).map((r) => r.id);
    // As if recalled into live context (L1): no longer cold, so no longer a recall candidate.
    await store.client.execute({ sql: `UPDATE events SET layer = 'L1' WHERE id IN (?, ?, ?)`, args: best });
    const after = await coldcontextQuery(store.client, "piano", words({ k: 10 }));
    assert.equal(after.length, 10);
    assert.ok(after.every((r) => !best.includes(r.id)));
    assert.deepEqual(ranking(after), ranking(await coldcontextQuery(store.client, "piano", words({ k: 10, conversation: "A" }))));
    assert.deepEqual(ranking(after).slice(0, 7), ranking(before).slice(3));
  });

  test("when enough memories hold every term, only they are ranked, each with its any-term BM25", async () => {
    await using store = await openTempStore();
    const LONG = "kitchen table bread jam jar window garden fence gate path river bridge tower market square station harbour island forest meadow valley hill castle village farm barn mill road lane street";
    // 120 long messages with both words, 40 short ones that repeat only one (some of them
    // outrank the first in an any-term ranking), 300 with neither so the words stay informative.
    await seed(store, [
      ...Array.from({ length: 120 }, (_, i) => message(`red apple ${LONG} ${i}`, { sourceId: `both${i}` })),
      ...Array.from({ length: 40 }, (_, i) => message(`${"apple ".repeat(8)}${i}`, { sourceId: `one${i}` })),
      ...Array.from({ length: 300 }, (_, i) => message(`nothing to see here ${i}`, { sourceId: `none${i}` })),
    ]);
    const table = SEARCH_TABLES.event.words;
    const anyTerm = await store.client.execute({
      sql: `SELECT e.source_id AS source, ${bm25Of(table)} AS rank FROM ${table} f JOIN events e ON e.rowid = f.rowid WHERE ${table} MATCH ? ORDER BY rank`,
      args: [scopedMatch(table, ["red", "appl"])],
    });
    const anyScore = new Map(anyTerm.rows.map((r) => [String(r.source), -Number(r.rank)]));
    assert.ok(anyTerm.rows.slice(0, 100).some((r) => String(r.source).startsWith("one")), "precondition: one-word memories rank among the best 100 of any term");
    for (const conversation of [undefined, "conv-a"]) {
      const found = await coldcontextQuery(store.client, "red apple", { k: 50, channels: ["words"], conversation });
      assert.equal(found.length, 50);
      for (const r of found) {
        assert.match(r.sources[0]!, /^both/, `only memories with every term (${conversation ?? "all memory"})`);
        assert.ok(Math.abs(r.channels.words!.score - anyScore.get(r.sources[0]!)!) < 1e-9, "the same BM25 as the any-term ranking");
      }
    }
    // Fewer than the channel's depth (100) hold every term: the any-term ranking, as before.
    const few = await coldcontextQuery(store.client, "apple nothing", { k: 50, channels: ["words"] });
    assert.ok(few.some((r) => r.sources[0]!.startsWith("one")));
  });
});

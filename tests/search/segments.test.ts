/**
 * The event search index (src/search/segments.ts, bm25.ts) on real libSQL files:
 * its BM25 is the textbook formula (checked against a brute-force computation), merging changes
 * no score, a deleted event's postings go at its segment's next merge, an import's staged
 * segments are invisible until published, and a narrow (one conversation) search ranks as the
 * broad one filtered.
 */
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import type { Client } from "@libsql/client";
import {
  analyseDocument,
  dropStagedSegments,
  indexEvent,
  MERGE_FACTOR,
  mergeOnce,
  publishStagedSegments,
  searchEvents,
  SegmentBuilder,
  type AnalysedDoc,
  type SearchTerms,
} from "../../src/search/index.ts";
import { decodeSegmentDocs, encodeSegmentDocs, forEachPosting, PostingsWriter } from "../../src/search/postings-codec.ts";
import { openTempStore } from "../memory/fixture.ts";
import { indexOrphans } from "./index-orphans.ts";

const TEXTS = [
  "the harbour boat leaves at nine",
  "我们在西湖边的咖啡馆见面",
  "harbour fees went up again, the boat owner said",
  "parking at the airport, level B2, near the lift",
  "西湖 boat tour tickets for Saturday",
  "a boat, a boat, a harbour boat",
  "咖啡馆 opens at eight near the harbour",
  "nothing about water here at all",
  "airport parking fees are steep",
  "the lift at the harbour car park is broken",
  "周六去西湖划船",
  "boat boat boat boat boat boat boat boat boat boat boat boat boat boat",
];

type Doc = { id: string; rowid: number; conversation: string; analysed: AnalysedDoc };

/** Inserts events (conversation c0/c1 alternating) and indexes each as its own segment, as chat turns are. */
async function seedEvents(client: Client, texts: readonly string[], from = 0): Promise<Doc[]> {
  const docs: Doc[] = [];
  for (const [i, text] of texts.entries()) {
    const id = `ev-${from + i}`;
    const conversation = `c${(from + i) % 2}`;
    const tx = await client.transaction("write");
    const inserted = await tx.execute({
      sql: "INSERT INTO events (id, session_id, conversation, layer, seq, time, messages, text, tokens, created_at) VALUES (?, 's', ?, 'L2', ?, 0, '[]', ?, 1, 0)",
      args: [id, conversation, from + i, text],
    });
    const context = texts[i - 1] ?? "";
    await indexEvent(tx, Number(inserted.lastInsertRowid), { own: text, context });
    await tx.commit();
    docs.push({ id, rowid: Number(inserted.lastInsertRowid), conversation, analysed: await analyseDocument({ own: text, context }) });
  }
  return docs;
}

/**
 * BM25 as Robertson and Spärck Jones wrote it (k1 1.2, b 0.75, idf ln((N − df + ½)/(df + ½)),
 * at least a millionth), term by term; N and the average length per channel over the documents
 * with text in that channel. And each document's coverage of the query, as RankedEvents defines
 * it: the smaller of its score over the ranking's ceiling (Σ weight × idf) and the terms it holds
 * by count (a term only in its context, tf ½, half) over the ranking's terms by count.
 */
function bruteForce(docs: readonly Doc[], terms: SearchTerms): { words: Map<string, number>; grams: Map<string, number>; coverage: { words: Map<string, number>; grams: Map<string, number> } } {
  const out = { words: new Map<string, number>(), grams: new Map<string, number>() };
  const held = { words: new Map<string, number>(), grams: new Map<string, number>() };
  const ceiling = { words: 0, grams: 0 };
  const count = { words: 0, grams: 0 };
  const prefix = { words: "w", trigrams: "t", bigrams: "b" } as const;
  for (const channel of ["words", "trigrams", "bigrams"] as const) {
    const ranking = channel === "words" ? "words" : "grams";
    const present = docs.filter((d) => d.analysed.lengths[channel] > 0);
    const avg = Math.max(1, present.reduce((a, d) => a + d.analysed.lengths[channel], 0) / present.length);
    const weights = new Map<string, number>();
    for (const t of terms[channel]) weights.set(t, (weights.get(t) ?? 0) + 1);
    for (const [t, weight] of weights) {
      const df = docs.filter((d) => d.analysed.terms.has(prefix[channel] + t)).length;
      const idf = Math.max(1e-6, Math.log((present.length - df + 0.5) / (df + 0.5)));
      ceiling[ranking] += weight * idf;
      count[ranking] += weight;
      for (const d of docs) {
        const tf = (d.analysed.terms.get(prefix[channel] + t) ?? 0) / 2;
        if (tf === 0) continue;
        const score = (weight * idf * tf * 2.2) / (tf + 1.2 * (1 - 0.75 + (0.75 * d.analysed.lengths[channel]) / avg));
        out[ranking].set(d.id, (out[ranking].get(d.id) ?? 0) + score);
        held[ranking].set(d.id, (held[ranking].get(d.id) ?? 0) + weight * Math.min(1, tf));
      }
    }
  }
  const coverageOf = (ranking: "words" | "grams") => new Map([...out[ranking]].map(([id, score]) => [id, Math.min(score / ceiling[ranking], held[ranking].get(id)! / count[ranking])]));
  return { ...out, coverage: { words: coverageOf("words"), grams: coverageOf("grams") } };
}

const ALL = { sql: "e.layer = 'L2'", args: [] };
const QUERY: SearchTerms = { words: ["harbour", "boat", "boat", "西湖"], trigrams: ["har", "boa", "par"], bigrams: ["西湖", "咖啡"] };

const liveSegments = async (client: Client) => Number((await client.execute("SELECT count(*) AS n FROM search_segments WHERE state = 'live'")).rows[0]!.n);

describe("event search index", () => {
  test("scores are BM25 exactly, per channel, weights as repetitions; coverage the smaller share, by idf and by count; best first, ties by rowid", async () => {
    await using store = await openTempStore();
    const docs = await seedEvents(store.client, TEXTS);
    const found = await searchEvents(store.client, QUERY, { limit: 50, filter: ALL });
    const expected = bruteForce(docs, QUERY);
    for (const ranking of ["words", "grams"] as const) {
      assert.equal(found[ranking].length, expected[ranking].size, ranking);
      for (const { id, score } of found[ranking]) assert.ok(Math.abs(score - expected[ranking].get(id)!) < 1e-9, `${ranking} ${id}: ${score} vs ${expected[ranking].get(id)}`);
      for (const { id, coverage } of found[ranking])
        assert.ok(Math.abs(coverage - expected.coverage[ranking].get(id)!) < 1e-9, `${ranking} ${id} coverage: ${coverage} vs ${expected.coverage[ranking].get(id)}`);
      const scores = found[ranking].map((r) => r.score);
      assert.deepEqual(
        scores,
        [...scores].sort((a, b) => b - a),
        `${ranking} best first`,
      );
    }
    assert.equal(found.words[0]!.id, "ev-5", "the message that says the words most, at its length, first");
  });

  test("merging changes no score; a deleted event's postings go with the merge", async () => {
    await using store = await openTempStore();
    const docs = await seedEvents(store.client, TEXTS);
    assert.ok((await liveSegments(store.client)) >= MERGE_FACTOR);
    await store.client.execute("DELETE FROM events WHERE id = 'ev-5'");
    const before = await searchEvents(store.client, QUERY, { limit: 50, filter: ALL });
    assert.ok(!before.words.some((r) => r.id === "ev-5"), "a deleted event is never returned");
    while (await mergeOnce(store.client));
    assert.equal(await liveSegments(store.client), 1 + TEXTS.length - MERGE_FACTOR, "the oldest eight single-event segments became one, the rest wait");
    const merged = await store.client.execute("SELECT docs FROM search_segments WHERE docs > 1");
    assert.equal(Number(merged.rows[0]!.docs), MERGE_FACTOR - 1, "the deleted event (the sixth) left out of the merged segment");
    // After the merge the deleted event no longer counts in the statistics either: the scores are
    // exactly BM25 over the events that remain.
    const after = await searchEvents(store.client, QUERY, { limit: 50, filter: ALL });
    const expected = bruteForce(
      docs.filter((d) => d.id !== "ev-5"),
      QUERY,
    );
    for (const ranking of ["words", "grams"] as const) {
      assert.equal(after[ranking].length, expected[ranking].size, ranking);
      for (const { id, score } of after[ranking]) assert.ok(Math.abs(score - expected[ranking].get(id)!) < 1e-9, `${ranking} ${id}`);
    }
  });

  test("what a search keeps between queries is never stale: events written after it are found, scores stay exact", async () => {
    await using store = await openTempStore();
    const first = await seedEvents(store.client, TEXTS.slice(0, 6));
    // Caches every query term's records of the first six segments, and their absence.
    await searchEvents(store.client, QUERY, { limit: 50, filter: ALL });
    const later = await seedEvents(store.client, TEXTS.slice(6), 6);
    const found = await searchEvents(store.client, QUERY, { limit: 50, filter: ALL });
    const expected = bruteForce([...first, ...later], QUERY);
    for (const ranking of ["words", "grams"] as const) {
      assert.deepEqual(new Set(found[ranking].map((r) => r.id)), new Set(expected[ranking].keys()), `${ranking}: the later events are found`);
      for (const { id, score } of found[ranking]) assert.ok(Math.abs(score - expected[ranking].get(id)!) < 1e-9, `${ranking} ${id}`);
    }
    assert.ok(
      found.words.some((r) => later.some((d) => d.id === r.id)),
      "a later event among the words matches",
    );
  });

  test("searches running at once give what each gives alone", async () => {
    await using store = await openTempStore();
    await seedEvents(store.client, TEXTS);
    const queries: SearchTerms[] = [
      QUERY,
      { words: ["airport", "parking"], trigrams: ["air", "par", "fee"], bigrams: [] },
      { words: ["西湖"], trigrams: [], bigrams: ["西湖", "划船"] },
      { words: ["lift"], trigrams: ["lif", "ift"], bigrams: [] },
    ];
    const alone = [];
    for (const q of queries) alone.push(await searchEvents(store.client, q, { limit: 50, filter: ALL }));
    const together = await Promise.all([...queries, ...queries].map((q) => searchEvents(store.client, q, { limit: 50, filter: ALL })));
    assert.deepEqual(together, [...alone, ...alone]);
    assert.ok(
      alone.every((r) => r.words.length + r.grams.length > 0),
      "each query matches something",
    );
  });

  test("a merge keeps scores exactly when nothing was deleted (the cached segment tables follow it)", async () => {
    await using store = await openTempStore();
    await seedEvents(store.client, TEXTS);
    const before = await searchEvents(store.client, QUERY, { limit: 50, filter: ALL });
    while (await mergeOnce(store.client));
    const after = await searchEvents(store.client, QUERY, { limit: 50, filter: ALL });
    for (const ranking of ["words", "grams"] as const) {
      assert.deepEqual(
        after[ranking].map((r) => r.id),
        before[ranking].map((r) => r.id),
      );
      after[ranking].forEach((r, i) => {
        assert.ok(Math.abs(r.score - before[ranking][i]!.score) < 1e-9);
      });
    }
  });

  test("an import's staged segment is invisible until published, and dropped with its postings", async () => {
    await using store = await openTempStore();
    const docs = await seedEvents(store.client, ["an unrelated note"]);
    const staged = new SegmentBuilder();
    const rowid = docs[0]!.rowid + 10;
    await store.client.execute({
      sql: "INSERT INTO events (rowid, id, session_id, conversation, layer, seq, time, messages, text, tokens, created_at) VALUES (?, 'ev-staged', 's', 'c0', 'L2', 9, 0, '[]', 'zorbel drawer', 1, 0)",
      args: [rowid],
    });
    await staged.add(rowid, await analyseDocument({ own: "zorbel drawer" }));
    for (const publish of [false, true]) {
      const tx = await store.client.transaction("write");
      await staged.write(tx, "staged", 42);
      await tx.commit();
      const hidden = await searchEvents(store.client, { words: ["zorbel"], trigrams: [], bigrams: [] }, { limit: 5, filter: ALL });
      assert.deepEqual(hidden.words, [], "staged: not searched");
      if (publish) {
        await store.client.batch(await publishStagedSegments(store.client, 42), "write");
        const shown = await searchEvents(store.client, { words: ["zorbel"], trigrams: [], bigrams: [] }, { limit: 5, filter: ALL });
        assert.deepEqual(
          shown.words.map((r) => r.id),
          ["ev-staged"],
        );
      } else {
        const drop = await store.client.transaction("write");
        await dropStagedSegments(drop, 42);
        await drop.commit();
        const left = await store.client.execute("SELECT count(*) AS n FROM search_postings WHERE term = 'wzorbel'");
        assert.equal(Number(left.rows[0]!.n), 0, "its postings are gone");
        assert.deepEqual(await indexOrphans(store.client), { postings: 0, termChunks: 0 }, "and its term list");
      }
    }
  });

  test("a search within a listed conversation ranks as the broad one filtered, and scores only what is listed", async () => {
    await using store = await openTempStore();
    await seedEvents(store.client, TEXTS);
    while (await mergeOnce(store.client)); // one segment holding both conversations
    const one = { sql: "e.conversation = ?", args: ["c1"] };
    const within = { sql: "SELECT rowid AS r FROM events WHERE conversation = ?", args: ["c1"] };
    const narrow = await searchEvents(store.client, QUERY, { limit: 50, filter: one, within });
    const broad = await searchEvents(store.client, QUERY, { limit: 50, filter: one });
    assert.ok(narrow.words.length > 0);
    assert.deepEqual(narrow, broad);
    // Only what `within` lists is scored, whatever else the filter would admit.
    const onlyListed = await searchEvents(store.client, QUERY, { limit: 50, filter: ALL, within });
    assert.deepEqual(onlyListed, broad);
    // Listing more than it may mask (a conversation of 50,000 messages): every match is scored,
    // and still only what `within` lists comes back — the caller's filter no longer names the conversation.
    const overListed = await searchEvents(store.client, QUERY, { limit: 50, filter: ALL, within, withinMax: 2 });
    assert.deepEqual(overListed, broad);
  });

  test("when the best matches are filtered out, deeper ones fill the list", async () => {
    await using store = await openTempStore();
    const texts = Array.from({ length: 60 }, (_, i) => (i < 50 ? `boat boat boat harbour ${i}` : `boat ${i}`));
    await seedEvents(store.client, texts);
    // The 50 best are live (L1): a first round of 1.25 × 5 + 8 checks finds none that pass.
    await store.client.execute("UPDATE events SET layer = 'L1' WHERE seq < 50");
    const found = await searchEvents(store.client, { words: ["boat"], trigrams: [], bigrams: [] }, { limit: 5, filter: ALL });
    assert.equal(found.words.length, 5);
    assert.ok(
      found.words.every((r) => Number(r.id.slice(3)) >= 50),
      found.words.map((r) => r.id).join(),
    );
  });

  test("a document added by its text is indexed exactly as its analysis: same terms, counts, lengths and order", async () => {
    // Repeated lines (the numbered-line memo), a speaker's line, repeats within a line, a page past ANALYSED_CHARS.
    const docs = [
      ...TEXTS.map((t, i) => ({ own: `Ann: ${t}`, context: `${TEXTS[(i + 1) % TEXTS.length]}\n${t}` })),
      { own: "Bo: 哈哈哈哈 the the boat boat", context: "" },
      { own: `Cy: ${"西湖 harbour ".repeat(900)}`, context: TEXTS.join("\n") },
      { own: "", context: "only neighbours here" },
    ];
    const byAnalysis = new SegmentBuilder();
    const byText = new SegmentBuilder();
    for (const [i, doc] of docs.entries()) {
      await byAnalysis.add(100 + i, await analyseDocument(doc));
      await byText.addText(100 + i, doc);
    }
    assert.deepEqual(byText.seal(), byAnalysis.seal());
    await assert.rejects(byText.addText(100, docs[0]!), /Cannot index event rowid 100 after/);
  });

  test("postings and segment tables round-trip, rowids past 2^32 and large frequencies included", () => {
    const rowids = [2 ** 32, 2 ** 32 + 1, 2 ** 40 + 7, 2 ** 52];
    const lengths = { words: [0, 1, 300, 70_000], trigrams: [5, 0, 127, 128], bigrams: [1, 2, 3, 4] };
    const encoded = encodeSegmentDocs(rowids, lengths);
    const decoded = decodeSegmentDocs(rowids.length, encoded.rowids, encoded.lengths);
    assert.deepEqual([...decoded.rowids], rowids);
    assert.deepEqual([...decoded.lengths.words], lengths.words);
    assert.deepEqual([...decoded.lengths.trigrams], lengths.trigrams);
    const writer = new PostingsWriter();
    const postings: [number, number][] = [
      [0, 1],
      [1, 200],
      [130, 2],
      [70_000, 16_385],
    ];
    for (const [o, tf] of postings) writer.add(o, tf);
    const read: [number, number][] = [];
    forEachPosting(writer.finish(), (o, tf) => read.push([o, tf]));
    assert.deepEqual(read, postings);
    assert.throws(() => writer.add(5, 1), /ascending/);
  });
});

/**
 * The streaming merge of search segments (src/search/segment-merge.ts, background-merge.ts) on
 * real libSQL files: it writes exactly what the whole-in-memory merge wrote (a SegmentBuilder fed
 * the kept documents), holds a page of records a source, publishes nothing when its sources were
 * merged meanwhile, leaves the index correct when killed (and its leftovers are removed), and
 * changes no search result.
 */
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { Client } from "@libsql/client";
import fc from "fast-check";
import {
  cleanAbandonedMerges,
  MAX_MERGE_LEVEL,
  MERGE_FACTOR,
  mergeInBackground,
  mergeOnce,
  mergeStaged,
  searchEvents,
  SegmentBuilder,
  STAGED_FROM_LEVEL,
  startMergeJob,
  type AnalysedDoc,
  type SearchTerms,
} from "../../src/search/index.ts";
import { decodeSegmentDocs, forEachPosting, INDEX_CHANNELS, type IndexChannel } from "../../src/search/postings-codec.ts";
import { TERMS_PER_CHUNK } from "../../src/search/segment-terms.ts";
import { openTempStore } from "../memory/fixture.ts";
import { writeL1Event } from "../../src/context/index.ts";
import { createFallbackEmbedder } from "../../src/embed/index.ts";
import { indexOrphans, termLists } from "./index-orphans.ts";
import { scriptCommand } from "../support/process.ts";

type Doc = { rowid: number; terms: Map<string, number>; lengths: Record<IndexChannel, number> };

/** Inserts an event row per document (rowid as given) and writes each group as one live segment; the segments' ids. */
async function writeSegments(client: Client, groups: readonly Doc[][]): Promise<number[]> {
  const ids: number[] = [];
  for (const group of groups) {
    const tx = await client.transaction("write");
    for (const d of group) {
      await tx.execute({
        sql: "INSERT INTO events (rowid, id, session_id, conversation, layer, seq, time, messages, text, tokens, created_at) VALUES (?, ?, 's', ?, 'L2', ?, 0, '[]', 't', 1, 0)",
        args: [d.rowid, `ev-${d.rowid}`, `c${d.rowid % 2}`, d.rowid],
      });
    }
    const builder = new SegmentBuilder();
    for (const d of [...group].sort((a, b) => a.rowid - b.rowid)) await builder.add(d.rowid, { terms: d.terms, lengths: d.lengths } as AnalysedDoc);
    ids.push((await builder.write(tx, "live"))!);
    await tx.commit();
  }
  return ids;
}

/**
 * The merge as it was done whole in memory (segments.ts before the stream): the kept documents
 * in rowid order into a SegmentBuilder, then every term's postings re-numbered, terms in order.
 */
function wholeInMemoryMerge(groups: readonly Doc[][], deleted: ReadonlySet<number>) {
  const kept = groups
    .flat()
    .filter((d) => !deleted.has(d.rowid))
    .sort((a, b) => a.rowid - b.rowid);
  const builder = new SegmentBuilder();
  const ordinal = new Map(kept.map((d) => [d.rowid, builder.addDocument(d.rowid, d.lengths)]));
  const terms = [...new Set(kept.flatMap((d) => [...d.terms.keys()]))].sort();
  for (const term of terms) for (const d of kept) if (d.terms.has(term)) builder.addPosting(term, ordinal.get(d.rowid)!, d.terms.get(term)!);
  return builder.seal();
}

/** The live segments' rows and every postings record, as plain values. */
async function indexContents(client: Client) {
  const segments = await client.execute(`SELECT id, state, docs, tokens_words, tokens_trigrams, tokens_bigrams, rowids, lengths,
                                                (SELECT json_group_array(j.value ORDER BY c.chunk, j.key) FROM search_segment_terms AS c, json_each(c.terms) AS j WHERE c.segment = s.id) AS terms
                                         FROM search_segments AS s ORDER BY id`);
  const postings = await client.execute("SELECT term, segment, postings FROM search_postings ORDER BY segment, term");
  return {
    segments: segments.rows.map((r) => ({
      id: Number(r.id),
      state: String(r.state),
      docs: Number(r.docs),
      tokens: [Number(r.tokens_words), Number(r.tokens_trigrams), Number(r.tokens_bigrams)],
      rowids: [...new Uint8Array(r.rowids as ArrayBuffer)],
      lengths: [...new Uint8Array(r.lengths as ArrayBuffer)],
      terms: String(r.terms),
    })),
    postings: postings.rows.map((r) => [String(r.term), Number(r.segment), [...new Uint8Array(r.postings as ArrayBuffer)]]),
  };
}

// Terms whose order differs between UTF-16 code units (JavaScript's sort) and code points
// (SQLite's): the merge must walk the lists in the order they were written.
const VOCABULARY = ["wa", "wb", "wharbour", "t西湖边", "b西湖", "w😀", "w\uE000", "w\uFFFD", "tboa", "w'quote\"", "w\\slash", "b咖啡", "w1", "w10", "w2"];

const docArbitrary = fc.record({
  terms: fc.uniqueArray(fc.tuple(fc.constantFrom(...VOCABULARY), fc.integer({ min: 1, max: 300 })), { selector: (t) => t[0], minLength: 1, maxLength: 8 }),
  lengths: fc.tuple(fc.nat(40), fc.nat(40), fc.nat(40)),
});

/** Random segments: documents with distinct rowids (some past 2^32, interleaved across segments) and a random set deleted. */
const segmentsArbitrary = fc.array(fc.array(docArbitrary, { minLength: 1, maxLength: 12 }), { minLength: 2, maxLength: 8 }).chain((groups) => {
  const count = groups.reduce((n, g) => n + g.length, 0);
  const rowid = fc.oneof(fc.integer({ min: 1, max: 10_000 }), fc.integer({ min: 2 ** 32, max: 2 ** 32 + 10_000 }));
  return fc
    .tuple(fc.uniqueArray(rowid, { minLength: count, maxLength: count }), fc.array(fc.boolean(), { minLength: count, maxLength: count }), fc.integer({ min: 1, max: 7 }))
    .map(([rowids, coins, page]) => {
      let at = 0;
      const docs: Doc[][] = groups.map((g) => g.map((d) => ({ rowid: rowids[at++]!, terms: new Map(d.terms), lengths: { words: d.lengths[0], trigrams: d.lengths[1], bigrams: d.lengths[2] } })));
      const deleted = new Set(
        docs
          .flat()
          .filter((_, i) => coins[i])
          .map((d) => d.rowid),
      );
      return { docs, deleted, page };
    });
});

const ALL = { sql: "e.layer = 'L2'", args: [] };
const QUERY: SearchTerms = { words: ["harbour", "a", "b", "1", "😀"], trigrams: ["boa", "西湖边"], bigrams: ["西湖", "咖啡"] };

/** Documents of the words used in QUERY, for search comparisons. */
function searchable(segments: number, perSegment: number, from = 1): Doc[][] {
  return Array.from({ length: segments }, (_, s) =>
    Array.from({ length: perSegment }, (_, i) => {
      const n = from + s * perSegment + i;
      const terms = new Map<string, number>([[VOCABULARY[n % VOCABULARY.length]!, 2 + (n % 5)]]);
      terms.set(VOCABULARY[(n * 7) % VOCABULARY.length]!, 1 + (n % 3));
      terms.set(`wrare${n}`, 2);
      return { rowid: n, terms, lengths: { words: 3 + (n % 7), trigrams: n % 5, bigrams: n % 3 } };
    }),
  );
}

const stateCounts = async (client: Client) => (await client.execute("SELECT state, count(*) AS n FROM search_segments GROUP BY state ORDER BY state")).rows.map((r) => `${r.state}:${r.n}`);

describe("streaming segment merge", () => {
  test("writes exactly what the whole-in-memory merge wrote, deleted events left out, for random segments", async () => {
    await fc.assert(
      fc.asyncProperty(segmentsArbitrary, async ({ docs, deleted, page }) => {
        await using store = await openTempStore();
        const ids = await writeSegments(store.client, docs);
        if (deleted.size > 0) await store.client.execute({ sql: "DELETE FROM events WHERE rowid IN (SELECT value FROM json_each(?))", args: [JSON.stringify([...deleted])] });
        assert.equal(await mergeStaged(store.client, ids, { pageRecords: page }), true);
        const expected = wholeInMemoryMerge(docs, deleted);
        const { segments, postings } = await indexContents(store.client);
        if (!expected) {
          assert.deepEqual(segments, [], "every document deleted: no segment at all");
          assert.deepEqual(postings, []);
          return;
        }
        assert.equal(segments.length, 1, "the sources are gone, their records with them");
        const merged = segments[0]!;
        assert.equal(merged.state, "live");
        assert.equal(merged.docs, expected.docs);
        assert.deepEqual(merged.rowids, [...expected.rowids]);
        assert.deepEqual(merged.lengths, [...expected.lengths]);
        assert.deepEqual(merged.tokens, [expected.tokens.words, expected.tokens.trigrams, expected.tokens.bigrams]);
        assert.deepEqual(JSON.parse(merged.terms), expected.terms);
        const records = new Map(expected.terms.map((term, i) => [term, [...expected.postings.subarray(i === 0 ? 0 : expected.ends[i - 1], expected.ends[i])]]));
        assert.deepEqual(new Map(postings.map(([term, , bytes]) => [term as string, bytes])), records);
      }),
      { numRuns: 25 },
    );
  });

  test("term lists of several chunks: read across chunk boundaries, the merged one written in full chunks; the sources' chunks go with them", async () => {
    // Eight segments of 10 documents (level 1) with ~2,500 terms each (two chunks), some shared.
    const groups: Doc[][] = Array.from({ length: MERGE_FACTOR }, (_, s) =>
      Array.from({ length: 10 }, (_, i) => {
        const n = 1 + s * 10 + i;
        const terms = new Map<string, number>(Array.from({ length: 250 }, (_, t) => [`w${n}-${t}`, 2]));
        for (let t = 0; t < 40; t++) terms.set(`wshared${(n + t) % 60}`, 1 + (t % 3));
        return { rowid: n, terms, lengths: { words: 290, trigrams: 0, bigrams: 0 } };
      }),
    );
    const deleted = new Set([3, 17, 44]);
    const expected = wholeInMemoryMerge(groups, deleted)!;
    assert.ok(expected.terms.length > 8 * TERMS_PER_CHUNK, `${expected.terms.length} terms`);
    // In one transaction (chat turns' levels) and staged, with a page that is not a whole number of chunks.
    for (const merge of ["in transaction", "staged"] as const) {
      await using store = await openTempStore();
      const ids = await writeSegments(store.client, groups);
      const sources = await termLists(store.client);
      assert.ok(
        [...sources.values()].every((terms) => terms.length > TERMS_PER_CHUNK),
        "each source's list is in more than one chunk",
      );
      await store.client.execute({ sql: "DELETE FROM events WHERE rowid IN (SELECT value FROM json_each(?))", args: [JSON.stringify([...deleted])] });
      if (merge === "staged") assert.equal(await mergeStaged(store.client, ids, { pageRecords: 1_000 }), true);
      else assert.equal(await mergeOnce(store.client), true);
      const { segments, postings } = await indexContents(store.client);
      assert.equal(segments.length, 1, merge);
      assert.deepEqual(JSON.parse(segments[0]!.terms), expected.terms, merge);
      assert.deepEqual([...(await termLists(store.client)).keys()], [segments[0]!.id], `${merge}: whole chunks, none of the sources left`);
      assert.equal(postings.length, expected.terms.length, merge);
      assert.deepEqual(await indexOrphans(store.client), { postings: 0, termChunks: 0 }, merge);
    }
  });

  test("holds at most a page of records per source and one being written, however many terms the sources have", async () => {
    await using store = await openTempStore();
    // Three segments of 400 documents, each with terms of its own: 800+ terms a segment.
    const ids = await writeSegments(store.client, searchable(3, 400));
    const terms = Number((await store.client.execute("SELECT sum(json_array_length(terms)) AS n FROM search_segment_terms")).rows[0]!.n);
    let held = 0;
    let pages = 0;
    const pageRecords = 16;
    await mergeStaged(store.client, ids, { pageRecords, onHeld: (n) => (held = Math.max(held, n)), onPageWritten: (n) => void (pages = n) });
    assert.ok(terms > 1_200, `${terms} terms`);
    assert.ok(held <= (ids.length + 1) * pageRecords, `held ${held} records at most`);
    assert.ok(held > pageRecords, "the sources' pages are counted");
    assert.ok(pages >= 1_200 / pageRecords, `written in ${pages} pages`);
  });

  test("a merge whose sources were merged meanwhile publishes nothing and leaves no row behind; searches are unchanged", async () => {
    await using store = await openTempStore();
    const ids = await writeSegments(store.client, searchable(4, 30));
    const before = await searchEvents(store.client, QUERY, { limit: 200, filter: ALL });
    let competing: boolean | undefined;
    const published = await mergeStaged(store.client, ids, {
      pageRecords: 8,
      onPageWritten: async (page) => {
        if (page === 1) competing = await mergeStaged(store.client, ids.slice(1, 3));
      },
    });
    assert.equal(competing, true, "the competing merge of two of the sources published");
    assert.equal(published, false, "this one found a source no longer live");
    assert.deepEqual(await stateCounts(store.client), ["live:3"], "two untouched sources and the competing merge's segment; nothing staged or retired left");
    const segments = (await store.client.execute("SELECT id FROM search_segments")).rows.map((r) => Number(r.id));
    const orphans = await store.client.execute({ sql: "SELECT count(*) AS n FROM search_postings WHERE segment NOT IN (SELECT value FROM json_each(?))", args: [JSON.stringify(segments)] });
    assert.equal(Number(orphans.rows[0]!.n), 0, "no record of a dropped segment");
    assert.deepEqual(await searchEvents(store.client, QUERY, { limit: 200, filter: ALL }), before);
  });

  test("a merge killed midway (kill -9) leaves searches as they were; its leftovers are removed and the merge done again", async () => {
    await using store = await openTempStore();
    const ids = await writeSegments(store.client, searchable(3, 200));
    const before = await searchEvents(store.client, QUERY, { limit: 500, filter: ALL });
    const contents = await indexContents(store.client);
    const child = join(store.dir, "killed-merge.ts");
    const search = fileURLToPath(new URL("../../src/search/index.ts", import.meta.url));
    const storeIndex = fileURLToPath(new URL("../../src/store/index.ts", import.meta.url));
    writeFileSync(
      child,
      `import { mergeStaged } from ${JSON.stringify(search)};
       import { openStore } from ${JSON.stringify(storeIndex)};
       const store = await openStore({ url: ${JSON.stringify(`file:${join(store.dir, "homed.db")}`)} });
       await mergeStaged(store.client, ${JSON.stringify(ids)}, { pageRecords: 10, onPageWritten: (page) => { if (page === 5) process.kill(process.pid, "SIGKILL"); } });`,
    );
    // Under the runtime running the tests, as it runs homed (Deno needs its config for npm imports).
    const [command, ...args] = scriptCommand(child);
    const run = spawnSync(command!, args, { encoding: "utf8" });
    assert.equal(run.signal, "SIGKILL", run.stderr);
    const states = await stateCounts(store.client);
    assert.equal(states.length, 2, `a merging segment is left: ${states}`);
    assert.ok(states[1]!.startsWith("merging:") && states[0] === "live:3");
    assert.deepEqual(await searchEvents(store.client, QUERY, { limit: 500, filter: ALL }), before, "searches do not see it");
    assert.equal(await cleanAbandonedMerges(store.client), 1);
    assert.deepEqual(await indexContents(store.client), contents, "the index is exactly as before the merge");
    assert.deepEqual(await indexOrphans(store.client), { postings: 0, termChunks: 0 }, "nothing of the killed merge's segment is left");
    await mergeInBackground(store.client);
    assert.deepEqual(await stateCounts(store.client), ["live:3"], "three segments of one level are not a full level: left as they are");
    assert.equal(await mergeStaged(store.client, ids), true);
    assert.deepEqual(await stateCounts(store.client), ["live:1"]);
    assert.deepEqual(await searchEvents(store.client, QUERY, { limit: 500, filter: ALL }), before, "the same results, the same scores");
  });

  test("after writes, full levels of large segments are merged in the background, staged; searches are unchanged", async () => {
    await using store = await openTempStore();
    // Eight segments of 512 documents: level 3, merged staged.
    await writeSegments(store.client, searchable(8, 512));
    const levels = await store.client.execute("SELECT DISTINCT level FROM search_segments");
    assert.deepEqual(
      levels.rows.map((r) => Number(r.level)),
      [STAGED_FROM_LEVEL],
    );
    const before = await searchEvents(store.client, QUERY, { limit: 1_000, filter: ALL });
    await mergeInBackground(store.client);
    const after = await store.client.execute("SELECT state, level, docs FROM search_segments");
    assert.deepEqual(
      after.rows.map((r) => [r.state, Number(r.level), Number(r.docs)]),
      [["live", STAGED_FROM_LEVEL + 1, 8 * 512]],
    );
    assert.deepEqual(await searchEvents(store.client, QUERY, { limit: 1_000, filter: ALL }), before);
    // The merged segment's documents decode to the sources' rowids, in order.
    const row = await store.client.execute("SELECT docs, rowids, lengths FROM search_segments");
    const docs = decodeSegmentDocs(Number(row.rows[0]!.docs), new Uint8Array(row.rows[0]!.rowids as ArrayBuffer), new Uint8Array(row.rows[0]!.lengths as ArrayBuffer));
    assert.deepEqual(
      [...docs.rowids],
      Array.from({ length: 8 * 512 }, (_, i) => i + 1),
    );
    for (const channel of INDEX_CHANNELS) assert.ok(docs.present[channel] > 0);
    let count = 0;
    const rare = await store.client.execute("SELECT postings FROM search_postings WHERE term = 'wrare77'");
    forEachPosting(new Uint8Array(rare.rows[0]!.postings as ArrayBuffer), (ordinal) => {
      count++;
      assert.equal(ordinal, 76);
    });
    assert.equal(count, 1);
  });

  test("segments an older import marked level 4 are merged once, into level 5, and not again", async () => {
    await using store = await openTempStore();
    await writeSegments(store.client, searchable(MERGE_FACTOR + 1, 20));
    await store.client.execute("UPDATE search_segments SET level = 4");
    await mergeInBackground(store.client);
    const after = await store.client.execute("SELECT level, docs FROM search_segments ORDER BY id");
    assert.deepEqual(
      after.rows.map((r) => [Number(r.level), Number(r.docs)]),
      [
        [4, 20],
        [MAX_MERGE_LEVEL, MERGE_FACTOR * 20],
      ],
      "one above its sources (160 documents are level 2 by their count): never merged with the ninth",
    );
  });

  test("what killed merges left is removed by the daemon's merge job, at its start — not by the merge after each turn's write", async () => {
    await using store = await openTempStore();
    // A segment a killed purge left retired (a process killed between publishing and purging).
    const [left] = await writeSegments(store.client, searchable(1, 5));
    await store.client.execute({ sql: "UPDATE search_segments SET state = 'retired' WHERE id = ?", args: [left!] });
    await writeL1Event(store.client, {
      sessionId: "s",
      conversation: "c",
      embedder: createFallbackEmbedder(),
      event: { id: "turn-1", time: new Date(0).toISOString(), messages: [{ role: "user", content: "the harbour boat" }] },
    });
    // The write's merge (this joins it while it runs, or runs as it would).
    await mergeInBackground(store.client);
    assert.deepEqual(await stateCounts(store.client), ["live:1", "retired:1"], "a turn's write leaves it");
    const job = startMergeJob(store.client);
    try {
      await mergeInBackground(store.client); // the job's first run, started at once
      assert.deepEqual(await stateCounts(store.client), ["live:1"], "the job's start removes it");
      assert.deepEqual(await indexOrphans(store.client), { postings: 0, termChunks: 0 });
    } finally {
      job.stop();
    }
  });
});

/**
 * Migration 0023 on a store written before it: search segments whose term lists are in their rows
 * (as homed up to 0022 wrote them) upgrade in place at the first open — the lists move to
 * search_segment_terms, whole and in their order (src/search/term-lists-upgrade.ts), the column
 * goes, and recall, a merge and a delete work on them as on a new store's.
 */
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { join } from "node:path";
import { createClient, type Client } from "@libsql/client";
import { coldcontextQuery, importHistory } from "../../src/memory/index.ts";
import { mergeStaged, moveTermListsOutOfRows } from "../../src/search/index.ts";
import { deleteSegments } from "../../src/search/segments.ts";
import { TERMS_PER_CHUNK } from "../../src/search/segment-terms.ts";
import { MIGRATIONS, migrate, openStore } from "../../src/store/index.ts";
import { message } from "../memory/fixture.ts";
import { indexOrphans, termLists } from "../search/index-orphans.ts";
import { tempDir } from "../support/temp-dir.ts";

const MESSAGES = 4_096;
const PROBES = [0, 511, 512, 2_047, 4_095];
const text = (i: number) => `order zq${i * 7919}x ships from 仓库${i}号 with parcel ${(i * 104_729).toString(36)}, "fast" \\ 😀 \u{E000}${i % 13}`;

/** What recall finds for each probe's own word: the source ids, in order. */
async function recalled(client: Client): Promise<string[][]> {
  const found: string[][] = [];
  for (const i of PROBES) found.push((await coldcontextQuery(client, `zq${i * 7919}x`, { k: 3, channels: ["words", "grams"] })).flatMap((r) => r.sources));
  return found;
}

const columnsOf = async (client: Client, table: string) => (await client.execute(`PRAGMA table_info(${table})`)).rows.map((r) => String(r.name));

describe("migration 0023: segments' term lists out of their rows", () => {
  test("a store written before it upgrades in place: the same lists, the same recall; a merge and a delete work", async () => {
    using dir = tempDir("homed-0023-");
    // The index as homed writes it today: import segments of up to 512 messages (level 3: left unmerged by the import).
    const current = await openStore({ url: `file:${join(dir.path, "current.db")}` });
    const batch = Array.from({ length: MESSAGES }, (_, i) => message(text(i), { session: `s${i % 7}`, sourceId: `m${i}` }));
    await importHistory(current.client, batch, { segmentLimits: { docs: 512, bytes: 2 ** 30 } });
    const lists = await termLists(current.client);
    assert.ok(lists.size >= 4, `${lists.size} segments`);
    assert.ok([...lists.values()].filter((terms) => terms.length > 2 * TERMS_PER_CHUNK).length >= 3, "lists of several chunks");
    const expected = await recalled(current.client);
    assert.deepEqual(
      expected.map((sources) => sources[0]),
      PROBES.map((i) => `m${i}`),
    );
    current.close();

    // The same rows at migration 0022, each segment's list in its row as the writer then wrote it (JSON of its sorted terms).
    const url = `file:${join(dir.path, "old.db")}`;
    const old = createClient({ url });
    const before = MIGRATIONS.findIndex((m) => m.tag.startsWith("0023"));
    await migrate(old, MIGRATIONS.slice(0, before));
    assert.ok((await columnsOf(old, "search_segments")).includes("terms"));
    // (A store at 0022 had its FTS5 tables of events read into segments and dropped at its first start after 0018.)
    for (const table of ["memory_words", "memory_grams", "memory_bigrams"]) await old.execute(`DROP TABLE IF EXISTS ${table}`);
    await old.execute({ sql: "ATTACH DATABASE ? AS current", args: [join(dir.path, "current.db")] });
    const events = (await columnsOf(old, "events")).join(", ");
    await old.execute(`INSERT INTO events (rowid, ${events}) SELECT rowid, ${events} FROM current.events`);
    await old.execute("INSERT INTO search_postings (term, segment, postings) SELECT term, segment, postings FROM current.search_postings");
    for (const [id, terms] of lists) {
      await old.execute({
        sql: `INSERT INTO search_segments (id, state, import_run, level, docs, tokens_words, tokens_trigrams, tokens_bigrams, rowids, lengths, terms)
              SELECT id, state, import_run, level, docs, tokens_words, tokens_trigrams, tokens_bigrams, rowids, lengths, ? FROM current.search_segments WHERE id = ?`,
        args: [JSON.stringify(terms), id],
      });
    }
    await old.execute("DETACH DATABASE current");
    old.close();

    const notices: string[] = [];
    const store = await openStore({ url, notice: (line) => notices.push(line) });
    try {
      assert.match(notices.join("\n"), new RegExp(`${lists.size} segments' term lists moved`));
      assert.equal(await moveTermListsOutOfRows(store.client), 0, "done once");
      assert.ok(!(await columnsOf(store.client, "search_segments")).includes("terms"), "the column is dropped");
      assert.deepEqual(await termLists(store.client), lists, "every list whole, in full chunks");
      assert.deepEqual(await recalled(store.client), expected);
      // A merge reads the moved lists: the segments become one, recall unchanged.
      assert.equal(await mergeStaged(store.client, [...lists.keys()]), true);
      const merged = await termLists(store.client);
      assert.equal(merged.size, 1);
      assert.equal([...merged.values()][0]!.length, new Set([...lists.values()].flat()).size, "every term of the sources");
      assert.deepEqual(await indexOrphans(store.client), { postings: 0, termChunks: 0 }, "the sources' records and lists are gone");
      assert.deepEqual(await recalled(store.client), expected);
      // A delete finds every record by the list.
      const tx = await store.client.transaction("write");
      await deleteSegments(tx, [...merged.keys()]);
      await tx.commit();
      const left = await store.client.execute("SELECT (SELECT count(*) FROM search_postings) + (SELECT count(*) FROM search_segment_terms) + (SELECT count(*) FROM search_segments) AS n");
      assert.equal(Number(left.rows[0]!.n), 0);
      assert.deepEqual(
        await recalled(store.client),
        PROBES.map(() => []),
      );
    } finally {
      store.close();
    }
  });
});

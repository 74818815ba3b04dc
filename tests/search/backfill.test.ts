/**
 * Upgrading a store indexed by FTS5 (before migration 0018): its first start reads the event
 * search rows into search segments and drops the FTS5 tables; recall finds what it found before.
 */
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { join } from "node:path";
import { createClient } from "@libsql/client";
import { migrate, MIGRATIONS, openStore } from "../../src/store/index.ts";
import { searchEvents } from "../../src/search/index.ts";
import { tempDir } from "../support/temp-dir.ts";

describe("search index upgrade from FTS5", () => {
  test("the first start moves every event's search rows into segments and drops the FTS5 tables", async () => {
    using tmp = tempDir("homed-backfill-");
    const url = `file:${join(tmp.path, "homed.db")}`;
    const client = createClient({ url });
    await migrate(
      client,
      MIGRATIONS.filter((m) => m.idx < 18),
    );
    const rows = [
      ["e1", "c1", "Ann: the boat is in the harbour", "the boat is in the harbour", "ann boat harbour", "", ""],
      ["e2", "c1", "Bob: see you there", "see you there", "bob see", "ann boat harbour", "the boat is in the harbour"],
      ["e3", "c2", "Ann: 我们去西湖", "我们去西湖", "ann 我们 去 西湖", "", ""],
    ] as const;
    for (const [id, conversation, own, text, words, contextWords, contextText] of rows) {
      const event = await client.execute({
        sql: "INSERT INTO events (id, session_id, conversation, layer, seq, time, messages, text, tokens, created_at) VALUES (?, 's', ?, 'L2', 0, 0, '[]', ?, 1, 0)",
        args: [id, conversation, text],
      });
      const rowid = Number(event.lastInsertRowid);
      // As the FTS5 writer before 0018 wrote them (search-index.ts then).
      await client.execute({ sql: "INSERT INTO memory_words (rowid, doc_id, kind, scope_key, words, context) VALUES (?, ?, 'event', 'k', ?, ?)", args: [rowid, id, words, contextWords] });
      await client.execute({ sql: "INSERT INTO memory_grams (rowid, doc_id, kind, scope_key, text, context) VALUES (?, ?, 'event', 'k', ?, ?)", args: [rowid, id, own, contextText] });
      if (id === "e3")
        await client.execute({ sql: "INSERT INTO memory_bigrams (rowid, doc_id, kind, scope_key, grams, context) VALUES (?, ?, 'event', 'k', '我们 们去 去西 西湖', '')", args: [rowid, id] });
    }
    // A row an abandoned import staged: its event never became visible.
    await client.execute("INSERT INTO memory_words (rowid, doc_id, kind, scope_key, words, context) VALUES (4294967296, 'ghost', 'event', 'k', 'harbour', '')");
    client.close();

    const notices: string[] = [];
    const store = await openStore({ url, notice: (line) => notices.push(line) });
    try {
      assert.match(notices.join("\n"), /search index: 3 of 3 memories moved from FTS5/);
      const tables = await store.client.execute("SELECT name FROM sqlite_master WHERE name LIKE 'memory_%'");
      assert.deepEqual(tables.rows, [], "the FTS5 tables of events are gone");
      const all = { sql: "e.layer = 'L2'", args: [] };
      const byWord = await searchEvents(store.client, { words: ["harbour"], trigrams: [], bigrams: [] }, { limit: 5, filter: all });
      assert.deepEqual(
        byWord.words.map((r) => r.id),
        ["e1", "e2"],
        "own text above the neighbour that carries it; the ghost row not indexed",
      );
      const byGram = await searchEvents(store.client, { words: [], trigrams: ["har"], bigrams: ["西湖"] }, { limit: 5, filter: all });
      assert.deepEqual(byGram.grams.map((r) => r.id).sort(), ["e1", "e2", "e3"]);
    } finally {
      store.close();
    }
    const again: string[] = [];
    (await openStore({ url, notice: (line) => again.push(line) })).close();
    assert.deepEqual(again, [], "done once");
  });
});

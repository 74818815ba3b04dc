import { afterEach, beforeEach, describe, test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { createClient } from "@libsql/client";
import { MIGRATIONS, migrate, migrationStatus, openStore, SchemaMismatchError } from "../../src/store/index.ts";
import { renderMigrationIndex } from "../../scripts/gen-migrations.ts";
import { ROOT } from "../support/process.ts";
import { tempDir, type TempDir } from "../support/temp-dir.ts";

let dir: string;
let url: string;
let temp: TempDir;
beforeEach(() => {
  temp = tempDir("homed-store-");
  dir = temp.path;
  url = `file:${join(dir, "homed.db")}`;
});
afterEach(() => temp.remove());

describe("migrations", () => {
  test("a fresh database gets every migration, and a second run applies none", async () => {
    const store = await openStore({ url });
    const status = await migrationStatus(store.client);
    assert.deepEqual(status, { applied: MIGRATIONS.length, pending: 0, known: MIGRATIONS.length });
    assert.equal(await migrate(store.client), 0);
    const tables = await store.client.execute("SELECT name FROM sqlite_master WHERE type IN ('table', 'index')");
    const names = tables.rows.map((r) => String(r.name));
    for (const expected of [
      "events",
      "blocks",
      "triples",
      "triple_revisions",
      "scenes",
      "injection_audit",
      "settings",
      "secrets",
      "search_segments",
      "search_postings",
      "fact_words",
      "vector_spaces",
    ]) {
      assert.ok(names.includes(expected), `missing ${expected}`);
    }
    assert.ok(!names.includes("memory_words"), "events are searched through search segments, not FTS5");
    store.close();
  });

  test("the embedded database runs in WAL mode", async () => {
    const store = await openStore({ url });
    const mode = await store.client.execute("PRAGMA journal_mode");
    assert.equal(String(mode.rows[0]?.[0]).toLowerCase(), "wal");
    store.close();
  });

  test("a database written by a newer schema is refused and left byte-for-byte unchanged", async () => {
    const store = await openStore({ url });
    await store.client.execute("INSERT INTO homed_migrations (idx, tag, hash, applied_at) VALUES (999, '0999_future', 'x', 0)");
    await store.client.execute("PRAGMA wal_checkpoint(TRUNCATE)");
    store.close();
    const before = readFileSync(join(dir, "homed.db"));
    await assert.rejects(openStore({ url }), (e: Error) => e instanceof SchemaMismatchError && /newer homed/.test(e.message) && /0999_future/.test(e.message));
    const raw = createClient({ url });
    await raw.execute("PRAGMA wal_checkpoint(TRUNCATE)");
    raw.close();
    assert.deepEqual(readFileSync(join(dir, "homed.db")), before);
  });

  test("a migration recorded with different SQL is refused", async () => {
    const store = await openStore({ url });
    await store.client.execute("UPDATE homed_migrations SET hash = 'tampered' WHERE idx = 0");
    store.close();
    await assert.rejects(openStore({ url }), /differs from this binary/);
  });

  test("pending migrations are applied in order on top of older ones", async () => {
    const client = createClient({ url });
    await migrate(client, MIGRATIONS.slice(0, 1));
    assert.deepEqual(await migrationStatus(client), { applied: 1, pending: MIGRATIONS.length - 1, known: MIGRATIONS.length });
    assert.equal(await migrate(client), MIGRATIONS.length - 1);
    client.close();
  });

  test("the embedded migration index matches drizzle-kit's journal", () => {
    const onDisk = readFileSync(join(ROOT, "src/store/migrations/index.ts"), "utf8");
    assert.equal(onDisk, renderMigrationIndex(), "run `make migrations` to regenerate src/store/migrations/index.ts");
  });
});

describe("schema rules", () => {
  const insertEvent = (store: Awaited<ReturnType<typeof openStore>>, id: string) =>
    store.client.execute({
      sql: "INSERT INTO events (id, session_id, conversation, layer, seq, time, messages, text, tokens, created_at) VALUES (?, 's', 'c', 'L1', 0, 0, '[]', 'hi', 1, 0)",
      args: [id],
    });

  test("a block has exactly one holder: NULL or an unknown layer is rejected", async () => {
    const store = await openStore({ url });
    await insertEvent(store, "e1");
    const add = (holder: string | null) =>
      store.client.execute({
        sql: "INSERT INTO blocks (id, event_id, kind, holder, created_at) VALUES (?, 'e1', 'text', ?, 0)",
        args: [`b-${holder}`, holder],
      });
    await add("L1");
    await assert.rejects(add(null), /NOT NULL/);
    await assert.rejects(add("L4"), /CHECK/);
    store.close();
  });

  test("an imported message id is unique per conversation", async () => {
    const store = await openStore({ url });
    const add = (id: string, conversation: string) =>
      store.client.execute({
        sql: "INSERT INTO events (id, session_id, conversation, layer, seq, time, source_id, messages, text, tokens, created_at) VALUES (?, 's', ?, 'L2', 0, 0, 'D1:1', '[]', 'x', 1, 0)",
        args: [id, conversation],
      });
    await add("a", "conv-1");
    await add("b", "conv-2");
    await assert.rejects(add("c", "conv-1"), /UNIQUE/);
    store.close();
  });
});

describe("migration 0006: scope keys in the search tables", () => {
  test("rows written before it get their scope key, the same the writer computes", async () => {
    const { conversationScopeKey, USER_SCOPE_KEY } = await import("../../src/search/index.ts");
    const client = createClient({ url });
    const before = MIGRATIONS.findIndex((m) => m.tag.startsWith("0006"));
    await migrate(client, MIGRATIONS.slice(0, before));
    for (const [id, conversation, scope] of [
      ["e1", "会话-1", "conversation"],
      ["e2", "other", "conversation"],
      ["e3", "会话-1", "user"],
    ] as const) {
      await client.execute({
        sql: "INSERT INTO events (id, session_id, conversation, scope, layer, seq, time, messages, text, tokens, created_at) VALUES (?, 's', ?, ?, 'L2', 0, 0, '[]', 'harbour', 1, 0)",
        args: [id, conversation, scope],
      });
      await client.execute({ sql: "INSERT INTO memory_words (doc_id, kind, words) VALUES (?, 'event', 'harbour')", args: [id] });
    }
    await migrate(client);
    const keys = await client.execute("SELECT doc_id, scope_key FROM memory_words ORDER BY doc_id");
    assert.deepEqual(
      keys.rows.map((r) => [r.doc_id, r.scope_key]),
      [
        ["e1", conversationScopeKey("会话-1")],
        ["e2", conversationScopeKey("other")],
        ["e3", USER_SCOPE_KEY],
      ],
    );
    const rowids = await client.execute("SELECT count(*) AS n FROM memory_words f JOIN events e ON e.rowid = f.rowid AND e.id = f.doc_id");
    assert.equal(Number(rowids.rows[0]!.n), 3, "each search row's rowid is its event's rowid");
    // (memory_words is read into search segments and dropped at the first start after 0018.)
    const match = `scope_key : ("${conversationScopeKey("会话-1")}" OR "${USER_SCOPE_KEY}") AND {words context} : ("harbour")`;
    const scoped = await client.execute({ sql: "SELECT doc_id FROM memory_words WHERE memory_words MATCH ? ORDER BY doc_id", args: [match] });
    assert.deepEqual(
      scoped.rows.map((r) => r.doc_id),
      ["e1", "e3"],
    );
    client.close();
  });
});

describe("migration 0010: facts' own search tables, a context column", () => {
  test("facts' rows move to the fact tables; messages' rows stay and rank as before; each table ranks as bm25Of", async () => {
    const { CONTEXT_WEIGHT, SEARCH_TABLES } = await import("../../src/search/index.ts");
    // The messages' tables as 0010 left them (read into search segments and dropped after 0018).
    const tables = { event: ["memory_words", "memory_grams", "memory_bigrams"], triple: Object.values(SEARCH_TABLES.triple) };
    const columns: Record<string, string> = { memory_words: "words", memory_grams: "text", memory_bigrams: "grams", fact_words: "words", fact_grams: "text", fact_bigrams: "grams" };
    const client = createClient({ url });
    const before = MIGRATIONS.findIndex((m) => m.tag.startsWith("0010"));
    await migrate(client, MIGRATIONS.slice(0, before));
    await client.execute("PRAGMA foreign_keys = OFF");
    await client.execute("INSERT INTO events (id, session_id, conversation, layer, seq, time, messages, text, tokens, created_at) VALUES ('e1', 's', 'c', 'L2', 0, 0, '[]', 'harbour', 1, 0)");
    await client.execute(`INSERT INTO triples (id, subject_block_id, predicate, object_block_id, kind, scope, confidence, importance, evidence, created_at, updated_at)
                          VALUES ('t1', 'b1', 'likes', 'b2', 'preference', 'c', 1, 0.5, 'said', 0, 0)`);
    // As the writer before 0010 keyed them: an event's rowid, minus a triple's.
    for (const [table, column] of [
      ["memory_words", "words"],
      ["memory_grams", "text"],
      ["memory_bigrams", "grams"],
    ] as const) {
      await client.execute(`INSERT INTO ${table} (rowid, doc_id, kind, scope_key, ${column}) VALUES ((SELECT rowid FROM events WHERE id = 'e1'), 'e1', 'event', 'k', 'harbour 海港')`);
      await client.execute(`INSERT INTO ${table} (rowid, doc_id, kind, scope_key, ${column}) VALUES (-(SELECT rowid FROM triples WHERE id = 't1'), 't1', 'triple', 'k', 'harbour 海港')`);
    }
    await migrate(client);
    for (const kind of ["event", "triple"] as const) {
      for (const table of tables[kind]) {
        const rows = await client.execute(`SELECT f.rowid, f.doc_id FROM ${table} f`);
        const own = await client.execute(`SELECT rowid FROM ${kind === "event" ? "events" : "triples"} WHERE id = '${kind === "event" ? "e1" : "t1"}'`);
        assert.deepEqual(
          rows.rows.map((r) => [Number(r.rowid), r.doc_id]),
          [[Number(own.rows[0]!.rowid), kind === "event" ? "e1" : "t1"]],
          table,
        );
        const term = table.endsWith("bigrams") ? "海港" : table.endsWith("grams") ? "arb" : "harbour";
        const found = await client.execute({ sql: `SELECT doc_id FROM ${table} WHERE ${table} MATCH ?`, args: [`{${columns[table]} context} : ("${term}")`] });
        assert.equal(found.rows.length, 1, `${table} finds its row`);
        const rank = await client.execute(`SELECT v FROM ${table}_config WHERE k = 'rank'`);
        assert.equal(rank.rows[0]?.v, `bm25(0, 0, 0, 1, ${CONTEXT_WEIGHT})`, `${table}: ORDER BY rank must rank as bm25Of`);
      }
    }
    client.close();
  });
});

/**
 * Recall's reads must stay lookups as the store grows: a plan that walks every cold event or
 * block is invisible at test sizes and costs seconds at a million messages. Each statement a
 * recall runs is recorded and explained; none may scan the events or blocks tables.
 */
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import type { Client, InStatement, Transaction } from "@libsql/client";
import { buildInjection, coldcontextQuery, coldcontextRecall, DEFAULT_INJECTION, stableQuery, writeFact } from "../../src/memory/index.ts";
import { moveEventToL3 } from "../../src/store/index.ts";
import { SEARCH_TABLES } from "../../src/search/index.ts";

/** The messages' search index (src/search/segments.ts). */
const EVENT_INDEX = ["search_segments", "search_postings"];
import { message, openTempStore, phraseEmbedder, seed } from "./fixture.ts";

/** A client (or transaction) that records every statement it runs (alone, in a batch or in a transaction it opens). */
function recording<C extends Client | Transaction>(client: C, statements: InStatement[] = []): { client: C; statements: InStatement[] } {
  const proxy = new Proxy(client, {
    get(target, key) {
      if (key === "execute") return (stmt: InStatement) => (statements.push(stmt), target.execute(stmt));
      if (key === "batch") return (stmts: InStatement[], mode?: "read") => (statements.push(...stmts), (target as Client).batch(stmts, mode));
      if (key === "transaction") return async (mode?: "write") => recording(await (target as Client).transaction(mode), statements).client;
      const value = Reflect.get(target, key) as unknown;
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
  return { client: proxy, statements };
}

describe("recall query plans", () => {
  for (const conversation of [undefined, "conv-a"]) {
    test(`no statement of a ${conversation ? "scoped" : "store-wide"} recall over all three channels scans events or blocks`, async () => {
      await using store = await openTempStore();
      const embedder = phraseEmbedder({ garden: 1 });
      // Ten results to read back: with one or two ids SQLite looks them up by key whatever the SQL.
      const gardens = Array.from({ length: 12 }, (_, i) => message(`the garden on day ${i}`));
      await seed(store, [message("the garden in spring", { images: ["file:///photos/garden.jpg"] }), ...gardens, message("another cold memory")], embedder);
      const { client, statements } = recording(store.client);
      const found = await coldcontextQuery(client, "garden", { k: 10, embedder, conversation, exactScanLimit: 0 });
      assert.equal(found.length, 10);
      assert.ok(statements.length >= 4, `recorded ${statements.length} statements`);
      for (const stmt of statements) {
        const { sql, args } = typeof stmt === "string" ? { sql: stmt, args: [] } : stmt;
        const plan = await store.client.execute({ sql: `EXPLAIN QUERY PLAN ${sql}`, args: args as never });
        const scans = plan.rows.map((r) => String(r.detail)).filter((d) => /^SCAN (e|b|events|blocks)\b/.test(d) || /USING (COVERING )?INDEX events_layer_time/.test(d));
        assert.deepEqual(scans, [], `${sql}\n${plan.rows.map((r) => r.detail).join("\n")}`);
        // Postings are read by term (their primary key), never by walking the table.
        const walks = plan.rows.map((r) => String(r.detail)).filter((d) => /^SCAN search_postings\b/.test(d));
        assert.deepEqual(walks, [], `${sql}\n${plan.rows.map((r) => r.detail).join("\n")}`);
      }
    });
  }

  /** The plan's lines that scan a table (lookups by key are SEARCH, not SCAN). */
  async function scansOf(client: Client, stmt: InStatement): Promise<string[]> {
    const { sql, args } = typeof stmt === "string" ? { sql: stmt, args: [] } : stmt;
    const plan = await client.execute({ sql: `EXPLAIN QUERY PLAN ${sql}`, args: args as never });
    return plan.rows.map((r) => String(r.detail)).filter((d) => d.startsWith("SCAN "));
  }
  const sqlOf = (stmt: InStatement) => (typeof stmt === "string" ? stmt : stmt.sql);
  const named = (stmts: InStatement[], tables: readonly string[]) => stmts.flatMap((s) => tables.filter((t) => new RegExp(`\\b${t}\\b`).test(sqlOf(s))));

  for (const conversation of [undefined, "conv-a"]) {
    test(`a ${conversation ? "scoped" : "store-wide"} facts query reads only the facts' search tables, and cold recall only the messages'`, async () => {
      await using store = await openTempStore();
      await seed(
        store,
        Array.from({ length: 12 }, (_, i) => message(`the garden on day ${i}`)),
      );
      const tx = await store.client.transaction("write");
      await writeFact(tx, { subject: "Ann", predicate: "tends", object: "a garden", kind: "preference", scope: "conv-a", confidence: 1, importance: 0.5, evidence: "manual" });
      await tx.commit();
      const facts = recording(store.client);
      const found = await stableQuery(facts.client, "garden", { k: 10, conversation });
      assert.deepEqual(
        found.map((f) => f.text),
        ["Ann tends a garden"],
      );
      assert.deepEqual(named(facts.statements, EVENT_INDEX), [], "a facts query names no message search table");
      assert.ok(named(facts.statements, Object.values(SEARCH_TABLES.triple)).length >= 2);
      for (const stmt of facts.statements) {
        // Only the facts' own FTS table is scanned (as a virtual table); triples and blocks by key.
        for (const scan of await scansOf(store.client, stmt)) assert.match(scan, /^SCAN f VIRTUAL TABLE/, `${sqlOf(stmt)}: ${scan}`);
      }
      const cold = recording(store.client);
      assert.equal((await coldcontextQuery(cold.client, "garden", { k: 20, conversation, channels: ["words", "grams"] })).length, 12);
      assert.deepEqual(named(cold.statements, Object.values(SEARCH_TABLES.triple)), [], "cold recall names no fact search table");
      assert.ok(named(cold.statements, EVENT_INDEX).length >= 2, "cold recall reads the message index");
      if (conversation) {
        // Scoped: the conversation's events are listed first (by its index), and only they are
        // scored — another conversation's rows never are.
        const listed = cold.statements.filter((s) => /WHERE conversation = \?/.test(sqlOf(s)) && JSON.stringify((s as { args: unknown[] }).args).includes(conversation));
        assert.equal(listed.length, 1, cold.statements.map(sqlOf).join("\n"));
      }
    });
  }
  test("a chat turn's whole injection (cold and facts recall, standing cold events) walks no table of events", async () => {
    await using store = await openTempStore();
    await seed(
      store,
      Array.from({ length: 12 }, (_, i) => message(`the garden on day ${i}`)),
    );
    await store.client.execute("UPDATE events SET access_count = 5 WHERE rowid % 3 = 0");
    const { client, statements } = recording(store.client);
    const injection = await buildInjection(client, "what did we plant in the garden last spring?", { viewer: { partner: "Ann" }, prefer: "conv-a", config: DEFAULT_INJECTION });
    assert.ok(injection.lines.length > 0);
    for (const stmt of statements) {
      const { sql, args } = typeof stmt === "string" ? { sql: stmt, args: [] } : stmt;
      const plan = await store.client.execute({ sql: `EXPLAIN QUERY PLAN ${sql}`, args: args as never });
      const walks = plan.rows.map((r) => String(r.detail)).filter((d) => /^SCAN (e|events)\b/.test(d) || /USING (COVERING )?INDEX events_layer_time/.test(d));
      assert.deepEqual(walks, [], `${sql}\n${plan.rows.map((r) => r.detail).join("\n")}`);
    }
  });

  test("a short input's recent cold events, in a chat whose conversation has none, walk no table of events", async () => {
    await using store = await openTempStore();
    await seed(
      store,
      Array.from({ length: 12 }, (_, i) => message(`the garden on day ${i}`)),
    );
    const { client, statements } = recording(store.client);
    // A new partner's first "ok": nothing of its conversation, nothing user-wide, to inject.
    const injection = await buildInjection(client, "ok", { viewer: { partner: "Zed" }, prefer: "conv-new", config: DEFAULT_INJECTION });
    assert.equal(injection.lines.length, 0);
    for (const stmt of statements.filter((s) => /\bevents\b/.test(sqlOf(s)))) {
      const { sql, args } = typeof stmt === "string" ? { sql: stmt, args: [] } : stmt;
      const plan = (await store.client.execute({ sql: `EXPLAIN QUERY PLAN ${sql}`, args: args as never })).rows.map((r) => String(r.detail));
      // By the layer's time index SQLite read every cold event, newest first, looking for the conversation's.
      const walks = plan.filter((d) => /^SCAN (e|events)\b/.test(d) || /USING (COVERING )?INDEX events_layer_time/.test(d));
      assert.deepEqual(walks, [], `${sql}\n${plan.join("\n")}`);
    }
  });

  test("moving cold events between layers (recall into L1, cooling into L3) finds their blocks by event, never by walking a layer's blocks", async () => {
    await using store = await openTempStore();
    await seed(
      store,
      Array.from({ length: 12 }, (_, i) => message(`the garden on day ${i}`)),
    );
    const ids = (await store.client.execute("SELECT id FROM events ORDER BY rowid LIMIT 3")).rows.map((r) => String(r.id));
    const recalled = recording(store.client);
    assert.equal((await coldcontextRecall(recalled.client, ids.slice(0, 2))).length, 2);
    const tx = await store.client.transaction("write");
    const cooled = recording(tx);
    assert.equal(await moveEventToL3(cooled.client, ids[2]!, 2), true);
    await tx.commit();
    const statements = [...recalled.statements, ...cooled.statements].filter((s) => /\bblocks\b/.test(sqlOf(s)));
    assert.equal(statements.length, 2);
    for (const stmt of statements) {
      const { sql, args } = typeof stmt === "string" ? { sql: stmt, args: [] } : stmt;
      const plan = (await store.client.execute({ sql: `EXPLAIN QUERY PLAN ${sql}`, args: args as never })).rows.map((r) => String(r.detail));
      // By the holder index SQLite read every block of the layer (13.2 vs 3.6 ms an update at 100k messages).
      assert.deepEqual(
        plan.filter((d) => !/^SEARCH blocks USING INDEX blocks_event \(event_id=\?\)$/.test(d)),
        [],
        sql,
      );
    }
  });
});

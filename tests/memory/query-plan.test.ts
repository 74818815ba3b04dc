/**
 * Recall's reads must stay lookups as the store grows: a plan that walks every cold event or
 * block is invisible at test sizes and costs seconds at a million messages. Each statement a
 * recall runs is recorded and explained; none may scan the events or blocks tables.
 */
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import type { Client, InStatement } from "@libsql/client";
import { coldcontextQuery } from "../../src/memory/index.ts";
import { message, openTempStore, phraseEmbedder, seed } from "./fixture.ts";

/** A client that records every statement it runs. */
function recording(client: Client): { client: Client; statements: InStatement[] } {
  const statements: InStatement[] = [];
  const proxy = new Proxy(client, {
    get(target, key) {
      if (key === "execute") return (stmt: InStatement) => (statements.push(stmt), target.execute(stmt));
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
      }
    });
  }
});

/**
 * Recall's reads must stay lookups as the store grows: a plan that walks every cold event is
 * invisible at test sizes and costs seconds at a million messages.
 */
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { candidateRowsSql } from "../../src/memory/query.ts";
import { message, openTempStore, seed } from "./fixture.ts";

describe("recall query plans", () => {
  test("the fused top results are read by primary key, not by walking a layer index", async () => {
    await using store = await openTempStore();
    await seed(store, [message("a cold memory"), message("another cold memory")]);
    const plan = await store.client.execute({ sql: `EXPLAIN QUERY PLAN ${candidateRowsSql(3)}`, args: ["a", "b", "c"] });
    const details = plan.rows.map((r) => String(r.detail));
    assert.equal(details.length, 1, details.join("\n"));
    assert.match(details[0]!, /USING INDEX sqlite_autoindex_events_1 \(id=\?\)/);
  });
});

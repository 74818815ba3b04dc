/**
 * Rows as one JSON value (src/search/json-rows.ts), on a real libSQL file: tuples in order, blobs
 * through hex() back to the same bytes — in arrays of their own, as the postings cache keeps them —
 * and an empty result as no rows.
 */
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import { fromHex, jsonRows } from "../../src/search/json-rows.ts";
import { openTempStore } from "../memory/fixture.ts";

describe("rows as one JSON value", () => {
  test("tuples come back in order, blobs byte for byte; no row is no tuple", async () => {
    await using store = await openTempStore();
    await store.client.execute("CREATE TABLE blobs (n INTEGER PRIMARY KEY, name TEXT, data BLOB)");
    await fc.assert(
      fc.asyncProperty(fc.array(fc.uint8Array({ maxLength: 300 }), { maxLength: 20 }), async (blobs) => {
        await store.client.execute("DELETE FROM blobs");
        for (const [n, data] of blobs.entries()) await store.client.execute({ sql: "INSERT INTO blobs VALUES (?, ?, ?)", args: [n + 2 ** 33, `b"${n}`, data] });
        const rows = await jsonRows<[number, string, string]>(store.client, "SELECT json_group_array(json_array(n, name, hex(data))) FROM (SELECT * FROM blobs ORDER BY n)", []);
        assert.deepEqual(
          rows.map(([n, name]) => [n, name]),
          blobs.map((_, n) => [n + 2 ** 33, `b"${n}`]),
        );
        for (const [i, [, , hex]] of rows.entries()) {
          const bytes = fromHex(hex);
          assert.deepEqual(bytes, blobs[i]);
          assert.equal(bytes.buffer.byteLength, bytes.length, "an array of its own, not a view of a shared pool");
        }
      }),
      { numRuns: 30 },
    );
    assert.deepEqual(await jsonRows(store.client, "SELECT json_group_array(json_array(n)) FROM blobs WHERE n < 0", []), []);
  });
});

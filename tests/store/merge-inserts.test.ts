import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { rmSync } from "node:fs";
import { join } from "node:path";
import { createClient } from "@libsql/client";
import { mergeInserts } from "../../src/store/index.ts";
import { testDir } from "../support/temp-dir.ts";

describe("mergeInserts", () => {
  test("rows of one INSERT become one multi-row statement, in the order each INSERT first appears", () => {
    const merged = mergeInserts([
      { sql: "INSERT INTO a (x, y) VALUES (?, ?)", args: [1, "one"] },
      { sql: "INSERT INTO b (a, z) VALUES ((SELECT rowid FROM a WHERE x = ?), ?)", args: [1, "b1"] },
      { sql: "INSERT INTO a (x, y) VALUES (?, ?)", args: [2, "two"] },
      "DELETE FROM c",
      { sql: "INSERT INTO b (a, z) VALUES ((SELECT rowid FROM a WHERE x = ?), ?)", args: [2, "b2"] },
    ]);
    assert.deepEqual(merged, [
      { sql: "INSERT INTO a (x, y) VALUES (?, ?), (?, ?)", args: [1, "one", 2, "two"] },
      { sql: "INSERT INTO b (a, z) VALUES ((SELECT rowid FROM a WHERE x = ?), ?), ((SELECT rowid FROM a WHERE x = ?), ?)", args: [1, "b1", 2, "b2"] },
      "DELETE FROM c",
    ]);
  });

  test("more than 256 rows are split, and the merged statements write exactly the rows given", async () => {
    const dir = testDir("homed-merge-");
    const client = createClient({ url: `file:${join(dir, "x.db")}` });
    try {
      await client.execute("CREATE TABLE a (x INTEGER PRIMARY KEY, y TEXT)");
      await client.execute("CREATE TABLE b (a INTEGER NOT NULL, z TEXT)");
      const statements = Array.from({ length: 600 }, (_, i) => [
        { sql: "INSERT INTO a (x, y) VALUES (?, ?)", args: [i, `y${i}`] },
        { sql: "INSERT INTO b (a, z) VALUES ((SELECT rowid FROM a WHERE x = ?), ?)", args: [i, `z${i}`] },
      ]).flat();
      const merged = mergeInserts(statements);
      assert.equal(merged.length, 6);
      await client.batch(merged, "write");
      const rows = await client.execute("SELECT a.x, a.y, b.z FROM a JOIN b ON b.a = a.rowid ORDER BY a.x");
      assert.deepEqual(
        rows.rows.map((r) => [r.x, r.y, r.z]),
        Array.from({ length: 600 }, (_, i) => [i, `y${i}`, `z${i}`]),
      );
    } finally {
      client.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

/**
 * Two imports of the same history at once (issue 31's reliability probe: one ended with a raw
 * `SQLITE_CONSTRAINT: UNIQUE constraint failed` after doing all its work): one adds the messages,
 * the other ends with a clear `already_imported` and adds nothing; each message is stored once.
 */
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { HomedError } from "../../src/errors/index.ts";
import { importHistory } from "../../src/memory/index.ts";
import { count, message, openTempStore } from "./fixture.ts";

describe("concurrent imports of the same history", () => {
  test("one adds them, the other says they are already imported; nothing is stored twice", async () => {
    const store = await openTempStore();
    try {
      const batch = Array.from({ length: 3000 }, (_, i) => message(`message ${i} about the garden and the shed`, { sourceId: `m${i}` }));
      const outcomes = await Promise.allSettled([importHistory(store.client, batch), importHistory(store.client, batch)]);
      const added = outcomes.filter((o) => o.status === "fulfilled").map((o) => (o as PromiseFulfilledResult<{ added: number }>).value.added);
      const failed = outcomes.filter((o) => o.status === "rejected").map((o) => (o as PromiseRejectedResult).reason as Error);
      // Both may finish cleanly when one ran wholly before the other looked (then it found them present).
      assert.equal(
        added.reduce((a, b) => a + b, 0),
        3000,
        `added ${added.join(" + ")}`,
      );
      for (const error of failed) {
        assert.ok(error instanceof HomedError, String(error));
        assert.equal(error.code, "already_imported");
        assert.doesNotMatch(error.message, /SQLITE|constraint/i);
      }
      assert.equal(await count(store, "SELECT COUNT(*) AS n FROM events"), 3000);
      assert.equal(await count(store, "SELECT COUNT(*) AS n FROM blocks"), 3000);
      // And again, one after the other: the second finds every message present.
      assert.deepEqual(await importHistory(store.client, batch), { added: 0, present: 3000 });
    } finally {
      store.close();
    }
  });
});

/** Console sessions (in a real libSQL file), on an injected clock. */
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { join } from "node:path";
import { ConsoleSessions, revokeAllConsoleSessions, SESSION_RENEW_MS, SESSION_TTL_MS } from "../../src/server/console-session.ts";
import { openStore } from "../../src/store/index.ts";
import { testDir } from "../support/temp-dir.ts";

const KEY = "a".repeat(43);
const freshStore = () => openStore({ url: `file:${join(testDir("homed-console-sessions-"), "homed.db")}` });

describe("console sessions", () => {
  test("a session lives while used, expires after the idle lifetime, and ends on logout", async () => {
    const store = await freshStore();
    try {
      let now = 1_000_000;
      const sessions = new ConsoleSessions(store.client, KEY, () => now);
      const id = await sessions.create();
      assert.equal(await sessions.touch(id), true);
      now += SESSION_TTL_MS - 1;
      assert.equal(await sessions.touch(id), true, "use renews the lifetime");
      now += SESSION_TTL_MS - 1;
      assert.equal(await sessions.touch(id), true);
      now += SESSION_TTL_MS + 1;
      assert.equal(await sessions.touch(id), false, "idle past the lifetime");
      const other = await sessions.create();
      await sessions.revoke(other);
      assert.equal(await sessions.touch(other), false);
      assert.equal(await sessions.touch("made-up"), false);
      assert.equal(await sessions.touch(undefined), false);
      assert.equal(await sessions.touch("x".repeat(10_000)), false);
    } finally {
      store.close();
    }
  });

  test("only a keyed hash is stored; another admin token's sessions never match; expired rows go", async () => {
    const store = await freshStore();
    try {
      let now = 1_000_000;
      const sessions = new ConsoleSessions(store.client, KEY, () => now);
      const id = await sessions.create();
      const rows = (await store.client.execute("SELECT token_hash, expires_at FROM console_sessions")).rows;
      assert.equal(rows.length, 1);
      assert.notEqual(rows[0]!.token_hash, id);
      assert.doesNotMatch(String(rows[0]!.token_hash), new RegExp(id));
      assert.equal(await new ConsoleSessions(store.client, "b".repeat(43), () => now).touch(id), false, "made under an earlier admin token");
      now += SESSION_TTL_MS + 1;
      await sessions.create();
      assert.equal(Number((await store.client.execute("SELECT COUNT(*) AS n FROM console_sessions")).rows[0]!.n), 1, "the expired login was cleared");
      assert.equal(await revokeAllConsoleSessions(store.client), 1);
    } finally {
      store.close();
    }
  });

  test("use renews the stored lifetime at most once per renewal period", async () => {
    const store = await freshStore();
    try {
      let now = 1_000_000;
      const sessions = new ConsoleSessions(store.client, KEY, () => now);
      const id = await sessions.create();
      const expires = async () => Number((await store.client.execute("SELECT expires_at FROM console_sessions")).rows[0]!.expires_at);
      now += SESSION_RENEW_MS - 1;
      await sessions.touch(id);
      assert.equal(await expires(), 1_000_000 + SESSION_TTL_MS, "no write within the renewal period");
      now += 2;
      await sessions.touch(id);
      assert.equal(await expires(), now + SESSION_TTL_MS);
    } finally {
      store.close();
    }
  });
});

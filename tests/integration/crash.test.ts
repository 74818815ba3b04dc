/**
 * A daemon killed with SIGKILL in the middle of a turn loses nothing it acknowledged: the
 * finished turn and the input of the interrupted one are in the database, which is intact.
 */
import { describe, test, after } from "node:test";
import assert from "node:assert/strict";
import { join } from "node:path";
import { createClient } from "@libsql/client";
import { until } from "../support/process.ts";
import { startApiDaemon } from "../support/api-daemon.ts";
import { startScriptedProvider } from "../support/scripted-provider.ts";
import { testDir } from "../support/temp-dir.ts";

describe("crash safety", () => {
  test("kill -9 mid-turn loses no acknowledged event and leaves an intact database", async () => {
    const provider = await startScriptedProvider([{ content: "Noted: your locker code is 4417." }, { hang: true }]);
    after(() => provider.close());
    const data = join(testDir("homed-crash-"), "data");
    const daemon = await startApiDaemon(data, provider.url);
    const session = await daemon.openSession("crash");

    assert.match(await daemon.send(session, "my locker code is 4417"), /event: done/);

    const second = daemon.send(session, "and my bike lock is 9902").catch(() => undefined);
    await until(() => provider.requests.length === 2, "the second turn to reach the model");
    const { code } = await daemon.stop("SIGKILL");
    assert.equal(code, null);
    await second;

    const client = createClient({ url: `file:${join(data, "homed.db")}` });
    assert.equal((await client.execute("PRAGMA integrity_check")).rows[0]?.[0], "ok");
    const rows = await client.execute({ sql: "SELECT text FROM events WHERE session_id = ? ORDER BY seq", args: [session] });
    assert.deepEqual(
      rows.rows.map((r) => r.text),
      ["my locker code is 4417", "Noted: your locker code is 4417.", "and my bike lock is 9902"],
    );
    client.close();
  });
});

describe("stopping mid-turn", () => {
  test("SIGTERM during a turn cancels it: the client hears why, what was said is kept, exit 0 within 5 s", async () => {
    const provider = await startScriptedProvider([{ hang: true }]);
    after(() => provider.close());
    const data = join(testDir("homed-stop-"), "data");
    const daemon = await startApiDaemon(data, provider.url);
    const session = await daemon.openSession("stop");
    const reply = daemon.send(session, "a question the model never answers");
    await until(() => provider.requests.length === 1, "the turn to reach the model");
    const { code, ms } = await daemon.stop("SIGTERM");
    assert.equal(code, 0, daemon.stderr());
    assert.ok(ms < 5000, `stop took ${ms} ms`);
    assert.match(await reply, /event: done\ndata: \{[^}]*"stopReason":"cancelled"/);
    const client = createClient({ url: `file:${join(data, "homed.db")}` });
    const rows = await client.execute({ sql: "SELECT text FROM events WHERE session_id = ?", args: [session] });
    assert.deepEqual(
      rows.rows.map((r) => r.text),
      ["a question the model never answers"],
    );
    client.close();
  });
});

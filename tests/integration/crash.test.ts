/**
 * A daemon killed with SIGKILL in the middle of a turn loses nothing it acknowledged: the
 * finished turn and the input of the interrupted one are in the database, which is intact.
 */
import { describe, test, after } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createClient } from "@libsql/client";
import { SOURCE_HOMED, startDaemon, until } from "../support/process.ts";
import { startScriptedProvider } from "../support/scripted-provider.ts";

describe("crash safety", () => {
  test("kill -9 mid-turn loses no acknowledged event and leaves an intact database", async () => {
    const provider = await startScriptedProvider([{ content: "Noted: your locker code is 4417." }, { hang: true }]);
    after(() => provider.close());
    const data = join(mkdtempSync(join(tmpdir(), "homed-crash-")), "data");
    const daemon = await startDaemon([...SOURCE_HOMED, "-data", data, "-addr", "127.0.0.1:0"], {
      env: { ...process.env, HOMED_BASE_URL: provider.url, HOMED_MODEL: "scripted", HOMED_API_KEY: "k" },
    });
    const token = readFileSync(join(data, "admin.token"), "utf8").trim();
    const headers = { authorization: `Bearer ${token}`, "content-type": "application/json" };
    const session = (await (await fetch(`${daemon.url}/api/sessions`, { method: "POST", headers, body: JSON.stringify({ partner: "crash" }) })).json()) as { id: string };

    const first = await fetch(`${daemon.url}/api/sessions/${session.id}/messages`, { method: "POST", headers, body: JSON.stringify({ content: "my locker code is 4417" }) });
    assert.match(await first.text(), /event: done/);

    const second = fetch(`${daemon.url}/api/sessions/${session.id}/messages`, { method: "POST", headers, body: JSON.stringify({ content: "and my bike lock is 9902" }) }).catch(() => undefined);
    await until(() => provider.requests.length === 2, "the second turn to reach the model");
    const { code } = await daemon.stop("SIGKILL");
    assert.equal(code, null);
    await second;

    const client = createClient({ url: `file:${join(data, "homed.db")}` });
    assert.equal((await client.execute("PRAGMA integrity_check")).rows[0]?.[0], "ok");
    const rows = await client.execute({ sql: "SELECT text FROM events WHERE session_id = ? ORDER BY seq", args: [session.id] });
    assert.deepEqual(rows.rows.map((r) => r.text), ["my locker code is 4417", "Noted: your locker code is 4417.", "and my bike lock is 9902"]);
    client.close();
  });
});

describe("stopping mid-turn", () => {
  test("SIGTERM during a turn cancels it: the client hears why, what was said is kept, exit 0 within 5 s", async () => {
    const provider = await startScriptedProvider([{ hang: true }]);
    after(() => provider.close());
    const data = join(mkdtempSync(join(tmpdir(), "homed-stop-")), "data");
    const daemon = await startDaemon([...SOURCE_HOMED, "-data", data, "-addr", "127.0.0.1:0"], {
      env: { ...process.env, HOMED_BASE_URL: provider.url, HOMED_MODEL: "scripted" },
    });
    const token = readFileSync(join(data, "admin.token"), "utf8").trim();
    const headers = { authorization: `Bearer ${token}`, "content-type": "application/json" };
    const session = (await (await fetch(`${daemon.url}/api/sessions`, { method: "POST", headers, body: JSON.stringify({ partner: "stop" }) })).json()) as { id: string };
    const reply = fetch(`${daemon.url}/api/sessions/${session.id}/messages`, { method: "POST", headers, body: JSON.stringify({ content: "a question the model never answers" }) }).then((r) => r.text());
    await until(() => provider.requests.length === 1, "the turn to reach the model");
    const { code, ms } = await daemon.stop("SIGTERM");
    assert.equal(code, 0, daemon.stderr());
    assert.ok(ms < 5000, `stop took ${ms} ms`);
    assert.match(await reply, /event: done\ndata: \{[^}]*"stopReason":"cancelled"/);
    const client = createClient({ url: `file:${join(data, "homed.db")}` });
    const rows = await client.execute({ sql: "SELECT text FROM events WHERE session_id = ?", args: [session.id] });
    assert.deepEqual(rows.rows.map((r) => r.text), ["a question the model never answers"]);
    client.close();
  });
});

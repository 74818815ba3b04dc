/**
 * Console logins against the real daemon: they survive a restart on the same data folder, and
 * end on logout and on `homed token reset` (at once, while the daemon runs, and after restarts).
 */
import { after, describe, test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { startApiDaemon, type ApiDaemon } from "../support/api-daemon.ts";
import { run, SOURCE_HOMED } from "../support/process.ts";
import { tempDir } from "../support/temp-dir.ts";

describe("console login across daemon restarts", () => {
  const data = tempDir("homed-login-restart-").path;
  let daemon: ApiDaemon | undefined;
  after(async () => {
    await daemon?.stop();
    rmSync(data, { recursive: true, force: true });
  });

  const restart = async () => {
    await daemon?.stop();
    daemon = await startApiDaemon(data);
    return daemon;
  };
  /** What the console's browser sends: same origin, its header, the cookie. */
  const consoleHeaders = (d: ApiDaemon, cookie?: string) => ({
    origin: d.url,
    "x-homed-request": "1",
    "content-type": "application/json",
    ...(cookie ? { cookie } : {}),
  });
  const login = async (d: ApiDaemon): Promise<string> => {
    const token = readFileSync(join(data, "admin.token"), "utf8").trim();
    const response = await fetch(`${d.url}/api/login`, { method: "POST", headers: consoleHeaders(d), body: JSON.stringify({ token }) });
    assert.equal(response.status, 200, await response.text());
    return /homed_session=[^;]+/.exec(response.headers.get("set-cookie") ?? "")![0];
  };
  const sessionsStatus = async (d: ApiDaemon, cookie: string) => (await fetch(`${d.url}/api/sessions`, { headers: consoleHeaders(d, cookie) })).status;
  const loggedIn = async (d: ApiDaemon, cookie: string) => ((await (await fetch(`${d.url}/api/auth`, { headers: { cookie } })).json()) as { loggedIn: boolean }).loggedIn;

  test("a login survives a restart; logout ends it for good", async () => {
    const first = await restart();
    const cookie = await login(first);
    assert.equal(await sessionsStatus(first, cookie), 200);
    const second = await restart();
    assert.equal(await sessionsStatus(second, cookie), 200, "the cookie still works after the restart");
    assert.equal(await loggedIn(second, cookie), true);
    const out = await fetch(`${second.url}/api/logout`, { method: "POST", headers: consoleHeaders(second, cookie) });
    assert.equal(out.status, 200);
    assert.equal(await sessionsStatus(second, cookie), 401);
    const third = await restart();
    assert.equal(await sessionsStatus(third, cookie), 401, "a logged-out cookie stays dead after a restart");
    assert.equal(await loggedIn(third, cookie), false);
  });

  test("homed token reset ends every login at once, and they stay ended after a restart", async () => {
    const running = daemon ?? (await restart());
    const cookies = [await login(running), await login(running)];
    for (const cookie of cookies) assert.equal(await sessionsStatus(running, cookie), 200);
    const reset = await run([...SOURCE_HOMED, "token", "reset", "-data", data]);
    assert.equal(reset.code, 0, reset.stderr);
    assert.match(reset.stderr, /2 console login\(s\) ended/);
    for (const cookie of cookies) assert.equal(await sessionsStatus(running, cookie), 401, "ended while the daemon runs");
    const restarted = await restart();
    for (const cookie of cookies) assert.equal(await sessionsStatus(restarted, cookie), 401);
    // The new token logs in; the old cookies stay out.
    const fresh = await login(restarted);
    assert.equal(await sessionsStatus(restarted, fresh), 200);
  });
});

/**
 * Wrong admin tokens are slowed per source and never lock the admin out (issue 14.8): the
 * throttle on an injected clock, then a real daemon reached from two loopback addresses.
 */
import { after, describe, test } from "node:test";
import assert from "node:assert/strict";
import { request } from "node:http";
import { readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { FAILURE_MEMORY_MS, FIRST_DELAY_MS, FREE_FAILURES, LoginThrottle, MAX_DELAY_MS, MAX_WAITING_PER_SOURCE } from "../../src/server/login-throttle.ts";
import { startApiDaemon, type ApiDaemon } from "../support/api-daemon.ts";
import { tempDir } from "../support/temp-dir.ts";

describe("login throttle", () => {
  test("a source's failures wait longer and longer up to the cap; another source and a quiet minute start at full speed", async () => {
    let now = 0;
    const throttle = new LoginThrottle({ now: () => now, sleep: async () => {} });
    const waited = async (source: string) => {
      const outcome = await throttle.fail(source);
      assert.equal(outcome.kind, "slowed");
      return outcome.kind === "slowed" ? outcome.waitedMs : -1;
    };
    const a: number[] = [];
    for (let i = 0; i < 10; i++) a.push(await waited("a"));
    const free = Array<number>(FREE_FAILURES).fill(0);
    assert.deepEqual(a, [...free, FIRST_DELAY_MS, 2 * FIRST_DELAY_MS, 4 * FIRST_DELAY_MS, 8 * FIRST_DELAY_MS, 16 * FIRST_DELAY_MS, MAX_DELAY_MS, MAX_DELAY_MS]);
    assert.equal(await waited("b"), 0, "another source is not slowed by a's failures");
    now += FAILURE_MEMORY_MS + 1;
    assert.equal(await waited("a"), 0, "a source quiet for the memory window starts again");
  });

  test("a source holding too many slowed answers gets 429 at once; others do not", async () => {
    const held: Array<() => void> = [];
    const throttle = new LoginThrottle({ sleep: () => new Promise<void>((resolve) => held.push(resolve)) });
    for (let i = 0; i < FREE_FAILURES; i++) await throttle.fail("a");
    const waiting = Array.from({ length: MAX_WAITING_PER_SOURCE }, () => throttle.fail("a"));
    assert.equal(held.length, MAX_WAITING_PER_SOURCE);
    const refused = await throttle.fail("a");
    assert.equal(refused.kind, "flooding");
    assert.ok(refused.kind === "flooding" && refused.retryAfterS >= 1);
    assert.deepEqual(await throttle.fail("b"), { kind: "slowed", waitedMs: 0 });
    for (const release of held) release();
    await Promise.all(waiting);
    const next = throttle.fail("a");
    assert.equal(held.length, MAX_WAITING_PER_SOURCE + 1, "once the answers went out, a's next failure waits again instead of being refused");
    held.at(-1)!();
    assert.equal((await next).kind, "slowed");
  });
});

/** A POST from a chosen loopback address (node:http can bind the client's side; fetch cannot). */
function postFrom(localAddress: string, url: string, body: unknown): Promise<{ status: number; ms: number }> {
  const started = performance.now();
  const payload = JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const req = request(url, { method: "POST", localAddress, headers: { "content-type": "application/json", "x-homed-request": "1", "content-length": Buffer.byteLength(payload) } }, (res) => {
      res.resume();
      res.on("end", () => resolve({ status: res.statusCode ?? 0, ms: performance.now() - started }));
    });
    req.on("error", reject);
    req.end(payload);
  });
}

describe("login throttle in the real daemon", () => {
  const data = tempDir("homed-login-throttle-").path;
  let daemon: ApiDaemon | undefined;
  after(async () => {
    await daemon?.stop();
    rmSync(data, { recursive: true, force: true });
  });

  test("after wrong logins from one address the admin still logs in from it; the next wrong one waits, another address's does not", async () => {
    daemon = await startApiDaemon(data);
    const login = `${daemon.url}/api/login`;
    const token = readFileSync(join(data, "admin.token"), "utf8").trim();
    const attacker = "127.0.0.2";
    for (let i = 0; i < FREE_FAILURES + 2; i++) assert.equal((await postFrom(attacker, login, { token: `guess-${i}` })).status, 401);
    // The old limiter answered 429 here, for a minute.
    assert.equal((await postFrom(attacker, login, { token })).status, 200);
    // Sent together: the attacker's next wrong token waits (4 × the first delay) while the
    // first wrong token from another address is answered before it.
    const order: string[] = [];
    const [slowed, other] = await Promise.all([
      postFrom(attacker, login, { token: "guess-again" }).then((r) => (order.push("attacker"), r)),
      postFrom("127.0.0.1", login, { token: "typo" }).then((r) => (order.push("other"), r)),
    ]);
    assert.equal(slowed.status, 401);
    assert.equal(other.status, 401);
    assert.ok(slowed.ms >= 4 * FIRST_DELAY_MS, `the attacker's answer took ${slowed.ms.toFixed(0)} ms`);
    assert.deepEqual(order, ["other", "attacker"]);
  });
});

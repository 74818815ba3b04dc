/**
 * Wrong admin tokens cost the guesser time and never lock the admin out (issues 14.8, 31.7): the
 * throttle on an injected clock, then a real daemon reached from two loopback addresses. The
 * flood itself (200 clients) is guessing-flood.test.ts.
 */
import { after, describe, test } from "node:test";
import assert from "node:assert/strict";
import { request } from "node:http";
import { readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { FREE_FAILURES, GLOBAL_BURST, GLOBAL_GUESSES_PER_S, LoginThrottle, MAX_WAITING_PER_SOURCE, SOURCE_GUESSES_PER_S } from "../../src/server/login-throttle.ts";
import { startApiDaemon, type ApiDaemon } from "../support/api-daemon.ts";
import { tempDir } from "../support/temp-dir.ts";

/** What one more wrong token costs a source that has spent its free ones. */
const STEP_MS = 1000 / SOURCE_GUESSES_PER_S;

describe("login throttle", () => {
  test("concurrent wrong tokens of a source queue at its rate after the free ones; another source and a quiet spell start at full speed", async () => {
    let now = 0;
    const throttle = new LoginThrottle({ now: () => now, sleep: async () => {} });
    // Sent together (the clock stands still): the answers are spaced one step apart.
    const a = await Promise.all(Array.from({ length: 8 }, () => throttle.fail("a")));
    assert.deepEqual(
      a.map((o) => o.waitedMs),
      [...Array<number>(FREE_FAILURES).fill(0), ...Array.from({ length: 8 - FREE_FAILURES }, (_, i) => (i + 1) * STEP_MS)],
    );
    assert.equal((await throttle.fail("b")).waitedMs, 0, "another source is not slowed by a's failures");
    now += (8 * 1000) / SOURCE_GUESSES_PER_S;
    assert.equal((await throttle.fail("a")).waitedMs, 0, "a source quiet long enough starts again at full speed");
  });

  test("a source holding too many slowed answers is refused before its credential is read; others are let in", async () => {
    const held: Array<() => void> = [];
    const throttle = new LoginThrottle({ now: () => 0, sleep: () => new Promise<void>((resolve) => held.push(resolve)) });
    for (let i = 0; i < FREE_FAILURES; i++) await throttle.fail("a");
    const waiting = Array.from({ length: MAX_WAITING_PER_SOURCE }, () => throttle.fail("a"));
    assert.equal(throttle.waitingFor("a"), MAX_WAITING_PER_SOURCE);
    const refused = throttle.admit("a");
    assert.equal(refused.admitted, false);
    assert.ok(!refused.admitted && refused.holdMs > 0 && refused.retryAfterS >= 1, "the refusal is held, not instant");
    assert.deepEqual(throttle.admit("b"), { admitted: true });
    for (const release of held.splice(0)) release();
    await Promise.all(waiting);
    assert.deepEqual(throttle.admit("a"), { admitted: true }, "once the answers went out, a is let in again");
  });

  test("all sources together share one rate: past the global burst, a new source's first wrong token waits too", async () => {
    const throttle = new LoginThrottle({ now: () => 0, sleep: async () => {} });
    const waits: number[] = [];
    for (let i = 0; i < GLOBAL_BURST + 3; i++) waits.push((await throttle.fail(`10.0.0.${i}`)).waitedMs);
    assert.deepEqual(waits.slice(0, GLOBAL_BURST), Array<number>(GLOBAL_BURST).fill(0));
    assert.deepEqual(
      waits.slice(GLOBAL_BURST),
      [1, 2, 3].map((n) => Math.ceil((n * 1000) / GLOBAL_GUESSES_PER_S)),
    );
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
    // Sent together: the attacker's next wrong token waits (its free ones are spent) while the
    // first wrong token from another address is answered before it.
    const order: string[] = [];
    const [slowed, other] = await Promise.all([
      postFrom(attacker, login, { token: "guess-again" }).then((r) => (order.push("attacker"), r)),
      postFrom("127.0.0.1", login, { token: "typo" }).then((r) => (order.push("other"), r)),
    ]);
    assert.equal(slowed.status, 401);
    assert.equal(other.status, 401);
    assert.ok(slowed.ms >= STEP_MS / 2, `the attacker's answer took ${slowed.ms.toFixed(0)} ms`);
    assert.deepEqual(order, ["other", "attacker"]);
  });
});

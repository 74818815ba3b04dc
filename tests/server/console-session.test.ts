/** Console sessions and the login limiter, on an injected clock. */
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { ConsoleSessions, LOGIN_FAILURES_PER_WINDOW, LOGIN_WINDOW_MS, LoginLimiter, SESSION_TTL_MS } from "../../src/server/console-session.ts";

describe("console sessions", () => {
  test("a session lives while used, expires after the idle lifetime, and ends on logout", () => {
    let now = 1_000_000;
    const sessions = new ConsoleSessions(() => now);
    const id = sessions.create();
    assert.equal(sessions.touch(id), true);
    now += SESSION_TTL_MS - 1;
    assert.equal(sessions.touch(id), true, "use renews the lifetime");
    now += SESSION_TTL_MS - 1;
    assert.equal(sessions.touch(id), true);
    now += SESSION_TTL_MS + 1;
    assert.equal(sessions.touch(id), false, "idle past the lifetime");
    const other = sessions.create();
    sessions.revoke(other);
    assert.equal(sessions.touch(other), false);
    assert.equal(sessions.touch("made-up"), false);
    assert.equal(sessions.touch(undefined), false);
  });
});

describe("login limiter", () => {
  test("allows the limit of failures per window, then waits until the oldest failure leaves it", () => {
    let now = 0;
    const limiter = new LoginLimiter(() => now);
    for (let i = 0; i < LOGIN_FAILURES_PER_WINDOW; i++) {
      assert.equal(limiter.waitMs(), 0);
      limiter.fail();
      now += 1000;
    }
    assert.equal(limiter.waitMs(), LOGIN_WINDOW_MS - LOGIN_FAILURES_PER_WINDOW * 1000);
    now = LOGIN_WINDOW_MS + 1;
    assert.equal(limiter.waitMs(), 0, "the first failure has left the window");
    limiter.fail();
    assert.ok(limiter.waitMs() > 0, "five failures inside the window again");
  });
});

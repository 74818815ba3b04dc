/**
 * `/api/proactive/events` shows a stream only the sessions its caller may see (memory/access.ts's
 * rule): woken answers of alice's sessions reach alice's stream, never bob's, while the owner's
 * stream sees both; `homed chat` attached to one session hears only that one; and Outbound names
 * the sinks that delivered (none when no stream may see the session). Through /api only the owner
 * enters today (the admin token, the console); a partner's access is given here as an app key
 * would give it, so the rule is proven for the day a partner's client listens too.
 */
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { Hono } from "hono";
import { readSse } from "../../src/cli/sse.ts";
import { Outbound, type OutboundMessage, type ProactiveMutes, type Session } from "../../src/kernel/index.ts";
import { proactiveRoutes } from "../../src/server/api-proactive.ts";
import type { AuthEnv } from "../../src/server/auth.ts";
import { apiErrorHandler } from "../../src/server/errors.ts";
import { LiveDeliveries } from "../../src/server/live-deliveries.ts";

const session = (id: string, partner: string) => ({ id, channel: "console", partner, title: null }) as unknown as Session;
const SESSIONS = new Map([
  ["s-alice", session("s-alice", "alice")],
  ["s-alice-2", session("s-alice-2", "alice")],
  ["s-bob", session("s-bob", "bob")],
]);

function setUp() {
  const live = new LiveDeliveries({ get: async (id) => SESSIONS.get(id) });
  const outbound = new Outbound();
  outbound.register(live.sink("console"));
  outbound.register(live.sink("chat"));
  const app = new Hono<AuthEnv>();
  app.onError(apiErrorHandler({ error: () => {} }));
  app.use("*", async (c, next) => {
    const partner = c.req.header("x-test-partner");
    if (partner) c.set("appKey", { name: partner, partner, scopes: [], createdAt: 0, lastUsedAt: null });
    await next();
  });
  app.route("/api/proactive", proactiveRoutes({ sessions: { get: async (id: string) => SESSIONS.get(id) } } as never, live, {} as ProactiveMutes));
  return { live, outbound, app };
}

/** Opens a stream and collects its woken messages until `stop`. */
async function listen(app: Hono<AuthEnv>, query: string, partner?: string) {
  const stop = new AbortController();
  const response = await app.request(`/api/proactive/events${query}`, { headers: partner ? { "x-test-partner": partner } : {} });
  assert.equal(response.status, 200);
  // Stopping the pipe cancels the response body, as a client that goes away does.
  const through = new TransformStream<Uint8Array, Uint8Array>();
  response.body!.pipeTo(through.writable, { signal: stop.signal }).catch(() => {});
  const got: OutboundMessage[] = [];
  void (async () => {
    for await (const { event, data } of readSse(through.readable)) if (event === "woken") got.push(JSON.parse(data));
  })().catch(() => {});
  return { got, stop: () => stop.abort() };
}

const message = (sessionId: string, text: string): OutboundMessage => ({ sessionId, text, source: { kind: "reminder", plugin: "calendar" }, eventId: `e-${text}` });
async function until(check: () => boolean, what: string): Promise<void> {
  const end = Date.now() + 5000;
  while (!check()) {
    if (Date.now() > end) throw new Error(`Timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

describe("the proactive stream shows only the sessions its caller may see", () => {
  test("alice's stream never shows bob's session; the owner's shows both; a chat stream only its session", async () => {
    const { app, outbound, live } = setUp();
    const owner = await listen(app, "");
    const alice = await listen(app, "", "alice");
    const chat = await listen(app, "?client=chat&session=s-alice-2");
    await until(() => live.open === 3, "three streams");
    assert.deepEqual(await outbound.deliver(message("s-bob", "for bob")), ["console"]);
    assert.deepEqual(await outbound.deliver(message("s-alice", "for alice")), ["console"]);
    assert.deepEqual(await outbound.deliver(message("s-alice-2", "alice again")), ["console", "chat"]);
    await until(() => alice.got.length === 2 && owner.got.length === 3 && chat.got.length === 1, "the deliveries");
    assert.deepEqual(
      alice.got.map((m) => m.text),
      ["for alice", "alice again"],
    );
    assert.ok(!JSON.stringify(alice.got).includes("bob"), "nothing of bob's reaches alice");
    assert.deepEqual(
      owner.got.map((m) => m.text),
      ["for bob", "for alice", "alice again"],
    );
    assert.deepEqual(
      chat.got.map((m) => m.text),
      ["alice again"],
    );
    assert.deepEqual((alice.got[0] as any).session, { id: "s-alice", channel: "console", partner: "alice", title: null });
    for (const s of [owner, alice, chat]) s.stop();
    await until(() => live.open === 0, "the streams to close");
    assert.deepEqual(await outbound.deliver(message("s-alice", "nobody listens")), [], "delivered nowhere: it waits in the session");
  });

  test("a bad client kind is a 400", async () => {
    const { app } = setUp();
    assert.equal((await app.request("/api/proactive/events?client=pager")).status, 400);
  });
});

/**
 * Several conversations with one partner on one channel: the channel's own conversation (what a
 * QQ chat or an OpenAI client opens) stays one, and a new chat (the console's, `POST
 * /api/sessions {"new": true}`) starts another beside it. Memory treats them all as the
 * partner's (DESIGN §3 Scopes: the conversation key is the partner): a new chat starts with an
 * empty live context, and recalls what is private to its partner like the first one.
 */
import { describe, test, afterEach } from "node:test";
import assert from "node:assert/strict";
import { importHistory } from "../../src/memory/index.ts";
import { createApp } from "../../src/server/index.ts";
import { createLogger } from "../../src/log/index.ts";
import { kernelHarness, type Harness } from "./support.ts";

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

const TOKEN = "k".repeat(40);
const bearer = { authorization: `Bearer ${TOKEN}`, "content-type": "application/json" };

/** Every chat message's text the model was sent on request `n` (memory lines included). */
const sent = (harness: Harness, n: number): string[] =>
  harness.provider.requests[n]!.body.messages.map((m: { content?: unknown }) => (typeof m.content === "string" ? m.content : JSON.stringify(m.content)));

describe("several conversations with one partner on one channel", () => {
  test("a conversation named by the caller's key (an A2A contextId): first use starts it, even twice at once; the key is per partner", async () => {
    h = await kernelHarness(() => ({ content: "ok" }));
    const [a, b] = await Promise.all([h.kernel.sessions.openContext("a2a", "alice", "ctx-1"), h.kernel.sessions.openContext("a2a", "alice", "ctx-1")]);
    assert.equal(a.id, b.id);
    assert.equal((await h.kernel.sessions.openContext("a2a", "alice", "ctx-1")).id, a.id);
    const other = await h.kernel.sessions.openContext("a2a", "alice", "ctx-2");
    assert.notEqual(other.id, a.id);
    assert.equal(other.thread, a.thread + 1);
    const bobs = await h.kernel.sessions.openContext("a2a", "bob", "ctx-1");
    assert.notEqual(bobs.id, a.id);
    assert.equal(bobs.partner, "bob");
    assert.equal((await h.kernel.sessions.list()).filter((s) => s.contextKey === "ctx-1").length, 2);
  });

  test("open gives the channel's own conversation each time; new starts another beside it, numbered", async () => {
    h = await kernelHarness(() => ({ content: "ok" }));
    const app = createApp({ version: "0.0.0-test", store: h.store, log: createLogger({ level: "error", stderr: () => {} }), kernel: h.kernel, adminToken: TOKEN });
    const post = async (body: object) => {
      const res = await app.request("/api/sessions", { method: "POST", headers: bearer, body: JSON.stringify(body) });
      assert.equal(res.status, 201);
      return (await res.json()) as { id: string; partner: string; channel: string; thread: number };
    };
    const own = await post({ partner: "alice" });
    assert.equal((await post({ partner: "alice" })).id, own.id);
    const second = await post({ partner: "alice", new: true });
    const third = await post({ partner: "alice", new: true });
    assert.deepEqual([own.thread, second.thread, third.thread], [0, 1, 2]);
    assert.equal(new Set([own.id, second.id, third.id]).size, 3);
    assert.equal((await post({ partner: "alice" })).id, own.id, "the channel's own conversation is still the first");
    // Five started at once: each gets its own number.
    const burst = await Promise.all(Array.from({ length: 5 }, () => h!.kernel.sessions.start("console", "bob")));
    assert.deepEqual(burst.map((s) => s.thread).sort(), [0, 1, 2, 3, 4]);
    const { sessions } = (await (await app.request("/api/sessions", { headers: bearer })).json()) as { sessions: { partner: string }[] };
    assert.equal(sessions.filter((s) => s.partner === "alice").length, 3);
  });

  test("a new chat starts with an empty live context and recalls what is private to its partner", async () => {
    h = await kernelHarness(() => ({ content: "ok" }));
    await importHistory(h.store.client, [
      { conversation: "conv-mia", session: "s1", time: Date.UTC(2025, 0, 1), speaker: "me", role: "user", sourceId: "1", text: "Mia's door code is 4412", privateTo: "partner:Mia" },
    ]);
    const first = await h.kernel.sessions.open("console", "Mia");
    await h.kernel.turn({ session: first, input: "my locker number is 77" });
    const fresh = await h.kernel.sessions.start("console", "Mia");
    await h.kernel.turn({ session: fresh, input: "what is the door code?" });
    const messages = sent(h, h.provider.requests.length - 1);
    assert.ok(!messages.some((m) => m.includes("my locker number is 77")), "the first chat's live turn is not in the new chat's context");
    assert.ok(
      messages.some((m) => m.includes("4412")),
      "the partner's private memory is recalled in the new chat",
    );
    const again = await h.kernel.sessions.open("console", "Mia");
    assert.equal(again.id, first.id);
  });
});

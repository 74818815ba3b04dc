/**
 * Deleting a conversation (`DELETE /api/sessions/:id`): it leaves the list, and what was said in
 * it stays the user's memory unless they say otherwise (DESIGN §3) — by default its live turns
 * sink to cold history and recall finds them from the partner's next chat; with
 * `?memory=forget` every turn of it is forgotten.
 */
import { describe, test, afterEach } from "node:test";
import assert from "node:assert/strict";
import { createLogger } from "../../src/log/index.ts";
import { createApp } from "../../src/server/index.ts";
import { kernelHarness, type Harness } from "./support.ts";

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

const TOKEN = "k".repeat(40);
const bearer = { authorization: `Bearer ${TOKEN}`, "content-type": "application/json" };

async function conversation() {
  h = await kernelHarness(() => ({ content: "ok" }));
  const lines: string[] = [];
  const app = createApp({ version: "0.0.0-test", store: h.store, log: createLogger({ level: "info", stderr: (l) => void lines.push(l) }), kernel: h.kernel, adminToken: TOKEN });
  const session = await h.kernel.sessions.open("console", "Mia");
  await h.kernel.turn({ session, input: "my locker number is 77" });
  await h.kernel.turn({ session, input: "and the bike lock code is 3141" });
  const search = async (q: string) =>
    ((await (await app.request(`/api/memory/search?q=${encodeURIComponent(q)}&layer=all`, { headers: bearer })).json()) as { records: { text: string; layer: string }[] }).records;
  const listed = async () => ((await (await app.request("/api/sessions", { headers: bearer })).json()) as { sessions: { id: string }[] }).sessions.map((s) => s.id);
  return { app, session, search, listed, lines, harness: h };
}

describe("deleting a conversation", () => {
  test("by default its live turns sink to cold history: gone from the list, recalled from the partner's next chat", async () => {
    const { app, session, search, listed, lines, harness } = await conversation();
    const res = await app.request(`/api/sessions/${session.id}`, { method: "DELETE", headers: bearer });
    assert.equal(res.status, 200);
    assert.deepEqual(await res.json(), { sunk: 4, forgotten: 0 });
    assert.deepEqual(await listed(), []);
    assert.ok(lines.some((l) => l.includes(`audit: console deleted conversation ${session.id} (4 live events sank to cold history)`)));
    const found = await search("locker number");
    assert.ok(
      found.some((r) => r.layer === "L2" && r.text.includes("locker number is 77")),
      JSON.stringify(found),
    );
    const next = await harness.kernel.sessions.open("console", "Mia");
    assert.notEqual(next.id, session.id);
    await harness.kernel.turn({ session: next, input: "what is my locker number?" });
    const sent = JSON.stringify(harness.provider.requests.at(-1)!.body.messages);
    assert.match(sent, /locker number is 77/, "recalled into the partner's next chat");
  });

  test("with memory=forget every turn of it is forgotten", async () => {
    const { app, session, search, listed } = await conversation();
    const res = await app.request(`/api/sessions/${session.id}?memory=forget`, { method: "DELETE", headers: bearer });
    assert.deepEqual(await res.json(), { sunk: 0, forgotten: 4 });
    assert.deepEqual(await listed(), []);
    assert.deepEqual(await search("locker number"), []);
    assert.deepEqual(await search("bike lock"), []);
  });

  test("an unknown conversation is a 404, an unknown choice a 400; nothing changes", async () => {
    const { app, session, listed } = await conversation();
    assert.equal((await app.request("/api/sessions/no-such-session", { method: "DELETE", headers: bearer })).status, 404);
    assert.equal((await app.request(`/api/sessions/${session.id}?memory=maybe`, { method: "DELETE", headers: bearer })).status, 400);
    assert.deepEqual(await listed(), [session.id]);
  });
});

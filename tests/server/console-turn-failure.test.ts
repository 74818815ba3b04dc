/**
 * A failed turn stays with its conversation (GET /api/sessions/:id/failure) until a later turn
 * ends, and `replace` forgets live events of the conversation so a new
 * message stands in their place: what the console's Retry, Regenerate and Edit send.
 */
import { describe, test, afterEach } from "node:test";
import assert from "node:assert/strict";
import { createLogger } from "../../src/log/index.ts";
import { createApp } from "../../src/server/index.ts";
import { kernelHarness, type Harness } from "../kernel/support.ts";

const TOKEN = "k".repeat(40);
const bearer = { authorization: `Bearer ${TOKEN}`, "content-type": "application/json" };

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

function appFor(harness: Harness) {
  const log = createLogger({ level: "info", stderr: () => {} });
  return createApp({ version: "0.0.0-test", store: harness.store, log, kernel: harness.kernel, adminToken: TOKEN, adminTokenPath: "/data/admin.token" });
}

type App = ReturnType<typeof appFor>;
const send = async (app: App, id: string, body: object) => {
  const res = await app.request(`/api/sessions/${id}/messages`, { method: "POST", headers: bearer, body: JSON.stringify(body) });
  return { status: res.status, text: await res.text() };
};
const json = async (app: App, path: string) => (await app.request(path, { headers: bearer })).json();
const said = async (app: App, id: string) =>
  ((await json(app, `/api/sessions/${id}/context`)) as { id: string; messages: { role: string; content: string }[] }[]).map((e) => ({
    id: e.id,
    said: `${e.messages[0]!.role}: ${e.messages[0]!.content}`,
  }));

describe("a failed turn and replacing turns", () => {
  test("a provider's HTTP 500 is kept with the conversation (with what was said) until a turn ends well", async () => {
    h = await kernelHarness([{ status: 500, body: '{"error":{"message":"boom"}}' }, { content: "Hello again" }]);
    const app = appFor(h);
    const { id } = await h.kernel.sessions.start("console", "me");
    const first = await send(app, id, { content: "Hello?" });
    assert.match(first.text, /event: error/);
    const { failure } = (await json(app, `/api/sessions/${id}/failure`)) as { failure: { error: string; message: string; input: string } | null };
    assert.equal(failure?.input, "Hello?");
    assert.equal(failure?.error, "provider_server_error");
    // Retry: the unanswered message is replaced by itself, sent again.
    const [question] = await said(app, id);
    assert.equal(question?.said, "user: Hello?");
    const retried = await send(app, id, { content: "Hello?", replace: question!.id });
    assert.match(retried.text, /event: done/);
    assert.deepEqual(await json(app, `/api/sessions/${id}/failure`), { failure: null });
    assert.deepEqual(
      (await said(app, id)).map((e) => e.said),
      ["user: Hello?", "assistant: Hello again"],
    );
  });

  test("replace forgets the event and all after it, unseen by the model since; an unknown or forgotten event is refused", async () => {
    h = await kernelHarness([{ content: "one" }, { content: "two" }, { content: "edited answer" }]);
    const app = appFor(h);
    const { id } = await h.kernel.sessions.start("console", "me");
    await send(app, id, { content: "first" });
    await send(app, id, { content: "second" });
    const before = await said(app, id);
    assert.equal(before.length, 4);
    const edited = await send(app, id, { content: "second, edited", replace: before[2]!.id });
    assert.match(edited.text, /event: done/);
    assert.deepEqual(
      (await said(app, id)).map((e) => e.said),
      ["user: first", "assistant: one", "user: second, edited", "assistant: edited answer"],
    );
    // The model saw the conversation without the replaced turn.
    const last = h.provider.requests.at(-1)!.body.messages.map((m: { content: string }) => m.content);
    assert.ok(!last.includes("second") && !last.includes("two"), `the replaced turn reached the model: ${JSON.stringify(last)}`);
    for (const replace of ["no-such-event", before[2]!.id]) {
      const refused = await send(app, id, { content: "again", replace });
      assert.equal(refused.status, 404, replace);
    }
    assert.equal((await send(app, id, { replace: before[0]!.id })).status, 400, "replace without content");
  });
});

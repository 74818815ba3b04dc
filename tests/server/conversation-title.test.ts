/**
 * A conversation named by the model (POST /api/sessions/:id/title), over loopback HTTP to the
 * scripted provider: one small, bounded request with the first question and answer; the answer
 * cleaned into a title; a name given meanwhile kept; a provider's failure leaves the title as it
 * was (the console's, from the first message).
 */
import { describe, test, afterEach } from "node:test";
import assert from "node:assert/strict";
import { createLogger } from "../../src/log/index.ts";
import { createApp } from "../../src/server/index.ts";
import { cleanTitle } from "../../src/server/conversation-title.ts";
import type { Step } from "../support/scripted-provider.ts";
import { kernelHarness, type Harness } from "../kernel/support.ts";

const TOKEN = "k".repeat(40);
const bearer = { authorization: `Bearer ${TOKEN}`, "content-type": "application/json" };

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

const isTitleRequest = (body: any) => !body.stream && /Name this conversation/.test(body.messages[0]?.content ?? "");

async function setUp(titleAnswer: () => Step) {
  h = await kernelHarness(({ body }) => (isTitleRequest(body) ? titleAnswer() : { content: "Stay in Alfama, the oldest quarter." }), {}, { overHttp: true });
  const log = createLogger({ level: "info", stderr: () => {} });
  const app = createApp({ version: "0.0.0-test", store: h.store, log, kernel: h.kernel, adminToken: TOKEN, adminTokenPath: "/data/admin.token" });
  const { id } = await h.kernel.sessions.start("console", "me");
  const title = (ifTitle: string | null) => app.request(`/api/sessions/${id}/title`, { method: "POST", headers: bearer, body: JSON.stringify({ ifTitle }) });
  const exchange = async () =>
    void (await (
      await app.request(`/api/sessions/${id}/messages`, { method: "POST", headers: bearer, body: JSON.stringify({ content: "Which Lisbon neighbourhood for old tiled streets?" }) })
    ).text());
  return { app, id, title, exchange, provider: h.provider };
}

describe("a conversation named by the model", () => {
  test("after the first exchange: one bounded request with the question and answer, its answer cleaned into the title", async () => {
    const { id, title, exchange, provider } = await setUp(() => ({ content: 'Title: "Lisbon neighbourhood for tiled streets."\nHope that helps!' }));
    assert.equal((await title(null)).status, 400, "nothing to name it by before the first answer");
    await exchange();
    await h!.kernel.sessions.rename(id, "Which Lisbon neighbourhood for old tiled…");
    const res = await title("Which Lisbon neighbourhood for old tiled…");
    assert.equal(res.status, 200);
    const answer = (await res.json()) as { title: string; session: { title: string } };
    assert.equal(answer.title, "Lisbon neighbourhood for tiled streets");
    assert.equal((await h!.kernel.sessions.get(id))?.title, "Lisbon neighbourhood for tiled streets");
    const asked = provider.requests.filter((r) => isTitleRequest(r.body));
    assert.equal(asked.length, 1);
    assert.equal(asked[0]!.body.max_tokens, 32, "bounded");
    assert.match(asked[0]!.body.messages[1].content, /User: Which Lisbon neighbourhood[\s\S]*Assistant: Stay in Alfama/);
  });

  test("a name given while the model answered is kept", async () => {
    const { id, title, exchange } = await setUp(() => ({ content: "Lisbon stay" }));
    await exchange();
    await h!.kernel.sessions.rename(id, "My own name");
    const answer = (await (await title("Which Lisbon neighbourhood for old tiled…")).json()) as { title: string | null };
    assert.equal(answer.title, null);
    assert.equal((await h!.kernel.sessions.get(id))?.title, "My own name");
  });

  test("a provider's failure is an error and the title stays as it was; an empty answer names nothing", async () => {
    const failing = await setUp(() => ({ status: 500, body: '{"error":{"message":"boom"}}' }));
    await failing.exchange();
    await h!.kernel.sessions.rename(failing.id, "From the first message");
    const res = await failing.title("From the first message");
    assert.equal(res.status, 502);
    assert.equal(((await res.json()) as { error: string }).error, "provider_server_error");
    assert.equal((await h!.kernel.sessions.get(failing.id))?.title, "From the first message");
    assert.equal(failing.provider.requests.filter((r) => isTitleRequest(r.body)).length, 1, "no retries");
    await h!.close();
    const empty = await setUp(() => ({ content: '  "" ' }));
    await empty.exchange();
    const answer = (await (await empty.title(null)).json()) as { title: string | null };
    assert.equal(answer.title, null);
    assert.equal((await h!.kernel.sessions.get(empty.id))?.title, null);
  });

  test("cleanTitle keeps the first line's words only", () => {
    assert.equal(cleanTitle("**标题：里斯本住宿建议。**"), "里斯本住宿建议");
    assert.equal(cleanTitle("\n“Bike tyre pressure”\n"), "Bike tyre pressure");
    assert.equal([...cleanTitle("x".repeat(500))].length, 80);
  });
});

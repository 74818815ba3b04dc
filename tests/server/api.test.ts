import { describe, test, afterEach } from "node:test";
import assert from "node:assert/strict";
import { parseContextDump } from "../../src/context/index.ts";
import { createLogger } from "../../src/log/index.ts";
import { createApp } from "../../src/server/index.ts";
import { SecretBox } from "../../src/store/index.ts";
import { startScriptedProvider, type ScriptedProvider } from "../support/scripted-provider.ts";
import { call, kernelHarness, type Harness } from "../kernel/support.ts";

const TOKEN = "t".repeat(40);
const auth = { authorization: `Bearer ${TOKEN}`, "content-type": "application/json" };

let h: Harness | undefined;
let extra: ScriptedProvider | undefined;
afterEach(async () => {
  await h?.close();
  await extra?.close();
  h = extra = undefined;
});

function appFor(harness: Harness) {
  const log = createLogger({ level: "error", stderr: () => {} });
  return createApp({ version: "0.0.0-test", store: harness.store, log, kernel: harness.kernel, adminToken: TOKEN });
}

/** Parses an SSE body into [event, data] pairs. */
function sseEvents(text: string): { event: string; data: any }[] {
  return text
    .split("\n\n")
    .filter((block) => block.includes("data:"))
    .map((block) => {
      const event = /^event: (.*)$/m.exec(block)?.[1] ?? "message";
      const data = /^data: (.*)$/m.exec(block)![1]!;
      return { event, data: data === "[DONE]" ? data : JSON.parse(data) };
    });
}

describe("/api/sessions", () => {
  test("create, list, send (streamed as SSE), and export the context dump", async () => {
    // End to end: the turn's model is the scripted provider over loopback HTTP.
    h = await kernelHarness([{ toolCalls: [call("c1", "look")] }, { content: "Here is the answer." }], {}, { overHttp: true });
    const app = appFor(h);
    const created = await app.request("/api/sessions", { method: "POST", headers: auth, body: JSON.stringify({ partner: "alice" }) });
    assert.equal(created.status, 201);
    const session = (await created.json()) as { id: string; channel: string };
    assert.equal(session.channel, "console");
    const list = (await (await app.request("/api/sessions", { headers: auth })).json()) as { sessions: { id: string }[] };
    assert.deepEqual(
      list.sessions.map((s) => s.id),
      [session.id],
    );

    const sent = await app.request(`/api/sessions/${session.id}/messages`, { method: "POST", headers: auth, body: JSON.stringify({ content: "what is it?" }) });
    assert.match(sent.headers.get("content-type") ?? "", /text\/event-stream/);
    const events = sseEvents(await sent.text());
    const kinds = events.map((e) => e.event);
    assert.ok(kinds.includes("recall"));
    assert.ok(kinds.includes("tool_call"));
    assert.ok(kinds.includes("tool_result"));
    assert.equal(
      events
        .filter((e) => e.event === "content")
        .map((e) => e.data.text)
        .join(""),
      "Here is the answer.",
    );
    const usage = { prompt_tokens: 20, completion_tokens: 10, total_tokens: 30 };
    assert.deepEqual(events.at(-1), { event: "done", data: { text: "Here is the answer.", stopReason: "no_tool_calls", iterations: 2, toolCalls: 1, usage, finishReason: "stop" } });

    const dump = await app.request(`/api/sessions/${session.id}/context`, { headers: auth });
    const events2 = parseContextDump(await dump.text(), "the API's dump");
    assert.deepEqual(
      events2.map((e) => e.messages.map((m) => m.role).join(",")),
      ["user", "assistant,tool", "assistant"],
    );
  });

  test("an oversized body is refused with 413 before it is read whole", async () => {
    h = await kernelHarness([]);
    const big = JSON.stringify({ content: "x".repeat(17 * 1024 * 1024) });
    const res = await appFor(h).request("/v1/chat/completions", { method: "POST", headers: auth, body: big });
    assert.equal(res.status, 413);
    assert.deepEqual(Object.keys(((await res.json()) as { error: object }).error).sort(), ["code", "message", "param", "type"]);
  });

  test("bad bodies are 400 {error, message}; unknown sessions 404", async () => {
    h = await kernelHarness([]);
    const app = appFor(h);
    const noPartner = await app.request("/api/sessions", { method: "POST", headers: auth, body: JSON.stringify({ channel: "x" }) });
    assert.equal(noPartner.status, 400);
    assert.deepEqual(await noPartner.json(), { error: "invalid_request", message: "partner: Invalid input: expected string, received undefined" });
    const notJson = await app.request("/api/sessions", { method: "POST", headers: auth, body: "{" });
    assert.equal(((await notJson.json()) as { error: string }).error, "invalid_json");
    const unknown = await app.request("/api/sessions/nope/messages", { method: "POST", headers: auth, body: JSON.stringify({ content: "x" }) });
    assert.equal(unknown.status, 404);
    assert.equal(((await unknown.json()) as { error: string }).error, "session_not_found");
  });

  test("without a configured provider a turn ends with a no_provider error event", async () => {
    h = await kernelHarness([], { env: {} });
    const app = appFor(h);
    const session = (await (await app.request("/api/sessions", { method: "POST", headers: auth, body: JSON.stringify({ partner: "p" }) })).json()) as { id: string };
    const sent = await app.request(`/api/sessions/${session.id}/messages`, { method: "POST", headers: auth, body: JSON.stringify({ content: "hi" }) });
    const last = sseEvents(await sent.text()).at(-1)!;
    assert.equal(last.event, "error");
    assert.equal(last.data.error, "no_provider");
  });

  test("a provider whose stored key another secrets.key sealed: the turn ends saying so, and the list still answers", async () => {
    h = await kernelHarness([], { env: {} });
    const app = appFor(h);
    const provider = (await (
      await app.request("/api/providers", { method: "POST", headers: auth, body: JSON.stringify({ name: "x", baseUrl: "http://127.0.0.1:9/v1", model: "m", apiKey: "sk-1" }) })
    ).json()) as { id: string };
    const name = `provider:${provider.id}:apiKey`;
    await h.store.client.execute({ sql: "UPDATE secrets SET value = ? WHERE name = ?", args: [SecretBox.ephemeral().seal(name, "sk-1"), name] });
    assert.equal((await app.request("/api/providers", { headers: auth })).status, 200);
    const session = (await (await app.request("/api/sessions", { method: "POST", headers: auth, body: JSON.stringify({ partner: "p" }) })).json()) as { id: string };
    const sent = await app.request(`/api/sessions/${session.id}/messages`, { method: "POST", headers: auth, body: JSON.stringify({ content: "hi" }) });
    const last = sseEvents(await sent.text()).at(-1)!;
    assert.equal(last.event, "error");
    assert.equal(last.data.error, "secret_unreadable");
    assert.match(last.data.message, /sealed with another secrets.key \(set it again\)/);
  });
});

describe("auth", () => {
  test("every API, /v1 and /mcp route needs the admin token; health and the console do not", async () => {
    h = await kernelHarness([]);
    const app = appFor(h);
    for (const path of ["/api/sessions", "/api/providers", "/api/keys", "/v1/models", "/v1/models/homed", "/mcp"]) {
      const res = await app.request(path);
      assert.equal(res.status, 401, path);
      const body = (await res.json()) as any;
      assert.equal(path.startsWith("/v1/") ? body.error.code : body.error, "unauthorized");
      assert.equal((await app.request(path, { headers: { authorization: "Bearer wrong" } })).status, 401, path);
    }
    assert.equal((await app.request("/healthz")).status, 200);
    assert.equal((await app.request("/")).status, 200);
  });
});

describe("OpenAI-compatible /v1", () => {
  test("/v1/models lists homed and the configured provider", async () => {
    h = await kernelHarness([]);
    const body = (await (await appFor(h).request("/v1/models", { headers: auth })).json()) as { data: { id: string }[] };
    assert.deepEqual(
      body.data.map((m) => m.id),
      ["homed", "scripted-model"],
    );
  });

  test("non-streaming completion: the client's messages are the conversation; the session (user field) stores each turn once", async () => {
    h = await kernelHarness([{ content: "first" }, { content: "second" }, { content: "third" }]);
    const app = appFor(h);
    const ask = (messages: object[], headers: Record<string, string> = {}) =>
      app.request("/v1/chat/completions", { method: "POST", headers: { ...auth, ...headers }, body: JSON.stringify({ model: "homed", user: "zoe", messages }) });
    const one = (await (await ask([{ role: "user", content: "my cat is called Miso" }])).json()) as any;
    assert.equal(one.object, "chat.completion");
    assert.equal(one.choices[0].message.content, "first");
    // The client re-sends its history, with its own edit of the answer: that is what the model sees.
    await ask([
      { role: "system", content: "Answer in English." },
      { role: "user", content: "my cat is called Miso" },
      { role: "assistant", content: "first (edited)" },
      { role: "user", content: "what is my cat called?" },
    ]);
    const second = h.provider.requests[1]!.body.messages;
    assert.deepEqual(
      second.slice(1).map((m: any) => m.content),
      ["my cat is called Miso", "first (edited)", "what is my cat called?"],
    );
    assert.match(second[0].content, /Answer in English\./, "the client's system message joins homed's");
    const sessions = await h.kernel.sessions.list();
    assert.deepEqual(
      sessions.map((s) => [s.channel, s.partner]),
      [["openai", "zoe"]],
    );
    // Naming the session: homed's stored history is what the model sees, each turn in it once.
    await ask([{ role: "user", content: "and again?" }], { "x-homed-session": sessions[0]!.id });
    const third = h.provider.requests[2]!.body.messages.slice(1).map((m: any) => m.content);
    assert.deepEqual(third, ["my cat is called Miso", "first", "what is my cat called?", "second", "and again?"]);
  });

  test("the client's history is cut to the budget from the oldest end, starting at a user message", async () => {
    h = await kernelHarness([{ content: "ok" }], { budget: 3000 });
    const long = (n: number) => `message ${n}: ${"lorem ipsum dolor sit amet ".repeat(40)}`;
    const history = Array.from({ length: 12 }, (_, n) => ({ role: n % 2 === 0 ? "user" : "assistant", content: long(n) }));
    const res = await appFor(h).request("/v1/chat/completions", {
      method: "POST",
      headers: auth,
      body: JSON.stringify({ model: "homed", messages: [...history, { role: "user", content: "and now?" }] }),
    });
    assert.equal(res.status, 200);
    const sent = h.provider.requests[0]!.body.messages.slice(1) as { role: string; content: string }[];
    assert.equal(sent.at(-1)!.content, "and now?");
    assert.ok(sent.length > 1 && sent.length < 13, `some history, not all: ${sent.length} messages`);
    assert.equal(sent[0]!.role, "user");
    assert.match(sent.at(-2)!.content, /^message 11:/, "the newest history is kept");
  });

  test("streaming completion yields OpenAI chunks and [DONE]", async () => {
    h = await kernelHarness([{ content: "streamed words" }]);
    const res = await appFor(h).request("/v1/chat/completions", { method: "POST", headers: auth, body: JSON.stringify({ model: "homed", stream: true, messages: [{ role: "user", content: "hi" }] }) });
    const events = sseEvents(await res.text());
    assert.equal(events.at(-1)!.data, "[DONE]");
    const text = events
      .slice(0, -1)
      .map((e) => e.data.choices[0].delta.content ?? "")
      .join("");
    assert.equal(text, "streamed words");
    assert.equal(events.at(-2)!.data.choices[0].finish_reason, "stop");
  });

  test("a request without a user message is a 400", async () => {
    h = await kernelHarness([]);
    const res = await appFor(h).request("/v1/chat/completions", { method: "POST", headers: auth, body: JSON.stringify({ model: "homed", messages: [{ role: "system", content: "x" }] }) });
    assert.equal(res.status, 400);
  });
});

describe("/api/providers", () => {
  test("keys are write-only: no response ever carries one", async () => {
    h = await kernelHarness([], { env: {} });
    const app = appFor(h);
    const secret = "sk-very-secret-key-123";
    const saved = await app.request("/api/providers", {
      method: "POST",
      headers: auth,
      body: JSON.stringify({ name: "DeepSeek", preset: "deepseek", baseUrl: "https://api.deepseek.com/v1", model: "deepseek-chat", apiKey: secret }),
    });
    assert.equal(saved.status, 201);
    const savedText = await saved.text();
    assert.equal(savedText.includes(secret), false);
    const view = JSON.parse(savedText);
    assert.equal(view.hasKey, true);
    assert.equal(view.active, true);
    const listed = await (await app.request("/api/providers", { headers: auth })).text();
    assert.equal(listed.includes(secret), false);
    assert.ok(JSON.parse(listed).presets.length >= 6);
  });

  test("test connection makes one real call and reports latency, or the provider's words verbatim", async () => {
    h = await kernelHarness([{ content: "ok" }], {}, { overHttp: true });
    extra = await startScriptedProvider([{ status: 401, body: '{"error":{"message":"Authentication Fails (no such user)"}}' }]);
    const app = appFor(h);
    const good = (await (await app.request("/api/providers/test", { method: "POST", headers: auth, body: JSON.stringify({ baseUrl: h.provider.url, model: "m" }) })).json()) as any;
    assert.equal(good.ok, true);
    assert.equal(typeof good.latencyMs, "number");
    const bad = (await (await app.request("/api/providers/test", { method: "POST", headers: auth, body: JSON.stringify({ baseUrl: extra.url, model: "m", apiKey: "wrong" }) })).json()) as any;
    assert.equal(bad.ok, false);
    assert.equal(bad.status, 401);
    assert.equal(bad.body, '{"error":{"message":"Authentication Fails (no such user)"}}');
  });

  test("a passing test connection says the context window turns will get, and where it comes from", async () => {
    h = await kernelHarness([{ content: "ok" }, { content: "ok" }, { content: "ok" }, { content: "ok" }], {}, { overHttp: true });
    extra = await startScriptedProvider([{ content: "ok" }], {}, { models: [{ id: "served", object: "model", max_model_len: 32_768 }] });
    const app = appFor(h);
    const windowOf = async (body: object) => ((await (await app.request("/api/providers/test", { method: "POST", headers: auth, body: JSON.stringify(body) })).json()) as any).contextWindow;
    assert.deepEqual(await windowOf({ baseUrl: extra.url, model: "served" }), { tokens: 32_768, source: "provider" });
    assert.deepEqual(await windowOf({ baseUrl: h.provider.url, model: "deepseek-chat" }), { tokens: 128_000, source: "known" });
    assert.deepEqual(await windowOf({ baseUrl: h.provider.url, model: "my-finetune" }), { source: "unknown" });
    const saved = await (
      await app.request("/api/providers", { method: "POST", headers: auth, body: JSON.stringify({ name: "Set", baseUrl: h.provider.url, model: "my-finetune", contextWindow: 65_536 }) })
    ).json();
    assert.deepEqual(await windowOf({ id: (saved as { id: string }).id }), { tokens: 65_536, source: "configured" });
  });
});

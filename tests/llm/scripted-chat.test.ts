/** The in-process scripted model the kernel tests use: it must behave as the HTTP client does. */
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { type ProviderError, ScriptedChat, SequenceViolationError, type StreamDelta } from "../../src/llm/index.ts";

const ask = (content: string) => ({ model: "m", messages: [{ role: "user" as const, content }] });

describe("ScriptedChat", () => {
  test("streams text and tool calls in pieces, then the whole message; records each request", async () => {
    const chat = new ScriptedChat([{ content: "hello there", toolCalls: [{ id: "c1", name: "echo", arguments: '{"text":"x"}' }] }, { content: "done" }]);
    const model = chat.factory({ baseUrl: "http://unused/v1", apiKey: "k" });
    const deltas: StreamDelta[] = [];
    const result = await model.stream(ask("hi"), { onDelta: (d) => deltas.push(d) });
    assert.equal(
      deltas
        .filter((d) => d.type === "content")
        .map((d) => (d as { text: string }).text)
        .join(""),
      "hello there",
    );
    assert.ok(deltas.filter((d) => d.type === "content").length > 1, "the text arrives in pieces");
    assert.equal(
      deltas
        .filter((d) => d.type === "tool_call")
        .map((d) => (d as { arguments: string }).arguments)
        .join(""),
      '{"text":"x"}',
    );
    assert.deepEqual(result.message.tool_calls, [{ id: "c1", type: "function", function: { name: "echo", arguments: '{"text":"x"}' } }]);
    assert.equal(result.finishReason, "tool_calls");
    assert.equal((await model.complete(ask("again"))).message.content, "done");
    assert.deepEqual(
      chat.requests.map((r) => [r.body.messages.at(-1)!.content, r.body.stream, r.headers.authorization]),
      [
        ["hi", true, "Bearer k"],
        ["again", false, "Bearer k"],
      ],
    );
  });

  test("a scripted status is the ProviderError the HTTP client would throw; a hang ends only when cancelled", async () => {
    const chat = new ScriptedChat([{ status: 429 }, { status: 503 }, { hang: true }]);
    const model = chat.factory({ baseUrl: "http://unused/v1" });
    await assert.rejects(model.complete(ask("a")), (e: ProviderError) => e.code === "rate_limited" && e.status === 429);
    await assert.rejects(model.complete(ask("b")), (e: ProviderError) => e.code === "server_error");
    const controller = new AbortController();
    const hung = model.stream(ask("c"), { signal: controller.signal });
    setTimeout(() => controller.abort(new Error("stop")), 20);
    await assert.rejects(hung, (e: ProviderError) => e.code === "aborted");
  });

  test("the request passes the sequence guard in the kernel's mode, and the caller's own check", async () => {
    const dangling = {
      model: "m",
      messages: [
        { role: "user" as const, content: "q" },
        { role: "assistant" as const, content: null, tool_calls: [{ id: "c1", type: "function" as const, function: { name: "f", arguments: "{}" } }] },
      ],
    };
    const guarded = new ScriptedChat([{ content: "never" }]).factory({ baseUrl: "http://unused/v1", sequenceGuard: "throw" });
    await assert.rejects(guarded.complete(dangling), SequenceViolationError);
    const checked = new ScriptedChat([{ content: "ok" }, { content: "never" }], { check: (messages) => (messages.length > 1 ? "too many" : null) });
    const model = checked.factory({ baseUrl: "http://unused/v1" });
    assert.equal((await model.complete(ask("x"))).message.content, "ok");
    await assert.rejects(model.complete({ model: "m", messages: [...ask("x").messages, ...ask("y").messages] }), (e: ProviderError) => e.code === "bad_request" && e.status === 400);
    assert.deepEqual(checked.sequenceErrors, ["too many"]);
  });
});

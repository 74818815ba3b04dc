import { describe, test, afterEach } from "node:test";
import assert from "node:assert/strict";
import { StageError, type Participant } from "../../src/kernel/index.ts";
import { call, kernelHarness, type Harness } from "./support.ts";

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

const toolMessages = (body: any) => body.messages.filter((m: any) => m.role === "tool");

describe("the seven stages", () => {
  test("fire in order with the right payloads", async () => {
    h = await kernelHarness([{ toolCalls: [call("c1", "ping")] }, { content: "done" }]);
    const seen: string[] = [];
    const recorder: Participant = {
      name: "recorder",
      hooks: {
        on_input: (p) => void seen.push(`on_input:${p.input}`),
        pre_action: (p) => void seen.push(`pre_action:${p.input}`),
        post_action: (p) => void seen.push(`post_action#${p.iteration}:${p.message.tool_calls?.length ?? 0} calls`),
        before_toolcall: (p) => void seen.push(`before_toolcall:${p.call.function.name}${p.call.function.arguments}`),
        after_toolcall: (p) => void seen.push(`after_toolcall:${p.result}`),
        before_output: (p) => void seen.push(`before_output:${p.text}`),
        after_output: (p) => void seen.push(`after_output:${p.stopReason}/${p.iterations}/${p.toolCalls}`),
      },
    };
    h.kernel.addParticipant(recorder);
    const session = await h.kernel.sessions.open("test", "alice");
    const result = await h.kernel.turn({ session, input: "hello" });
    assert.deepEqual(seen, [
      "on_input:hello",
      "pre_action:hello",
      "post_action#1:1 calls",
      'before_toolcall:echo{"text":"ping"}',
      'after_toolcall:{"echoed":{"text":"ping"}}',
      "post_action#2:0 calls",
      "before_output:done",
      "after_output:no_tool_calls/2/1",
    ]);
    assert.deepEqual(result, { text: "done", stopReason: "no_tool_calls", iterations: 2, toolCalls: 1, usage: { prompt_tokens: 20, completion_tokens: 10, total_tokens: 30 }, finishReason: "stop" });
  });

  test("before_toolcall can deny a call: the tool does not run and the model reads the denial", async () => {
    h = await kernelHarness([{ toolCalls: [call("c1"), call("c2")] }, { content: "ok" }]);
    let ran = 0;
    h.kernel.tools.register({ name: "count", description: "", parameters: {}, run: async () => String(++ran) });
    h.kernel.addParticipant({ name: "guard", hooks: { before_toolcall: (p) => (p.call.id === "c1" ? { deny: "not allowed here" } : undefined) } });
    const session = await h.kernel.sessions.open("test", "bob");
    const result = await h.kernel.turn({ session, input: "go" });
    assert.equal(result.stopReason, "no_tool_calls");
    const tools = toolMessages(h.provider.requests[1]!.body);
    assert.deepEqual(JSON.parse(tools[0].content), { error: "denied", message: "not allowed here" });
    assert.deepEqual(JSON.parse(tools[1].content), { echoed: { text: "x" } });
  });

  test("when every call is denied the loop ends with reason all_denied", async () => {
    h = await kernelHarness([{ content: "trying", toolCalls: [call("c1"), call("c2")] }, { content: "never asked" }]);
    h.kernel.addParticipant({ name: "deny-all", hooks: { before_toolcall: () => ({ deny: "no" }) } });
    const session = await h.kernel.sessions.open("test", "carol");
    const result = await h.kernel.turn({ session, input: "go" });
    assert.equal(result.stopReason, "all_denied");
    assert.equal(result.text, "trying");
    assert.equal(h.provider.requests.length, 1);
  });

  test("before_toolcall can rewrite arguments, after_toolcall can redact the result", async () => {
    h = await kernelHarness([{ toolCalls: [call("c1", "secret")] }, { content: "ok" }]);
    h.kernel.addParticipant({
      name: "rewriter",
      hooks: {
        before_toolcall: () => ({ arguments: JSON.stringify({ text: "rewritten" }) }),
        after_toolcall: (p) => ({ result: p.result.replace("rewritten", "[redacted]") }),
      },
    });
    const session = await h.kernel.sessions.open("test", "dan");
    await h.kernel.turn({ session, input: "go" });
    const second = h.provider.requests[1]!.body.messages;
    const assistant = second.find((m: any) => m.tool_calls);
    assert.equal(assistant.tool_calls[0].function.arguments, '{"text":"rewritten"}', "history records the arguments that ran");
    assert.deepEqual(JSON.parse(toolMessages(h.provider.requests[1]!.body)[0].content), { echoed: { text: "[redacted]" } });
  });

  test("post_action can redirect the model's calls to other calls", async () => {
    h = await kernelHarness([{ toolCalls: [{ id: "c1", name: "dangerous", arguments: "{}" }] }, { content: "ok" }]);
    h.kernel.addParticipant({
      name: "redirect",
      hooks: {
        post_action: (p) => (p.message.tool_calls ? { message: { ...p.message, tool_calls: [{ id: "c1", type: "function", function: { name: "echo", arguments: '{"text":"safe"}' } }] } } : undefined),
      },
    });
    const session = await h.kernel.sessions.open("test", "erin");
    await h.kernel.turn({ session, input: "go" });
    assert.deepEqual(JSON.parse(toolMessages(h.provider.requests[1]!.body)[0].content), { echoed: { text: "safe" } });
  });

  test("the loop stops at the iteration limit with that reason", async () => {
    let n = 0;
    h = await kernelHarness(() => ({ toolCalls: [call(`c${n++}`)] }), { maxIterations: 3 });
    const session = await h.kernel.sessions.open("test", "fay");
    const result = await h.kernel.turn({ session, input: "loop forever" });
    assert.equal(result.stopReason, "iteration_limit");
    assert.equal(result.iterations, 3);
    assert.equal(h.provider.requests.length, 3);
  });

  test("on_input can block (nothing stored, no model call) or answer without the model", async () => {
    h = await kernelHarness([]);
    h.kernel.addParticipant({ name: "gate", hooks: { on_input: (p) => (p.input === "spam" ? { block: "rate limited" } : p.input === "ping" ? { reply: "pong" } : undefined) } });
    const session = await h.kernel.sessions.open("test", "gus");
    assert.deepEqual(await h.kernel.turn({ session, input: "spam" }), { text: "", stopReason: "blocked", iterations: 0, toolCalls: 0, reason: "rate limited" });
    assert.equal((await h.kernel.turn({ session, input: "ping" })).text, "pong");
    assert.equal(h.provider.requests.length, 0);
    const rows = await h.store.client.execute({ sql: "SELECT text FROM events WHERE session_id = ? ORDER BY seq", args: [session.id] });
    assert.deepEqual(
      rows.rows.map((r) => r.text),
      ["ping", "pong"],
    );
  });

  test("a participant that misses its deadline is skipped (continue) or ends the turn (fail)", async () => {
    h = await kernelHarness(() => ({ content: "fine" }));
    const hang = () => new Promise<never>(() => {});
    h.kernel.addParticipant({ name: "slow", deadlineMs: 50, hooks: { pre_action: hang } });
    const session = await h.kernel.sessions.open("test", "hal");
    assert.equal((await h.kernel.turn({ session, input: "a" })).text, "fine");
    assert.ok(h.logs.some((l) => /stage pre_action: participant slow failed and was skipped: missed its 50 ms deadline/.test(l)));
    h.kernel.addParticipant({ name: "strict", deadlineMs: 50, onFailure: "fail", hooks: { before_output: hang } });
    await assert.rejects(h.kernel.turn({ session, input: "b" }), (e: StageError) => e instanceof StageError && e.stage === "before_output");
  });
});

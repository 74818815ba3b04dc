/**
 * A client-tools turn paused across a daemon restart: the `openai` SDK gets the tool call, the
 * daemon is killed (SIGKILL, as a crash or an OOM kill would) and started again on the same data
 * folder, and the client's results still finish the turn — the round stored once, history valid.
 */
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { join } from "node:path";
import OpenAI from "openai";
import { openStore } from "../../src/store/index.ts";
import { startApiDaemon, type ApiDaemon } from "../support/api-daemon.ts";
import { startScriptedProvider, type ReceivedRequest, type ScriptedProvider, type Step } from "../support/scripted-provider.ts";
import { tempDir, type TempDir } from "../support/temp-dir.ts";

/** A question about the weather calls the client's tool until its result is in; then the answer quotes it. */
const script = (r: ReceivedRequest): Step => {
  const result = r.body.messages.find((m: any) => m.role === "tool" && m.tool_call_id === "call-w")?.content;
  if (result) return { content: `it is ${result}` };
  const asked = String(r.body.messages.at(-1).content);
  return asked.includes("weather") ? { toolCalls: [{ id: "call-w", name: "get_weather", arguments: '{"city":"Oslo"}' }] } : { content: "fine" };
};

const weather = { type: "function" as const, function: { name: "get_weather", parameters: { type: "object", properties: { city: { type: "string" } } } } };

describe("a paused client-tools turn and a daemon restart", () => {
  let dir: TempDir;
  let provider: ScriptedProvider;
  let daemon: ApiDaemon;
  const sdk = () => new OpenAI({ baseURL: `${daemon.url}/v1`, apiKey: daemon.headers.authorization!.slice("Bearer ".length), maxRetries: 0 });

  before(async () => {
    dir = tempDir("homed-paused-restart-");
    provider = await startScriptedProvider(script);
    daemon = await startApiDaemon(dir.path, provider.url);
  });
  after(async () => {
    await daemon?.stop();
    await provider?.close();
    dir?.remove();
  });

  test("the tool results sent after the restart finish the turn; sent twice, the second is refused; no secret kept on disk", async () => {
    const secret = "sk-proj-Zq8vN2xLk4Rt7Wm1Yp3Hs6Dj9Fg0Bc5A";
    const question = { role: "user" as const, content: `weather in Oslo? (my key is ${secret})` };
    const paused = await sdk().chat.completions.create({ model: "homed", user: "restart", tools: [weather], messages: [question] });
    assert.equal(paused.choices[0]!.finish_reason, "tool_calls");
    const calls = paused.choices[0]!.message.tool_calls!;
    assert.deepEqual(
      calls.map((c) => c.id),
      ["call-w"],
    );

    await daemon.stop("SIGKILL");
    // The paused round is on disk, with the secret in the user's input masked.
    const store = await openStore({ url: `file:${join(dir.path, "homed.db")}` });
    const rows = (await store.client.execute("SELECT round FROM paused_turns")).rows.map((r) => String(r.round));
    store.close();
    assert.equal(rows.length, 1);
    assert.ok(!rows[0]!.includes(secret) && rows[0]!.includes("[secret masked: openai-key]"), rows[0]!);
    daemon = await startApiDaemon(dir.path, provider.url);

    const messages = [question, { role: "assistant" as const, content: null, tool_calls: calls }, { role: "tool" as const, tool_call_id: "call-w", content: "sunny" }];
    const resumed = await sdk().chat.completions.create({ model: "homed", user: "restart", tools: [weather], messages });
    assert.deepEqual([resumed.choices[0]!.message.content, resumed.choices[0]!.finish_reason], ["it is sunny", "stop"]);
    assert.deepEqual(provider.sequenceErrors, []);
    const last = provider.requests.at(-1)!.body.messages.slice(-3);
    assert.deepEqual(
      last.map((m: any) => m.role),
      ["user", "assistant", "tool"],
      "the model saw the question, its call and the result",
    );

    const sessions = (await (await fetch(`${daemon.url}/api/sessions`, { headers: daemon.headers })).json()) as { sessions: { id: string; partner: string }[] };
    const id = sessions.sessions.find((s) => s.partner === "restart")!.id;
    const stored = JSON.parse(await (await fetch(`${daemon.url}/api/sessions/${id}/context`, { headers: daemon.headers })).text()).flatMap((e: { messages: object[] }) => e.messages);
    assert.deepEqual(
      stored.map((m: { role: string }) => m.role),
      ["user", "assistant", "tool", "assistant"],
      "the round stored once, whole",
    );

    const again = await sdk()
      .chat.completions.create({ model: "homed", user: "restart", tools: [weather], messages })
      .catch((e) => e);
    assert.ok(again instanceof OpenAI.BadRequestError, String(again));
    assert.match(again.message, /^400 No turn of this session is waiting for tool results/);
  });

  test("a new message leaves the paused round behind: its results are refused, nothing of it is stored", async () => {
    const question = { role: "user" as const, content: "weather again?" };
    const paused = await sdk().chat.completions.create({ model: "homed", user: "moved-on", tools: [weather], messages: [question] });
    const calls = paused.choices[0]!.message.tool_calls!;
    // The client moved on: a plain question, no tools.
    await sdk().chat.completions.create({ model: "homed", user: "moved-on", messages: [{ role: "user", content: "never mind" }] });
    await daemon.stop("SIGKILL");
    daemon = await startApiDaemon(dir.path, provider.url);
    const late = await sdk()
      .chat.completions.create({
        model: "homed",
        user: "moved-on",
        tools: [weather],
        messages: [question, { role: "assistant", content: null, tool_calls: calls }, { role: "tool", tool_call_id: "call-w", content: "rain" }],
      })
      .catch((e) => e);
    assert.match(late.message, /^400 No turn of this session is waiting for tool results/);
    const sessions = (await (await fetch(`${daemon.url}/api/sessions`, { headers: daemon.headers })).json()) as { sessions: { id: string; partner: string }[] };
    const id = sessions.sessions.find((s) => s.partner === "moved-on")!.id;
    const stored = JSON.parse(await (await fetch(`${daemon.url}/api/sessions/${id}/context`, { headers: daemon.headers })).text()).flatMap((e: { messages: object[] }) => e.messages);
    assert.deepEqual(
      stored.map((m: { role: string; content: string }) => `${m.role}: ${m.content}`),
      ["user: weather again?", "user: never mind", "assistant: fine"],
    );
  });
});

/**
 * `POST /v1/responses` against a real daemon (from source, loopback HTTP) and a scripted provider,
 * through the clients that default to it: the official `openai` SDK (`responses.create`, plain and
 * streamed, a function tool's round trip, `previous_response_id`), the OpenAI Agents SDK (its
 * default OpenAIResponsesModel) and the AI SDK's default `createOpenAI()(model)` (generateText,
 * streamText). And the privacy rule attacked: another partner's key continuing alice's response.
 */
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import OpenAI from "openai";
import { Agent, OpenAIProvider, Runner, setTracingDisabled, tool } from "@openai/agents";
import { createOpenAI } from "@ai-sdk/openai";
import { generateText, jsonSchema, stepCountIs, streamText, tool as aiTool } from "ai";
import { z } from "zod";
import { startApiDaemon, type ApiDaemon } from "../support/api-daemon.ts";
import { startScriptedProvider, type ReceivedRequest, type ScriptedProvider, type Step } from "../support/scripted-provider.ts";
import { tempDir, type TempDir } from "../support/temp-dir.ts";

const textOf = (content: unknown): string =>
  typeof content === "string"
    ? content
    : Array.isArray(content)
      ? content
          .filter((p) => p.type === "text")
          .map((p) => p.text)
          .join("\n")
      : "";
const lastUser = (r: ReceivedRequest) => textOf([...r.body.messages].reverse().find((m: any) => m.role === "user")?.content);

/**
 * The model: "WEATHER…" calls the client's get_weather until it is answered in this turn, then
 * quotes the result; "FAIL…" is refused by the provider; anything else is echoed.
 */
function script(r: ReceivedRequest): Step {
  const input = lastUser(r);
  const turn = r.body.messages.slice(r.body.messages.findLastIndex((m: any) => m.role === "user"));
  const answer = turn.find((m: any) => m.role === "tool" && m.tool_call_id === "call-w")?.content;
  if (input.startsWith("FAIL")) return { status: 400, body: JSON.stringify({ error: { message: "the provider refuses this" } }) };
  if (input.startsWith("WEATHER") && !answer) return { toolCalls: [{ id: "call-w", name: "get_weather", arguments: '{"city":"Oslo"}' }] };
  return { content: `echo: ${input}${answer ? ` (${answer})` : ""}` };
}

const WEATHER_TOOL = {
  type: "function" as const,
  name: "get_weather",
  description: "The weather in a city",
  parameters: { type: "object", properties: { city: { type: "string" } }, required: ["city"] },
  strict: false,
};

describe("/v1/responses", () => {
  let dir: TempDir;
  let provider: ScriptedProvider;
  let daemon: ApiDaemon;
  let client: OpenAI;
  const keys: Record<string, string> = {};
  const requestsFor = (input: string) => provider.requests.filter((r) => lastUser(r) === input);
  const admin = (path: string, init: RequestInit = {}) => fetch(`${daemon.url}${path}`, { ...init, headers: daemon.headers });
  const sessionOf = async (partner: string) => {
    const sessions = (await (await admin("/api/sessions")).json()) as { sessions: { id: string; channel: string; partner: string }[] };
    return sessions.sessions.find((s) => s.channel === "openai" && s.partner === partner)?.id;
  };
  const sessionDump = async (id: string) => await (await admin(`/api/sessions/${id}/context`)).text();

  before(async () => {
    dir = tempDir("homed-responses-");
    provider = await startScriptedProvider(script);
    daemon = await startApiDaemon(dir.path, provider.url);
    client = new OpenAI({ baseURL: `${daemon.url}/v1`, apiKey: daemon.headers.authorization!.slice("Bearer ".length), maxRetries: 0 });
    for (const partner of ["alice", "app2"]) {
      const made = await admin("/api/keys", { method: "POST", body: JSON.stringify({ name: `${partner}-app`, partner, scopes: ["v1"] }) });
      assert.equal(made.status, 201);
      keys[partner] = ((await made.json()) as { key: string }).key;
    }
  });
  after(async () => {
    await daemon?.stop();
    await provider?.close();
    dir?.remove();
  });

  test("openai SDK: the answer, its usage and id; instructions join the system prompt", async () => {
    const answer = await client.responses.create({ model: "homed", user: "plain", instructions: "Answer in one line.", input: "hello there" });
    assert.equal(answer.output_text, "echo: hello there");
    assert.equal(answer.status, "completed");
    assert.match(answer.id, /^resp_[0-9a-f]{64}$/);
    assert.deepEqual(answer.usage, { input_tokens: 10, input_tokens_details: { cached_tokens: 0 }, output_tokens: 5, output_tokens_details: { reasoning_tokens: 0 }, total_tokens: 15 });
    assert.deepEqual(
      answer.output.map((o) => o.type),
      ["message"],
    );
    const sent = requestsFor("hello there")[0]!.body.messages;
    assert.equal(sent[0].role, "system");
    assert.match(sent[0].content, /Answer in one line\.$/);
  });

  test("openai SDK stream: the events in the Responses order, deltas adding up to the answer", async () => {
    const stream = await client.responses.create({ model: "homed", user: "streamed", input: "stream this please", stream: true });
    const events = [];
    for await (const event of stream) events.push(event);
    const types = events.map((e) => e.type).filter((t, i, all) => t !== "response.output_text.delta" || all[i - 1] !== t);
    assert.deepEqual(types, [
      "response.created",
      "response.in_progress",
      "response.output_item.added",
      "response.content_part.added",
      "response.output_text.delta",
      "response.output_text.done",
      "response.content_part.done",
      "response.output_item.done",
      "response.completed",
    ]);
    assert.deepEqual(
      events.map((e) => e.sequence_number),
      events.map((_, i) => i),
    );
    const deltas = events.filter((e) => e.type === "response.output_text.delta");
    assert.ok(deltas.length > 1, "the text came in pieces");
    assert.equal(deltas.map((e) => e.delta).join(""), "echo: stream this please");
    const done = events.at(-1) as OpenAI.Responses.ResponseCompletedEvent;
    assert.equal(done.response.output_text ?? done.response.output.map((o) => (o.type === "message" ? (o.content[0] as { text: string }).text : "")).join(""), "echo: stream this please");
    assert.equal(done.response.usage?.total_tokens, 15);

    const helper = client.responses.stream({ model: "homed", user: "streamed", input: "stream again" });
    assert.equal((await helper.finalResponse()).output_text, "echo: stream again");

    // A client tool's call: a function_call item with its arguments, and the turn waits for its output.
    const calls = await client.responses.create({ model: "homed", user: "streamed-tools", input: "WEATHER streamed", tools: [WEATHER_TOOL], stream: true });
    const callEvents = [];
    for await (const event of calls) callEvents.push(event);
    assert.deepEqual(
      callEvents.map((e) => e.type),
      [
        "response.created",
        "response.in_progress",
        "response.output_item.added",
        "response.function_call_arguments.delta",
        "response.function_call_arguments.done",
        "response.output_item.done",
        "response.completed",
      ],
    );
    const paused = (callEvents.at(-1) as OpenAI.Responses.ResponseCompletedEvent).response.output;
    assert.deepEqual(paused, [{ type: "function_call", id: "fc_call-w", call_id: "call-w", name: "get_weather", arguments: '{"city":"Oslo"}', status: "completed" }]);

    // A turn that fails once the stream began ends it with an error event, which the SDK throws.
    const failing = await client.responses.create({ model: "homed", user: "streamed", input: "FAIL now", stream: true });
    const seen: string[] = [];
    const thrown = await (async () => {
      for await (const event of failing) seen.push(event.type);
    })().catch((e) => e);
    assert.ok(thrown instanceof OpenAI.APIError, String(thrown));
    assert.match(thrown.message, /the provider refuses this/);
    assert.deepEqual(seen, ["response.created", "response.in_progress"]);
  });

  test("openai SDK: a function tool's call pauses the turn; its output with previous_response_id finishes it", async () => {
    const asked = await client.responses.create({ model: "homed", user: "tools", input: "WEATHER in Oslo?", tools: [WEATHER_TOOL] });
    const call = asked.output.find((o) => o.type === "function_call");
    assert.ok(call && call.type === "function_call", JSON.stringify(asked.output));
    assert.deepEqual([call.call_id, call.name, call.arguments], ["call-w", "get_weather", '{"city":"Oslo"}']);
    const names = requestsFor("WEATHER in Oslo?")[0]!.body.tools.map((t: any) => t.function.name);
    assert.ok(names.includes("get_weather") && names.includes("memory_recall"), names.join(","));

    const finished = await client.responses.create({
      model: "homed",
      previous_response_id: asked.id,
      input: [{ type: "function_call_output", call_id: call.call_id, output: "sunny in Oslo" }],
      tools: [WEATHER_TOOL],
    });
    assert.equal(finished.output_text, "echo: WEATHER in Oslo? (sunny in Oslo)");
    assert.equal(finished.previous_response_id, asked.id);
    assert.deepEqual(provider.sequenceErrors, []);
  });

  test("previous_response_id continues homed's stored session; a store: false response cannot be continued", async () => {
    const first = await client.responses.create({ model: "homed", user: "cont", input: "my name is Ada" });
    const second = await client.responses.create({ model: "homed", previous_response_id: first.id, input: "what is my name?" });
    assert.equal(second.output_text, "echo: what is my name?");
    const shown = JSON.stringify(requestsFor("what is my name?")[0]!.body.messages);
    assert.match(shown, /my name is Ada/, "the model saw the stored turn the response came from");
    assert.equal(second.id.slice(0, 37), first.id.slice(0, 37), "the same session");

    const unstored = await client.responses.create({ model: "homed", user: "cont", store: false, input: "forget me not" });
    assert.match(unstored.id, /^resp_[0-9a-f]{32}$/);
    const refused = await client.responses.create({ model: "homed", previous_response_id: unstored.id, input: "and now?" }).catch((e) => e);
    assert.ok(refused instanceof OpenAI.NotFoundError);
    assert.deepEqual([refused.code, refused.param], ["previous_response_not_found", "previous_response_id"]);
    const more = await client.responses
      .create({
        model: "homed",
        previous_response_id: first.id,
        input: [
          { role: "user", content: "one" },
          { role: "user", content: "two" },
        ],
      })
      .catch((e) => e);
    assert.deepEqual([more.status, more.param], [400, "input"]);
    assert.match(more.message, /send only what is new/);
  });

  test("a session named by X-Homed-Session: its stored history, and the request's instructions still reach the model (chat completions too)", async () => {
    const first = await client.responses.create({ model: "homed", user: "named", input: "the boat is called Ada" });
    const session = first.id.slice(5, 37).replace(/^(.{8})(.{4})(.{4})(.{4})/, "$1-$2-$3-$4-");
    assert.equal(session, await sessionOf("named"));
    const headers = { headers: { "x-homed-session": session } };
    const next = await client.responses.create({ model: "homed", instructions: "Speak like a sailor.", input: "what is the boat called?" }, headers);
    assert.equal(next.output_text, "echo: what is the boat called?");
    const [sent] = requestsFor("what is the boat called?");
    assert.match(sent!.body.messages[0].content, /Speak like a sailor\.$/);
    assert.match(JSON.stringify(sent!.body.messages), /the boat is called Ada/);
    await client.chat.completions.create(
      {
        model: "homed",
        messages: [
          { role: "system", content: "Speak like a pirate." },
          { role: "user", content: "and its colour?" },
        ],
      },
      headers,
    );
    assert.match(requestsFor("and its colour?")[0]!.body.messages[0].content, /Speak like a pirate\.$/);
    const both = await client.responses.create({ model: "homed", previous_response_id: first.id, input: "x" }, headers).catch((e) => e);
    assert.deepEqual([both.status, both.param], [400, "previous_response_id"]);
  });

  test("OpenAI Agents SDK: an agent with a function tool, on its default Responses model, runs through homed", async () => {
    setTracingDisabled(true);
    // The provider with only a base URL and a key, as a user points it elsewhere: its default model is the Responses one (on its own openai 7 client).
    const runner = new Runner({ modelProvider: new OpenAIProvider({ baseURL: `${daemon.url}/v1`, apiKey: keys.alice! }) });
    const cities: string[] = [];
    const weather = tool({
      name: "get_weather",
      description: "The weather in a city",
      parameters: z.object({ city: z.string() }),
      execute: async ({ city }) => {
        cities.push(city);
        return `rainy in ${city}`;
      },
    });
    const agent = new Agent({ name: "Forecaster", instructions: "You give forecasts.", model: "homed", tools: [weather] });
    const result = await runner.run(agent, "WEATHER in Oslo today?");
    assert.equal(result.finalOutput, "echo: WEATHER in Oslo today? (rainy in Oslo)");
    assert.deepEqual(cities, ["Oslo"]);
    const streamed = await runner.run(agent, "WEATHER in Oslo tomorrow?", { stream: true });
    let text = "";
    for await (const event of streamed.toTextStream()) text += event;
    await streamed.completed;
    assert.equal(text, "echo: WEATHER in Oslo tomorrow? (rainy in Oslo)");
    // The SDK's server-managed conversation: each model call continues the last response by id.
    const chained = await runner.run(agent, "WEATHER in Oslo at noon?", { previousResponseId: result.lastResponseId });
    assert.equal(chained.finalOutput, "echo: WEATHER in Oslo at noon? (rainy in Oslo)");
    assert.deepEqual(cities, ["Oslo", "Oslo", "Oslo"]);
    assert.match(JSON.stringify(requestsFor("WEATHER in Oslo at noon?")[0]!.body.messages), /WEATHER in Oslo today\?/, "the model saw the earlier run's turn");
    assert.deepEqual(provider.sequenceErrors, []);
    assert.ok(await sessionOf("alice"), "the key's partner talked");
  });

  test("AI SDK 6: the default provider's model (the Responses API) in generateText with a tool, and streamText", async () => {
    const homed = createOpenAI({ baseURL: `${daemon.url}/v1`, apiKey: keys.app2! });
    const cities: string[] = [];
    const weather = aiTool({
      description: "The weather in a city",
      inputSchema: jsonSchema<{ city: string }>({ type: "object", properties: { city: { type: "string" } }, required: ["city"] }),
      execute: async ({ city }) => {
        cities.push(city);
        return `windy in ${city}`;
      },
    });
    const generated = await generateText({
      model: homed("homed"),
      prompt: "WEATHER in Oslo, please?",
      tools: { get_weather: weather },
      stopWhen: stepCountIs(3),
    });
    assert.equal(generated.text, "echo: WEATHER in Oslo, please? (windy in Oslo)");
    assert.deepEqual(cities, ["Oslo"]);
    // Two steps: the call (one model call), then the resumed turn, whose usage covers the whole turn (both calls).
    assert.deepEqual([generated.totalUsage.inputTokens, generated.totalUsage.outputTokens], [30, 15]);

    // A conversation the app keeps: the SDK sends homed's earlier answer back as an item_reference (its default store: true).
    const sent: any[] = [];
    const watched = createOpenAI({
      baseURL: `${daemon.url}/v1`,
      apiKey: keys.app2!,
      fetch: (async (url: string, init?: RequestInit) => {
        sent.push(JSON.parse(String(init?.body)));
        return await fetch(url, init);
      }) as typeof fetch,
    });
    const opening = await generateText({ model: watched("homed"), prompt: "remember the lighthouse" });
    const followUp = await generateText({
      model: watched("homed"),
      messages: [{ role: "user", content: "remember the lighthouse" }, ...opening.response.messages, { role: "user", content: "what did you answer?" }],
    });
    assert.equal(followUp.text, "echo: what did you answer?");
    assert.deepEqual(sent[1].input[1], { type: "item_reference", id: (opening.response.body as any).output[0].id });
    const seen = requestsFor("what did you answer?")[0]!.body.messages.slice(1);
    assert.deepEqual(seen, [
      { role: "user", content: "remember the lighthouse" },
      { role: "assistant", content: "echo: remember the lighthouse" },
      { role: "user", content: "what did you answer?" },
    ]);

    const streamed = streamText({ model: homed("homed"), system: "Be kind.", prompt: "stream with the AI SDK" });
    let text = "";
    for await (const piece of streamed.textStream) text += piece;
    assert.equal(text, "echo: stream with the AI SDK");
    assert.equal((await streamed.usage).totalTokens, 15);
    assert.match(requestsFor("stream with the AI SDK")[0]!.body.messages[0].content, /Be kind\.$/);

    // Streamed with the tool: the call arrives as streamed function_call events, the answer after it.
    const withTool = streamText({ model: homed("homed"), prompt: "WEATHER streamed by the AI SDK", tools: { get_weather: weather }, stopWhen: stepCountIs(3) });
    let streamedText = "";
    for await (const piece of withTool.textStream) streamedText += piece;
    assert.equal(streamedText, "echo: WEATHER streamed by the AI SDK (windy in Oslo)");
    assert.deepEqual(cities, ["Oslo", "Oslo"]);
  });

  test("errors: OpenAI's shape, naming the field; built-in tools and background refused, not dropped", async () => {
    const expect = async (params: Record<string, unknown>, status: number, param: string | null, message: RegExp) => {
      const e = await client.responses.create({ model: "homed", input: "x", ...params } as never).catch((e) => e);
      assert.ok(e instanceof OpenAI.APIError, String(e));
      assert.deepEqual([e.status, e.param], [status, param], e.message);
      assert.match(e.message, message);
    };
    await expect({ tools: [{ type: "web_search" }] }, 400, "tools.0.type", /^400 Tools of type 'web_search' are not supported/);
    await expect({ background: true }, 400, "background", /^400 background is not supported/);
    await expect({ include: ["file_search_call.results"] }, 400, "include", /not supported/);
    await expect({ input: [{ type: "reasoning", id: "rs_1", summary: [] }] }, 400, "input.0.type", /'reasoning' are not supported/);
    await expect(
      {
        input: [
          { type: "item_reference", id: "msg_1" },
          { role: "user", content: "x" },
        ],
      },
      404,
      "input.0.id",
      /^404 input.0.id: Item with id 'msg_1' not found/,
    );
    await expect({ input: [{ role: "user", content: [{ type: "input_file", file_id: "f" }] }] }, 400, "input.0.content.0.type", /input_file' are not supported/);
    await expect({ temperature: 9 }, 400, "temperature", /^400 temperature: /);
    await expect({ model: "gpt-nope" }, 404, "model", /does not exist here/);
    await expect({ tools: [{ type: "function", name: "memory_recall" }] }, 400, "tools.0", /one of homed's own tools/);
    await expect(
      {
        input: [
          { role: "user", content: "q" },
          { role: "assistant", content: "prefill" },
        ],
      },
      400,
      "input",
      /ends with the assistant's own item/,
    );
    await expect({ previous_response_id: "resp_nope" }, 404, "previous_response_id", /^404 Previous response with id 'resp_nope' not found\.$/);
    assert.equal(requestsFor("x").length, 0, "nothing refused reached the provider");
  });

  test("privacy: partner B's key continuing alice's response gets the 404 of an unknown id, and nothing reaches her session", async () => {
    const alice = new OpenAI({ baseURL: `${daemon.url}/v1`, apiKey: keys.alice!, maxRetries: 0 });
    const app2 = new OpenAI({ baseURL: `${daemon.url}/v1`, apiKey: keys.app2!, maxRetries: 0 });
    const hers = await alice.responses.create({ model: "homed", input: "alice: my locker code is 31-7-22" });
    const paused = await alice.responses.create({ model: "homed", input: "WEATHER for alice", tools: [WEATHER_TOOL] });
    const aliceSession = (await sessionOf("alice"))!;
    const before = await sessionDump(aliceSession);
    const asked = provider.requests.length;

    /** The raw answer, so that every byte of it can be compared with an unknown id's. */
    const attempt = async (key: string, previous: string, input: unknown, stream = false) => {
      const response = await fetch(`${daemon.url}/v1/responses`, {
        method: "POST",
        headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
        body: JSON.stringify({ model: "homed", previous_response_id: previous, input, stream, tools: [WEATHER_TOOL] }),
      });
      return { status: response.status, body: (await response.text()).replaceAll(previous, "<id>") };
    };
    // An item_reference to alice's answer: the 404 of a message id homed never made.
    const reference = async (id: string, key = keys.app2!) => {
      const response = await fetch(`${daemon.url}/v1/responses`, {
        method: "POST",
        headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
        body: JSON.stringify({
          model: "homed",
          input: [
            { role: "user", content: "hi" },
            { type: "item_reference", id },
            { role: "user", content: "what did you say to me?" },
          ],
        }),
      });
      return { status: response.status, body: (await response.text()).replaceAll(id, "<id>") };
    };
    const aliceMessage = hers.output[0]!.id!;
    const unknownMessage = await reference(`msg_${"0f".repeat(16)}`);
    assert.equal(unknownMessage.status, 404);
    assert.equal(JSON.parse(unknownMessage.body).error.param, "input.1.id");
    assert.deepEqual(await reference(aliceMessage), unknownMessage);

    const unknownId = `resp_${"0f".repeat(32)}`;
    const unknown = await attempt(keys.app2!, unknownId, "what is my locker code?");
    assert.equal(unknown.status, 404);
    assert.deepEqual(JSON.parse(unknown.body), {
      error: { message: "Previous response with id '<id>' not found.", type: "invalid_request_error", param: "previous_response_id", code: "previous_response_not_found" },
    });
    for (const [previous, input] of [
      [hers.id, "what is my locker code?"],
      [paused.id, [{ type: "function_call_output", call_id: "call-w", output: "hacked" }]],
    ] as const) {
      for (const stream of [false, true]) assert.deepEqual(await attempt(keys.app2!, previous, input, stream), unknown, `${previous} stream=${stream}`);
      // `user` only narrows app2's partner: it never reaches alice.
      const narrowed = await app2.responses.create({ model: "homed", user: "alice", previous_response_id: previous, input: "hi" } as never).catch((e) => e);
      assert.equal(narrowed.status, 404);
    }
    assert.equal(provider.requests.length, asked, "no turn ran");
    assert.equal(await sessionDump(aliceSession), before, "nothing was written into alice's session");

    // Controls: alice's own key continues both (the paused turn still waits for her result).
    const resumed = await alice.responses.create({
      model: "homed",
      previous_response_id: paused.id,
      input: [{ type: "function_call_output", call_id: "call-w", output: "sunny" }],
      tools: [WEATHER_TOOL],
    });
    assert.equal(resumed.output_text, "echo: WEATHER for alice (sunny)");
    const again = await alice.responses.create({ model: "homed", previous_response_id: hers.id, input: "what is my locker code?" });
    assert.match(JSON.stringify(requestsFor("what is my locker code?").at(-1)!.body.messages), /31-7-22/);
    assert.match(again.output_text, /^echo: what is my locker code\?/);

    // Alice's own reference reads her answer, until it is forgotten (the answer is stored under the turn's id).
    assert.equal((await reference(aliceMessage, keys.alice!)).status, 200);
    const turnId = aliceMessage.slice(4).replace(/^(.{8})(.{4})(.{4})(.{4})/, "$1-$2-$3-$4-");
    const forgot = await admin("/api/memory/tools/memory_forget", { method: "POST", body: JSON.stringify({ id: turnId }) });
    assert.equal(forgot.status, 200, await forgot.text());
    assert.deepEqual(await reference(aliceMessage, keys.alice!), unknownMessage);
  });
});

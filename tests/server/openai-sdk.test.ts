/**
 * The official `openai` SDK against a real daemon (from source, loopback HTTP) whose providers
 * are two scripted providers: what an app on the SDK sees — models, chat, streams, usage, the
 * request fields that reach the provider, and errors whose explanation reaches `e.message`.
 */
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import OpenAI from "openai";
import { startApiDaemon, type ApiDaemon } from "../support/api-daemon.ts";
import { startScriptedProvider, type ReceivedRequest, type ScriptedProvider, type Step } from "../support/scripted-provider.ts";
import { tempDir, type TempDir } from "../support/temp-dir.ts";

/** A message's text: a string, or its text parts joined (image parts left out). */
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

/** Two tiny PNGs (1×1, red and blue) as data URLs: what a vision client pastes. */
const RED_DOT = "data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==";
const BLUE_DOT = "data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPj/HwADBwIAMCbHYQAAAABJRU5ErkJggg==";

/**
 * Answers "<provider>: <input>". First, until they are answered: "TOOL…" calls homed's
 * memory_stats, "WEATHER…" the client's get_weather, "MIXED…" both in one round; the answer then
 * quotes the client tool's result. "LONG…" is cut at max_tokens (finish_reason "length").
 */
const script =
  (name: string) =>
  (r: ReceivedRequest): Step => {
    const input = lastUser(r);
    const answer = (id: string) => r.body.messages.find((m: any) => m.role === "tool" && m.tool_call_id === id)?.content;
    if (input.startsWith("TOOL") && !answer("call-1")) return { toolCalls: [{ id: "call-1", name: "memory_stats", arguments: "{}" }] };
    if (input.startsWith("WEATHER") && !answer("call-w")) return { toolCalls: [{ id: "call-w", name: "get_weather", arguments: '{"city":"Oslo"}' }] };
    if (input.startsWith("MIXED") && !answer("call-c")) {
      return {
        toolCalls: [
          { id: "call-m", name: "memory_stats", arguments: "{}" },
          { id: "call-c", name: "get_weather", arguments: '{"city":"Bergen"}' },
        ],
      };
    }
    // "LONG…": the model stops at max_tokens, mid-sentence.
    if (input.startsWith("LONG")) return { content: `${name}: the answer was cut sh`, finishReason: "length" };
    const quoted = answer("call-w") ?? answer("call-c");
    return { content: `${name}: ${input}${quoted ? ` (${quoted})` : ""}` };
  };

/** The client's tool, as the SDK's runTools takes it: it runs in the test, never in homed. */
const weatherTool = (seen: string[]) => ({
  type: "function" as const,
  function: {
    name: "get_weather",
    description: "The weather in a city",
    parameters: { type: "object", properties: { city: { type: "string" } }, required: ["city"] },
    parse: JSON.parse,
    function: async ({ city }: { city: string }) => {
      seen.push(city);
      return `sunny in ${city}`;
    },
  },
});

describe("the openai SDK against homed's /v1", () => {
  let dir: TempDir;
  let first: ScriptedProvider;
  let second: ScriptedProvider;
  let daemon: ApiDaemon;
  let client: OpenAI;
  /** The requests a provider got for one input. */
  const requestsFor = (provider: ScriptedProvider, input: string) => provider.requests.filter((r) => lastUser(r) === input);

  before(async () => {
    dir = tempDir("homed-openai-sdk-");
    first = await startScriptedProvider(script("first"));
    second = await startScriptedProvider(script("second"));
    daemon = await startApiDaemon(dir.path, first.url);
    const added = await fetch(`${daemon.url}/api/providers`, {
      method: "POST",
      headers: daemon.headers,
      body: JSON.stringify({ name: "Second", baseUrl: second.url, model: "second-model" }),
    });
    assert.equal(added.status, 201);
    // Adding a provider while the environment's is in use makes the new one active: put it back.
    await fetch(`${daemon.url}/api/providers/env/activate`, { method: "POST", headers: daemon.headers });
    client = new OpenAI({ baseURL: `${daemon.url}/v1`, apiKey: daemon.headers.authorization!.slice("Bearer ".length), maxRetries: 0 });
  });
  after(async () => {
    await daemon?.stop();
    await first?.close();
    await second?.close();
    dir?.remove();
  });

  test("models: homed and each configured provider, listed and retrieved; an unknown one is model_not_found", async () => {
    const ids = [];
    for await (const model of client.models.list()) ids.push(model.id);
    assert.deepEqual(ids.slice(0, 2), ["homed", "scripted"]);
    assert.ok(ids.includes("second-model"), ids.join(","));
    const one = await client.models.retrieve("second-model");
    assert.deepEqual([one.id, one.object, one.owned_by], ["second-model", "model", "Second"]);
    const missing = await client.models.retrieve("gpt-nope").catch((e) => e);
    assert.ok(missing instanceof OpenAI.NotFoundError);
    assert.equal(missing.code, "model_not_found");
    assert.match(missing.message, /^404 The model 'gpt-nope' does not exist here/);
  });

  test("chat: the answer with usage; model picks the provider; the honoured fields reach it", async () => {
    const answer = await client.chat.completions.create({ model: "homed", messages: [{ role: "user", content: "hello one" }] });
    assert.equal(answer.choices[0]!.message.content, "first: hello one");
    assert.equal(answer.choices[0]!.finish_reason, "stop");
    assert.deepEqual(answer.usage, { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 });
    assert.equal(answer.model, "homed");

    const params = {
      temperature: 0.3,
      top_p: 0.9,
      max_tokens: 77,
      max_completion_tokens: 88,
      stop: ["END"],
      seed: 42,
      response_format: { type: "json_object" as const },
      tool_choice: "auto" as const,
      parallel_tool_calls: false,
      presence_penalty: 0.5,
      frequency_penalty: -0.5,
    };
    const picked = await client.chat.completions.create({ model: "second-model", messages: [{ role: "user", content: "hello two" }], ...params });
    assert.equal(picked.choices[0]!.message.content, "second: hello two");
    assert.equal(picked.model, "second-model");
    assert.equal(requestsFor(first, "hello two").length, 0, "the other provider is not asked");
    const sent = requestsFor(second, "hello two")[0]!.body;
    for (const [name, value] of Object.entries(params)) assert.deepEqual(sent[name], value, name);
    assert.equal(sent.model, "second-model");
  });

  test("tool_choice goes with the first model call only, so a required choice cannot loop the turn", async () => {
    const answer = await client.chat.completions.create({ model: "homed", tool_choice: "required", messages: [{ role: "user", content: "TOOL please" }] });
    assert.equal(answer.choices[0]!.message.content, "first: TOOL please");
    const calls = requestsFor(first, "TOOL please");
    assert.equal(calls.length, 2);
    assert.equal(calls[0]!.body.tool_choice, "required");
    assert.equal("tool_choice" in calls[1]!.body, false);
    assert.deepEqual(answer.usage, { prompt_tokens: 20, completion_tokens: 10, total_tokens: 30 }, "usage covers both model calls");
  });

  test("stream: the text in deltas, finish_reason, and usage in a last chunk only when asked", async () => {
    const read = async (include_usage: boolean, content: string) => {
      const stream = await client.chat.completions.create({ model: "homed", stream: true, stream_options: { include_usage }, messages: [{ role: "user", content }] });
      const chunks = [];
      for await (const chunk of stream) chunks.push(chunk);
      return chunks;
    };
    const chunks = await read(true, "stream me");
    assert.equal(chunks.map((c) => c.choices[0]?.delta.content ?? "").join(""), "first: stream me");
    assert.equal(chunks.at(-2)!.choices[0]!.finish_reason, "stop");
    assert.deepEqual(chunks.at(-1)!.choices, []);
    assert.deepEqual(chunks.at(-1)!.usage, { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 });
    const without = await read(false, "stream me again");
    assert.equal(
      without.some((c) => c.usage),
      false,
    );
    assert.equal(without.at(-1)!.choices[0]!.finish_reason, "stop");
  });

  test("an answer the model cut at max_tokens ends with finish_reason length, plain and streamed", async () => {
    const plain = await client.chat.completions.create({ model: "homed", max_tokens: 5, messages: [{ role: "user", content: "LONG story" }] });
    assert.deepEqual([plain.choices[0]!.message.content, plain.choices[0]!.finish_reason], ["first: the answer was cut sh", "length"]);
    const stream = await client.chat.completions.create({ model: "homed", max_tokens: 5, stream: true, messages: [{ role: "user", content: "LONG streamed story" }] });
    const finishes = [];
    for await (const chunk of stream) if (chunk.choices[0]?.finish_reason) finishes.push(chunk.choices[0].finish_reason);
    assert.deepEqual(finishes, ["length"]);
  });

  test("images in the client's messages reach the model as image parts and are stored with the turn's input", async () => {
    const answer = await client.chat.completions.create({
      model: "homed",
      user: "vision",
      messages: [
        {
          role: "user",
          content: [
            { type: "text", text: "what colour is this?" },
            { type: "image_url", image_url: { url: RED_DOT } },
          ],
        },
        { role: "assistant", content: "red" },
        {
          role: "user",
          content: [
            { type: "text", text: "and this one?" },
            { type: "image_url", image_url: { url: BLUE_DOT, detail: "low" } },
          ],
        },
      ],
    });
    assert.equal(answer.choices[0]!.message.content, "first: and this one?");
    const sent = requestsFor(first, "and this one?")[0]!.body.messages.slice(1);
    assert.deepEqual(sent, [
      {
        role: "user",
        content: [
          { type: "text", text: "what colour is this?" },
          { type: "image_url", image_url: { url: RED_DOT } },
        ],
      },
      { role: "assistant", content: "red" },
      {
        role: "user",
        content: [
          { type: "text", text: "and this one?" },
          { type: "image_url", image_url: { url: BLUE_DOT, detail: "low" } },
        ],
      },
    ]);
    const sessions = (await (await fetch(`${daemon.url}/api/sessions`, { headers: daemon.headers })).json()) as { sessions: { id: string; partner: string }[] };
    const id = sessions.sessions.find((s) => s.partner === "vision")!.id;
    const events = JSON.parse(await (await fetch(`${daemon.url}/api/sessions/${id}/context`, { headers: daemon.headers })).text());
    const stored = events.flatMap((e: { messages: { role: string }[] }) => e.messages).filter((m: { role: string }) => m.role === "user");
    assert.deepEqual(
      stored,
      [
        {
          role: "user",
          content: [
            { type: "text", text: "and this one?" },
            { type: "image_url", image_url: { url: BLUE_DOT, detail: "low" } },
          ],
        },
      ],
      "the new image stored once, the history's not again",
    );

    const imageOnly = await client.chat.completions.create({ model: "homed", user: "vision-only", messages: [{ role: "user", content: [{ type: "image_url", image_url: { url: RED_DOT } }] }] });
    assert.equal(imageOnly.choices[0]!.message.content, "first: ", "a message that is only an image is a turn too");
    const lastSent = first.requests.at(-1)!.body.messages.at(-1);
    assert.deepEqual(lastSent, { role: "user", content: [{ type: "image_url", image_url: { url: RED_DOT } }] });

    // input_audio parts are voice messages now (tests/server/openai-audio.test.ts); a file part is still refused.
    const file = await client.chat.completions
      .create({
        model: "homed",
        messages: [
          {
            role: "user",
            content: [
              { type: "text", text: "read" },
              { type: "file", file: { file_data: "data:application/pdf;base64,AAAA", filename: "a.pdf" } },
            ],
          },
        ],
      })
      .catch((e) => e);
    assert.ok(file instanceof OpenAI.BadRequestError);
    assert.equal(file.param, "messages.0.content.1.type");
    assert.match(file.message, /^400 Content parts of type 'file' are not supported/);
    const textless = await client.chat.completions.create({ model: "homed", messages: [{ role: "user", content: [{ type: "text" } as never] }] }).catch((e) => e);
    assert.deepEqual([textless.status, textless.param], [400, "messages.0.content.0"]);
    assert.match(textless.message, /^400 messages.0.content.0.text: a text part has its text/);
  });

  test("client tools: runTools gets the call, homed resumes with its result; the model saw both toolsets", async () => {
    const seen: string[] = [];
    const runner = client.chat.completions.runTools({ model: "homed", user: "weather", messages: [{ role: "user", content: "WEATHER in Oslo?" }], tools: [weatherTool(seen)] });
    assert.equal(await runner.finalContent(), "first: WEATHER in Oslo? (sunny in Oslo)");
    assert.deepEqual(seen, ["Oslo"]);
    const [asked, resumed] = requestsFor(first, "WEATHER in Oslo?");
    const names = asked!.body.tools.map((t: any) => t.function.name);
    assert.ok(names.includes("get_weather") && names.includes("memory_recall"), names.join(","));
    const tail = resumed!.body.messages.slice(-2);
    assert.deepEqual([tail[0].tool_calls[0].id, tail[1].role, tail[1].content], ["call-w", "tool", "sunny in Oslo"]);
    assert.deepEqual(first.sequenceErrors, []);
  });

  test("client tools, streamed, in a round with one of homed's: only the client's call leaves homed; history stays valid", async () => {
    const seen: string[] = [];
    const runner = client.chat.completions.runTools({ model: "homed", user: "mixed", stream: true, messages: [{ role: "user", content: "MIXED weather and stats" }], tools: [weatherTool(seen)] });
    const calls: string[] = [];
    runner.on("functionToolCall", (call) => calls.push(call.name));
    assert.equal(await runner.finalContent(), "first: MIXED weather and stats (sunny in Bergen)");
    assert.deepEqual([calls, seen], [["get_weather"], ["Bergen"]]);
    const resumed = requestsFor(first, "MIXED weather and stats")[1]!.body.messages;
    const round = resumed.findIndex((m: any) => m.tool_calls?.some((c: any) => c.id === "call-c"));
    assert.deepEqual(
      resumed[round].tool_calls.map((c: any) => c.id),
      ["call-m", "call-c"],
    );
    const results = new Map(resumed.slice(round + 1, round + 3).map((m: any) => [m.tool_call_id, m.content]));
    assert.equal(results.get("call-c"), "sunny in Bergen");
    assert.ok("events" in JSON.parse(String(results.get("call-m"))), `homed ran its own call: ${results.get("call-m")}`);
    assert.doesNotMatch(daemon.stderr(), /sequence guard repaired/, "the stored round was whole");
    assert.deepEqual(first.sequenceErrors, []);
  });

  test("the client's messages are the conversation: a new chat starts empty, an edit is what the model sees, re-sent history is stored once", async () => {
    const chat = (messages: { role: "user" | "assistant"; content: string }[]) => client.chat.completions.create({ model: "homed", user: "chats", messages });
    await chat([{ role: "user", content: "chat A: the door code is 2580" }]);
    await chat([{ role: "user", content: "chat B: hello" }]);
    const chatB = requestsFor(first, "chat B: hello")[0]!.body.messages.slice(1);
    assert.deepEqual(
      chatB.map((m: any) => m.content),
      ["chat B: hello"],
      "a new chat carries none of another chat's turns",
    );
    await chat([
      { role: "user", content: "chat A: the door code is 2580" },
      { role: "assistant", content: "noted (edited in the client)" },
      { role: "user", content: "chat A: what is the code?" },
    ]);
    const chatA = requestsFor(first, "chat A: what is the code?")[0]!.body.messages.slice(1);
    assert.deepEqual(
      chatA.map((m: any) => m.content),
      ["chat A: the door code is 2580", "noted (edited in the client)", "chat A: what is the code?"],
    );
    const sessions = (await (await fetch(`${daemon.url}/api/sessions`, { headers: daemon.headers })).json()) as { sessions: { id: string; partner: string }[] };
    const id = sessions.sessions.find((s) => s.partner === "chats")!.id;
    const dump = await (await fetch(`${daemon.url}/api/sessions/${id}/context`, { headers: daemon.headers })).text();
    const stored = JSON.parse(dump)
      .flatMap((e: { messages: { role: string; content: string }[] }) => e.messages)
      .filter((m: { role: string }) => m.role === "user");
    assert.deepEqual(
      stored.map((m: { content: string }) => m.content),
      ["chat A: the door code is 2580", "chat B: hello", "chat A: what is the code?"],
      "each message stored once",
    );
  });

  test("errors reach e.message, with OpenAI's type, param and code", async () => {
    const wrongKey = new OpenAI({ baseURL: `${daemon.url}/v1`, apiKey: "wrong", maxRetries: 0 });
    const unauthorized = await wrongKey.models.list().catch((e) => e);
    assert.ok(unauthorized instanceof OpenAI.AuthenticationError);
    assert.equal(unauthorized.message, "401 The key matches neither the admin token nor a live app key (homed key list)");
    assert.equal(unauthorized.type, "authentication_error");

    const n = await client.chat.completions.create({ model: "homed", n: 2, messages: [{ role: "user", content: "x" }] }).catch((e) => e);
    assert.ok(n instanceof OpenAI.BadRequestError);
    assert.match(n.message, /^400 n=2 is not supported: homed gives one answer per request/);
    assert.deepEqual([n.type, n.param, n.code], ["invalid_request_error", "n", "unsupported_value"]);

    const custom = await client.chat.completions.create({ model: "homed", tools: [{ type: "custom", custom: { name: "grammar" } }], messages: [{ role: "user", content: "x" }] }).catch((e) => e);
    assert.equal(custom.param, "tools.0.type");
    assert.match(custom.message, /^400 Tools of type 'custom' are not supported/);
    const clash = await client.chat.completions
      .create({ model: "homed", tools: [{ type: "function", function: { name: "memory_recall" } }], messages: [{ role: "user", content: "x" }] })
      .catch((e) => e);
    assert.match(clash.message, /^400 tools.0: 'memory_recall' is one of homed's own tools/);
    const orphan = await client.chat.completions
      .create({
        model: "homed",
        user: "no-pause",
        messages: [
          { role: "user", content: "x" },
          { role: "assistant", tool_calls: [{ id: "z", type: "function", function: { name: "f", arguments: "{}" } }] },
          { role: "tool", tool_call_id: "z", content: "r" },
        ],
      })
      .catch((e) => e);
    assert.match(orphan.message, /^400 No turn of this session is waiting for tool results/);

    const unknown = await client.chat.completions.create({ model: "gpt-nope", messages: [{ role: "user", content: "x" }] }).catch((e) => e);
    assert.ok(unknown instanceof OpenAI.NotFoundError);
    assert.deepEqual([unknown.code, unknown.param], ["model_not_found", "model"]);

    const bad = await client.chat.completions.create({ model: "homed", temperature: 9, messages: [{ role: "user", content: "x" }] }).catch((e) => e);
    assert.ok(bad instanceof OpenAI.BadRequestError);
    assert.equal(bad.param, "temperature");
    assert.match(bad.message, /^400 temperature: /);

    const route = await fetch(`${daemon.url}/v1/nothing-here`, { headers: daemon.headers });
    assert.deepEqual(await route.json(), { error: { message: "No route for GET /v1/nothing-here", type: "invalid_request_error", param: null, code: "not_found" } });
    assert.equal(requestsFor(first, "x").length + requestsFor(second, "x").length, 0, "nothing refused reached a provider");
  });
});

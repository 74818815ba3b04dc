import { describe, test, afterEach } from "node:test";
import assert from "node:assert/strict";
import {
  ChatClient,
  type ProviderError,
  SequenceViolationError,
  INTERRUPTED_RESULT,
  backoffDelay,
  DEFAULT_RETRY,
  type ChatClientOptions,
  type StreamDelta,
  type ProviderMessage,
} from "../../src/llm/index.ts";
import { startScriptedProvider, type Script, type ScriptedProvider } from "../support/scripted-provider.ts";

let provider: ScriptedProvider | undefined;
afterEach(async () => {
  await provider?.close();
  provider = undefined;
});

const noWait = { sleep: async () => {} };

async function clientFor(script: Script, options: Partial<ChatClientOptions> = {}) {
  provider = await startScriptedProvider(script);
  return new ChatClient({ baseUrl: provider.url, apiKey: "sk-test", sequenceGuard: "throw", ...noWait, ...options });
}

const ask = (text = "hi"): ProviderMessage[] => [{ role: "user", content: text }];

describe("chat client: answers", () => {
  test("non-streaming: content, usage, bearer key", async () => {
    const client = await clientFor([{ content: "hello there" }]);
    const result = await client.complete({ model: "m", messages: ask() });
    assert.equal(result.message.content, "hello there");
    assert.deepEqual(result.usage, { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 });
    assert.equal(result.attempts, 1);
    assert.equal(provider!.requests[0]!.headers.authorization, "Bearer sk-test");
    assert.equal(provider!.requests[0]!.body.stream, false);
  });

  test("streaming: deltas arrive in order and add up to the message", async () => {
    const client = await clientFor([{ content: "streamed answer", reasoning: "thinking" }]);
    const deltas: StreamDelta[] = [];
    const result = await client.stream({ model: "m", messages: ask() }, { onDelta: (d) => deltas.push(d) });
    const text = deltas.filter((d) => d.type === "content").map((d) => (d as { text: string }).text);
    assert.ok(text.length > 1, "content should come in several deltas");
    assert.equal(text.join(""), "streamed answer");
    assert.equal(result.message.content, "streamed answer");
    assert.equal(result.message.reasoning_content, "thinking");
    assert.equal(result.finishReason, "stop");
    assert.equal(result.usage?.total_tokens, 15);
  });

  for (const indexes of ["normal", "repeat-zero", "omit"] as const) {
    test(`streaming parallel tool calls are assembled (indexes: ${indexes})`, async () => {
      const calls = [
        { id: "call_a", name: "read_file", arguments: '{"path":"/etc/hosts"}' },
        { id: "call_b", name: "web_fetch", arguments: '{"url":"https://example.com"}' },
        { id: "call_c", name: "shell", arguments: '{"cmd":"ls -la"}' },
      ];
      const client = await clientFor([{ toolCalls: calls, indexes }]);
      const result = await client.stream({ model: "m", messages: ask() });
      assert.deepEqual(
        result.message.tool_calls,
        calls.map((c) => ({ id: c.id, type: "function", function: { name: c.name, arguments: c.arguments } })),
      );
      assert.equal(result.message.content, null);
      assert.equal(result.finishReason, "tool_calls");
    });
  }

  test("a non-JSON answer is a bad_response error, not a crash", async () => {
    const client = await clientFor([{ status: 200, body: "<html>proxy error</html>" }]);
    await assert.rejects(client.complete({ model: "m", messages: ask() }), (e: ProviderError) => e.code === "bad_response");
  });
});

describe("chat client: failures", () => {
  test("retries 5xx and 429, then succeeds", async () => {
    const delays: number[] = [];
    const client = await clientFor([{ status: 500 }, { status: 429, retryAfter: 2 }, { status: 503 }, { content: "ok" }], {
      sleep: async (ms) => void delays.push(ms),
    });
    const result = await client.complete({ model: "m", messages: ask() });
    assert.equal(result.message.content, "ok");
    assert.equal(result.attempts, 4);
    assert.equal(delays.length, 3);
    assert.ok(delays[1]! >= 2000, "Retry-After is honoured");
  });

  test("never retries a 4xx other than 429, and keeps the provider's words", async () => {
    const client = await clientFor([{ status: 400, body: '{"error":{"message":"bad model"}}' }, { content: "never" }]);
    await assert.rejects(client.complete({ model: "m", messages: ask() }), (e: ProviderError) => e.code === "bad_request" && e.status === 400 && e.body!.includes("bad model"));
    assert.equal(provider!.requests.length, 1);
  });

  test("retries a dropped connection", async () => {
    const client = await clientFor([{ dropConnection: true }, { content: "back" }]);
    const result = await client.complete({ model: "m", messages: ask() });
    assert.equal(result.message.content, "back");
    assert.equal(result.attempts, 2);
  });

  test("gives up after the configured retries", async () => {
    const client = await clientFor(() => ({ status: 502 }), { retry: { retries: 2, baseDelayMs: 1, maxDelayMs: 1 } });
    await assert.rejects(client.complete({ model: "m", messages: ask() }), (e: ProviderError) => e.code === "server_error");
    assert.equal(provider!.requests.length, 3);
  });

  test("a provider that never answers times out", async () => {
    const client = await clientFor([{ hang: true }], { timeoutMs: 200, retry: { retries: 0, baseDelayMs: 1, maxDelayMs: 1 } });
    await assert.rejects(client.complete({ model: "m", messages: ask() }), (e: ProviderError) => e.code === "timeout");
  });

  test("cancellation mid-stream stops the request with an aborted error", async () => {
    const client = await clientFor([{ content: "a long answer that keeps coming", delayMs: 50 }]);
    const controller = new AbortController();
    const deltas: StreamDelta[] = [];
    const pending = client.stream(
      { model: "m", messages: ask() },
      {
        signal: controller.signal,
        onDelta: (d) => {
          deltas.push(d);
          if (d.type === "content") controller.abort();
        },
      },
    );
    await assert.rejects(pending, (e: ProviderError) => e.code === "aborted");
    assert.equal(deltas.filter((d) => d.type === "content").length, 1);
    assert.equal(provider!.requests.length, 1, "a cancelled request is not retried");
  });

  test("backoff grows exponentially with jitter and a cap", () => {
    assert.equal(
      backoffDelay(0, DEFAULT_RETRY, () => 0),
      250,
    );
    assert.equal(
      backoffDelay(1, DEFAULT_RETRY, () => 0),
      500,
    );
    assert.equal(backoffDelay(10, DEFAULT_RETRY, () => 0.999999) <= DEFAULT_RETRY.maxDelayMs, true);
  });
});

describe("sequence guard", () => {
  const dangling: ProviderMessage[] = [
    { role: "user", content: "list files" },
    { role: "assistant", content: null, tool_calls: [{ id: "c1", type: "function", function: { name: "ls", arguments: "{}" } }] },
    { role: "user", content: "never mind" },
  ];

  test("in tests a dangling tool call fails loudly and nothing is sent", async () => {
    const client = await clientFor([{ content: "x" }]);
    await assert.rejects(client.complete({ model: "m", messages: dangling }), SequenceViolationError);
    assert.equal(provider!.requests.length, 0);
  });

  test("in production it is repaired with an interrupted result and logged, and the provider accepts it", async () => {
    const repairs: string[][] = [];
    const client = await clientFor([{ content: "ok" }], { sequenceGuard: "repair", onRepair: (r) => repairs.push(r) });
    const orphan: ProviderMessage = { role: "tool", tool_call_id: "ghost", content: "stray" };
    const result = await client.complete({ model: "m", messages: [...dangling, orphan] });
    assert.equal(result.message.content, "ok");
    assert.deepEqual(provider!.sequenceErrors, []);
    const sent = provider!.requests[0]!.body.messages;
    assert.deepEqual(sent[2], { role: "tool", tool_call_id: "c1", content: INTERRUPTED_RESULT });
    assert.equal(
      sent.some((m: { tool_call_id?: string }) => m.tool_call_id === "ghost"),
      false,
    );
    assert.equal(repairs.length, 1);
    assert.equal(repairs[0]!.length, 2);
  });
});

describe("model quirks: reasoning_content", () => {
  const history: ProviderMessage[] = [
    { role: "user", content: "weather?" },
    { role: "assistant", content: null, reasoning_content: "I should call the tool", tool_calls: [{ id: "c1", type: "function", function: { name: "weather", arguments: "{}" } }] },
    { role: "tool", tool_call_id: "c1", content: "sunny" },
    { role: "assistant", content: "It is sunny.", reasoning_content: "easy" },
    { role: "user", content: "and tomorrow?" },
  ];
  const sentAssistants = () => provider!.requests[0]!.body.messages.filter((m: { role: string }) => m.role === "assistant");

  test("DeepSeek thinking models get it back on tool-call turns only", async () => {
    const client = await clientFor([{ content: "x" }]);
    await client.complete({ model: "deepseek-v4-pro", messages: history });
    const [toolTurn, plainTurn] = sentAssistants();
    assert.equal(toolTurn.reasoning_content, "I should call the tool");
    assert.equal("reasoning_content" in plainTurn, false);
  });

  test("an empty one is still sent on a tool-call turn", async () => {
    const client = await clientFor([{ content: "x" }]);
    const { reasoning_content: _dropped, ...toolTurn } = history[1] as Extract<ProviderMessage, { role: "assistant" }>;
    await client.complete({ model: "deepseek-chat", messages: [history[0]!, toolTurn, history[2]!] });
    assert.equal(sentAssistants()[0].reasoning_content, "");
  });

  for (const model of ["deepseek-reasoner", "gpt-4o-mini"]) {
    test(`${model} never receives it`, async () => {
      const client = await clientFor([{ content: "x" }]);
      await client.complete({ model, messages: history });
      for (const m of sentAssistants()) assert.equal("reasoning_content" in m, false);
    });
  }
});

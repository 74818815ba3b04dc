import { describe, test, afterEach } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import { inspectSequence, type ChatMessage } from "../../src/context/index.ts";
import type { ToolSpec } from "../../src/llm/index.ts";
import { call, kernelHarness, type Harness } from "./support.ts";

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

async function l1Messages(harness: Harness, sessionId: string): Promise<ChatMessage[]> {
  const rows = await harness.store.client.execute({ sql: "SELECT messages FROM events WHERE session_id = ? ORDER BY seq", args: [sessionId] });
  return rows.rows.flatMap((r) => JSON.parse(String(r.messages)) as ChatMessage[]);
}

describe("history", () => {
  test("the user's input is stored before the model is called", async () => {
    let storedWhenAsked: unknown[] = [];
    h = await kernelHarness(() => ({ content: "answer" }));
    const harness = h;
    const session = await h.kernel.sessions.open("test", "ivy");
    // The provider looks at the database at the moment the request arrives.
    const original = harness.provider.requests.push.bind(harness.provider.requests);
    harness.provider.requests.push = (...items) => {
      storedWhenAsked = [];
      const pending = harness.store.client.execute({ sql: "SELECT text FROM events WHERE session_id = ?", args: [session.id] });
      pending.then((rows) => (storedWhenAsked = rows.rows.map((r) => r.text)));
      return original(...items);
    };
    await h.kernel.turn({ session, input: "remember the milk" });
    assert.deepEqual(storedWhenAsked, ["remember the milk"]);
  });

  test("cancelling mid-stream keeps what was said and leaves a valid history for the next turn", async () => {
    // Over loopback: the cancel must reach a real HTTP stream.
    h = await kernelHarness([{ content: "a long streamed answer", delayMs: 30 }, { content: "next" }], {}, { overHttp: true });
    const session = await h.kernel.sessions.open("test", "jon");
    const controller = new AbortController();
    const result = await h.kernel.turn({
      session,
      input: "tell me",
      signal: controller.signal,
      onEvent: (e) => {
        if (e.type === "content") controller.abort();
      },
    });
    assert.equal(result.stopReason, "cancelled");
    assert.ok(result.text.length > 0);
    const history = await l1Messages(h, session.id);
    assert.deepEqual(
      history.map((m) => m.role),
      ["user", "assistant"],
    );
    assert.equal((await h.kernel.turn({ session, input: "go on" })).text, "next");
    assert.deepEqual(h.provider.sequenceErrors, []);
  });

  test("cancelling during a tool round closes the round with interrupted results", async () => {
    h = await kernelHarness([{ toolCalls: [call("c1"), call("c2")] }, { content: "after" }]);
    const controller = new AbortController();
    h.kernel.tools.register({
      name: "slow",
      description: "",
      parameters: {},
      run: async () => {
        controller.abort();
        return "partial";
      },
    });
    const session = await h.kernel.sessions.open("test", "kim");
    // Every call is redirected to `slow`, which cancels the turn while the first call runs.
    h.kernel.addParticipant({
      name: "redirect",
      hooks: {
        post_action: (p) => (p.message.tool_calls ? { message: { ...p.message, tool_calls: p.message.tool_calls.map((c) => ({ ...c, function: { name: "slow", arguments: "{}" } })) } } : undefined),
      },
    });
    const result = await h.kernel.turn({ session, input: "work", signal: controller.signal });
    assert.equal(result.stopReason, "cancelled");
    const history = await l1Messages(h, session.id);
    const report = inspectSequence(history);
    assert.equal(report.calls, 2);
    assert.equal(report.dangling, 0);
    assert.equal(report.orphans, 0);
    assert.match(String(history.at(-1)!.content), /interrupted/);
  });

  test("two messages to one session at once are answered one after the other, never interleaved", async () => {
    let n = 0;
    h = await kernelHarness(() => ({ content: `answer ${++n}`, delayMs: 20 }));
    const session = await h.kernel.sessions.open("test", "queue");
    await Promise.all([h.kernel.turn({ session, input: "first" }), h.kernel.turn({ session, input: "second" })]);
    const rows = await h.store.client.execute({ sql: "SELECT text FROM events WHERE session_id = ? ORDER BY seq", args: [session.id] });
    assert.deepEqual(
      rows.rows.map((r) => r.text),
      ["first", "answer 1", "second", "answer 2"],
    );
  });

  test("the budget covers the whole request: system prompt, injected memory and tool definitions leave less room for history", async () => {
    const budget = 2400;
    h = await kernelHarness(() => ({ content: "answer about the garden ".repeat(60) }), { budget });
    // Plugin-sized tool definitions, arriving through a source as a running plugin's do.
    const described = Array.from({ length: 6 }, (_, i) => ({
      name: `garden_tool_${i}`,
      description: `Tool ${i} waters, prunes and inspects the plants of one bed in the garden. `.repeat(3),
      parameters: { type: "object", properties: { bed: { type: "string", description: "Which bed of the garden, by its name on the map" } } },
      run: async () => "done",
    }));
    h.kernel.tools.addSource(() => described);
    const { importHistory } = await import("../../src/memory/index.ts");
    await importHistory(
      h.store.client,
      Array.from({ length: 12 }, (_, i) => ({
        conversation: "gardener",
        session: "old",
        time: i * 60_000,
        speaker: "me",
        role: "user" as const,
        text: `garden note ${i}: the tomatoes and the roses need water and care`,
        sourceId: `g${i}`,
      })),
    );
    const session = await h.kernel.sessions.open("test", "gardener");
    for (let i = 0; i < 8; i++) await h.kernel.turn({ session, input: `what does the garden need today? ${i}` });
    const { messageTokens } = await import("../../src/context/index.ts");
    const { toolSpecTokens } = await import("../../src/kernel/index.ts");
    const { countTokens } = await import("../../src/text/index.ts");
    for (const request of h.provider.requests) {
      const messages = request.body.messages as ChatMessage[];
      assert.match(String(messages[0]!.content), /Memory/, "memory was injected");
      const tools = request.body.tools as ToolSpec[];
      assert.ok(
        tools.some((t) => t.function.name === "garden_tool_5"),
        "the plugin-like tools were sent",
      );
      // The estimate is at least the definitions as sent, so a small estimate cannot hide them.
      assert.ok(toolSpecTokens(tools) >= countTokens(JSON.stringify(tools)), "tool definitions are counted in full");
      const total = messages.reduce((sum, m) => sum + messageTokens(m), 0) + toolSpecTokens(tools);
      assert.ok(total <= budget, `request of ${total} tokens exceeds the ${budget}-token budget`);
    }
  });

  test("long randomized sessions with small budgets never send a broken sequence", async () => {
    // Each step: 0 = plain answer, n > 0 = a round of n parallel calls (sometimes huge outputs).
    await fc.assert(
      fc.asyncProperty(fc.array(fc.record({ calls: fc.nat({ max: 4 }), big: fc.boolean() }), { minLength: 40, maxLength: 120 }), fc.integer({ min: 300, max: 3000 }), async (steps, budget) => {
        let i = 0;
        let id = 0;
        const harness = await kernelHarness(
          () => {
            const step = steps[i++ % steps.length]!;
            if (step.calls === 0) return { content: `answer ${i} `.repeat(step.big ? 200 : 5) };
            return { toolCalls: Array.from({ length: step.calls }, () => call(`call_${id++}`, step.big ? "y".repeat(2000) : "small")) };
          },
          { budget, maxIterations: 3 },
        );
        try {
          const session = await harness.kernel.sessions.open("test", "prop");
          for (let turn = 0; turn < steps.length / 2; turn++) {
            await harness.kernel.turn({ session, input: `turn ${turn} about topic ${turn % 7}` });
          }
          assert.deepEqual(harness.provider.sequenceErrors, []);
          const sunk = await harness.store.client.execute("SELECT count(*) AS n FROM events WHERE layer = 'L2'");
          assert.ok(Number(sunk.rows[0]!.n) > 0, "the budget was small enough to force pruning");
        } finally {
          await harness.close();
        }
      }),
      { numRuns: 6 },
    );
  });
});

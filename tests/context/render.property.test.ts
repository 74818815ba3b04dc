import { before, describe, test } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import { eventTokens, inspectSequence, renderUnderBudget, type ChatMessage, type RenderableEvent } from "../../src/context/index.ts";
import { eventSequence } from "./arbitraries.ts";
import { loadTokenizer } from "../../src/text/index.ts";

before(() => loadTokenizer());

const BUDGETS = [16, 64, 200, 500, 1_000, 4_000, 16_000, 64_000, 250_000];

/** Every invariant of DESIGN §3 for one render, checked from the output alone. */
function assertInvariants(events: readonly RenderableEvent[], budget: number) {
  const out = renderUnderBudget(events, budget);
  const report = inspectSequence(out.messages);
  const label = `budget ${budget}, ${events.length} events`;
  assert.equal(report.dangling, 0, `${label}: tool call without its result`);
  assert.equal(report.orphans, 0, `${label}: tool result without its call`);
  assert.ok(report.tokens <= budget, `${label}: ${report.tokens} tokens > budget`);
  assert.equal(report.tokens, out.tokens, `${label}: reported tokens differ from the messages' sum`);

  // Whole events, chronological: the output is the concatenation of some events' messages in order.
  const owner = new Map<ChatMessage, number>();
  events.forEach((e, i) => {
    for (const m of e.messages) owner.set(m, i);
  });
  let at = 0;
  let last = -1;
  while (at < out.messages.length) {
    const index = owner.get(out.messages[at]!);
    assert.ok(index !== undefined && index > last, `${label}: message ${at} is not the start of a later event`);
    const event = events[index]!;
    assert.deepEqual(out.messages.slice(at, at + event.messages.length), event.messages, `${label}: event ${event.id} split`);
    assert.ok(event.tokens <= budget / 4, `${label}: runaway frame ${event.id} (${event.tokens} tokens) rendered`);
    at += event.messages.length;
    last = index;
  }

  const fitting = events.filter((e) => e.tokens <= budget / 4);
  if (fitting.length > 0) {
    assert.ok(out.messages.length > 0, `${label}: empty render although ${fitting[0]!.id} fits`);
    // Newest first: the newest non-runaway event is always in.
    assert.ok(out.included.includes(fitting.at(-1)!.id), `${label}: newest fitting event ${fitting.at(-1)!.id} left out`);
  }
}

describe("rendering under a budget (property)", () => {
  test(`random event sequences at ${BUDGETS.length} budgets keep every invariant`, () => {
    fc.assert(
      fc.property(eventSequence, (events) => {
        for (const budget of BUDGETS) assertInvariants(events, budget);
      }),
      { numRuns: 150 },
    );
  });
});

const say = (id: string, content: string): RenderableEvent => {
  const messages: ChatMessage[] = [{ role: "user", content }];
  return { id, messages, tokens: eventTokens(messages) };
};

function frame(id: string, calls: number, resultWords: number): RenderableEvent {
  const ids = Array.from({ length: calls }, (_, i) => `${id}_c${i}`);
  const messages: ChatMessage[] = [
    { role: "assistant", content: null, tool_calls: ids.map((c) => ({ id: c, type: "function", function: { name: "grep", arguments: "{}" } })) },
    ...ids.map((c): ChatMessage => ({ role: "tool", tool_call_id: c, content: "match ".repeat(resultWords) })),
  ];
  return { id, messages, tokens: eventTokens(messages) };
}

describe("filling the budget", () => {
  test("many small events: the newest that fit go in, older ones are dropped, the total stays within budget", () => {
    const events = Array.from({ length: 30 }, (_, i) => say(`s${i}`, "ok"));
    const each = events[0]!.tokens;
    const out = renderUnderBudget(events, each * 7 + 1);
    assert.deepEqual(
      out.included,
      events.slice(-7).map((e) => e.id),
    );
    assert.equal(out.tokens, each * 7);
    assert.equal(out.dropped.length, 23);
  });
});

describe("runaway frames", () => {
  const budget = 2_000;

  test("a runaway frame first in time is skipped and the rest still render", () => {
    const events = [frame("big", 40, 20), say("a", "hello"), say("b", "how is the build"), say("c", "fixed")];
    assert.ok(events[0]!.tokens > budget / 4 && events[0]!.tokens <= budget, "fixture: runaway yet within the budget");
    const out = renderUnderBudget(events, budget);
    assert.deepEqual(out.runaway, ["big"]);
    assert.deepEqual(out.included, ["a", "b", "c"]);
  });

  test("a runaway frame newest (first met) is skipped and older events still render", () => {
    const events = [say("a", "hello"), say("b", "how is the build"), frame("big", 40, 20)];
    const out = renderUnderBudget(events, budget);
    assert.deepEqual(out.runaway, ["big"]);
    assert.deepEqual(out.included, ["a", "b"]);
  });

  test("a frame larger than the whole budget is skipped wherever it sits", () => {
    const events = [say("a", "one"), frame("huge", 300, 30), say("b", "two")];
    assert.ok(events[1]!.tokens > budget, "fixture: larger than the whole budget");
    const out = renderUnderBudget(events, budget);
    assert.deepEqual(out.included, ["a", "b"]);
    assert.equal(inspectSequence(out.messages).dangling, 0);
  });

  test("exactly a quarter of the budget is not runaway", () => {
    const event = say("q", "x");
    const out = renderUnderBudget([event], event.tokens * 4);
    assert.deepEqual(out.included, ["q"]);
    assert.deepEqual(renderUnderBudget([event], event.tokens * 4 - 1).runaway, ["q"]);
  });
});

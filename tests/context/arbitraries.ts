/** fast-check generators of closed events: plain messages, tool frames (parallel, hundreds of calls), huge frames. */
import fc from "fast-check";
import { eventTokens, type ChatMessage, type RenderableEvent } from "../../src/context/index.ts";

const WORDS = ["build", "log", "error", "the", "module", "测试", "构建", "日志", "失败", "部署", "ok", '{"path":"a.txt"}', "123"];

const text = (maxWords: number) => fc.array(fc.constantFrom(...WORDS), { minLength: 0, maxLength: maxWords }).map((words) => words.join(" "));

let nextCall = 0;

/** One round: an assistant message with `calls` parallel calls, then all results in some order. */
const round = (calls: fc.Arbitrary<number>) =>
  fc.tuple(calls, text(6), fc.array(text(12), { minLength: 300, maxLength: 300 }), fc.nat()).map(([n, say, results, seed]): ChatMessage[] => {
    const ids = Array.from({ length: n }, () => `call_${nextCall++}`);
    const assistant: ChatMessage = {
      role: "assistant",
      content: say.length > 0 ? say : null,
      tool_calls: ids.map((id) => ({ id, type: "function" as const, function: { name: "run", arguments: `{"n":${seed % 97}}` } })),
    };
    // Parallel results may come back in any order; rotate them by the seed.
    const order = ids.map((_, i) => ids[(i + seed) % ids.length]!);
    const tools: ChatMessage[] = order.map((id, i) => ({ role: "tool", tool_call_id: id, content: results[i]! }));
    return [assistant, ...tools];
  });

const callCount = fc.oneof({ arbitrary: fc.integer({ min: 1, max: 4 }), weight: 8 }, { arbitrary: fc.integer({ min: 100, max: 300 }), weight: 1 });

// Short turns are common and make the budget, not the runaway rule, the binding limit.
const plain = fc.tuple(fc.constantFrom("user" as const, "assistant" as const), fc.oneof(text(3), text(40))).map(([role, content]): ChatMessage[] => [{ role, content }]);

const toolFrame = fc
  .tuple(fc.option(text(20), { nil: undefined }), fc.array(round(callCount), { minLength: 1, maxLength: 3 }), fc.option(text(20), { nil: undefined }))
  .map(([ask, rounds, answer]): ChatMessage[] => [
    ...(ask !== undefined ? [{ role: "user" as const, content: ask }] : []),
    ...rounds.flat(),
    ...(answer !== undefined ? [{ role: "assistant" as const, content: answer }] : []),
  ]);

/** A frame far larger than most budgets: a tool that dumped a whole log. */
const hugeFrame = fc.integer({ min: 2_000, max: 40_000 }).map((n): ChatMessage[] => [
  { role: "assistant", content: null, tool_calls: [{ id: `call_${nextCall++}`, type: "function", function: { name: "cat", arguments: "{}" } }] },
  { role: "tool", tool_call_id: `call_${nextCall - 1}`, content: "log line ".repeat(n) },
]);

export const eventSequence = fc
  .array(fc.oneof({ arbitrary: plain, weight: 5 }, { arbitrary: toolFrame, weight: 4 }, { arbitrary: hugeFrame, weight: 1 }), {
    minLength: 0,
    maxLength: 40,
  })
  .map((groups): RenderableEvent[] => groups.map((messages, i) => ({ id: `e${i}`, messages, tokens: eventTokens(messages) })));

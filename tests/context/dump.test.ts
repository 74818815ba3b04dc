import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { groupProblems, parseContextDump, type ChatMessage } from "../../src/context/index.ts";

const call = (id: string) => ({ id, type: "function" as const, function: { name: "f", arguments: "{}" } });
const ev = (id: string, messages: unknown[], time = "2026-01-01T00:00:00Z") => ({ id, time, messages });
const parse = (events: unknown) => parseContextDump(JSON.stringify(events), "dump.json");

describe("closed message groups", () => {
  test("a plain message and a frame with parallel calls answered in any order are closed", () => {
    assert.deepEqual(groupProblems([{ role: "user", content: "hi" }]), []);
    const frame: ChatMessage[] = [
      { role: "user", content: "go" },
      { role: "assistant", content: null, tool_calls: [call("a"), call("b")] },
      { role: "tool", tool_call_id: "b", content: "" },
      { role: "tool", tool_call_id: "a", content: "" },
      { role: "assistant", content: null, tool_calls: [call("c")] },
      { role: "tool", tool_call_id: "c", content: "" },
      { role: "assistant", content: "done" },
    ];
    assert.deepEqual(groupProblems(frame), []);
  });

  test("unanswered, late, orphan and duplicate calls are each named", () => {
    assert.match(groupProblems([{ role: "assistant", tool_calls: [call("a")] }]).join(), /"a" not answered before the end of the event/);
    const late: ChatMessage[] = [
      { role: "assistant", tool_calls: [call("a")] },
      { role: "user", content: "?" },
      { role: "tool", tool_call_id: "a", content: "" },
    ];
    assert.deepEqual(groupProblems(late), ['tool call "a" not answered before messages[1]', 'messages[2]: tool result for "a" answers no open call of this event']);
    assert.match(groupProblems([{ role: "tool", tool_call_id: "x", content: "" }]).join(), /messages\[0\]: tool result for "x"/);
    const twice: ChatMessage[] = [
      { role: "assistant", tool_calls: [call("a")] },
      { role: "tool", tool_call_id: "a", content: "" },
      { role: "assistant", tool_calls: [call("a")] },
      { role: "tool", tool_call_id: "a", content: "" },
    ];
    assert.match(groupProblems(twice).join(), /"a" used twice/);
    assert.match(groupProblems([{ role: "assistant", content: null }]).join(), /neither content nor tool_calls/);
  });
});

describe("context dump", () => {
  test("a valid dump parses in order", () => {
    const events = parse([ev("a", [{ role: "user", content: "hi" }]), ev("b", [{ role: "assistant", content: "yo" }], "2026-01-01T00:00:01+00:00")]);
    assert.deepEqual(
      events.map((e) => e.id),
      ["a", "b"],
    );
  });

  test("each kind of bad input names the first bad event", () => {
    const ok = ev("a", [{ role: "user", content: "hi" }]);
    const cases: [unknown, RegExp][] = [
      ["not json", /not JSON/],
      [{ events: [] }, /expected a JSON array of events/],
      [[ok, ev("b", [{ role: "robot", content: "x" }])], /event 1 \(id "b"\): messages\[0\]\.role/],
      [[ok, ev("c", [{ role: "user", content: "x" }], "yesterday")], /event 1 \(id "c"\): time/],
      [[ok, ev("d", [])], /event 1 \(id "d"\): messages/],
      [[ok, { time: "2026-01-01T00:00:00Z", messages: [] }], /event 1: id/],
      [[ok, ok], /event 1 \(id "a"\): id used by an earlier event/],
      [[ok, ev("e", [{ role: "user", content: "x" }], "2025-12-31T23:59:59Z")], /event 1 \(id "e"\): time .* must be chronological/],
      [[ok, ev("f", [{ role: "assistant", tool_calls: [call("z")] }]), ev("g", [{ role: "tool", tool_call_id: "z", content: "" }])], /event 1 \(id "f"\): tool call "z" not answered/],
    ];
    for (const [input, expected] of cases) {
      const text = typeof input === "string" ? input : JSON.stringify(input);
      assert.throws(
        () => parseContextDump(text, "dump.json"),
        (e: Error) => {
          assert.match(e.message, /^Cannot read context dump dump\.json: /);
          assert.match(e.message, expected);
          return true;
        },
      );
    }
  });
});

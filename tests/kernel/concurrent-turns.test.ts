/**
 * Turns of one session at once (issue 31.8). A turn that brings its caller's conversation
 * (`history`, an OpenAI client's messages) runs beside the session's others, its writes one at a
 * time through the session's store queue: with a budget so small that every turn prunes, eight at
 * once all end, and every event they wrote has one holder. Turns that render the stored history
 * still queue: each sees the one before it whole.
 */
import { describe, test, afterEach } from "node:test";
import assert from "node:assert/strict";
import { kernelHarness, type Harness } from "./support.ts";

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

const lastUser = (body: { messages: { role: string; content: unknown }[] }) => String([...body.messages].reverse().find((m) => m.role === "user")?.content ?? "");
/** An input of ~300 tokens: two turns overflow a 500-token budget, so each turn's overflow check prunes. */
const long = (n: number) => `question ${n}: ${Array.from({ length: 150 }, (_, i) => `word${(i * 7 + n) % 97}`).join(" ")}`;

describe("turns of one session at once", () => {
  test("eight turns that bring their own history run together, their prunes one at a time; each event has one holder", async () => {
    h = await kernelHarness((r) => ({ content: `answer to ${lastUser(r.body).slice(0, 11)}`, delayMs: 100 }), { budget: 500 });
    // Each prune takes a little longer, as over a libSQL server's round trips: overlapping prunes
    // would plan on the same events (and the second sink would find them gone).
    const engine = h.kernel.engine;
    const prune = engine.prune.bind(engine);
    let pruning = 0;
    let mostPruning = 0;
    engine.prune = async (...args) => {
      mostPruning = Math.max(mostPruning, ++pruning);
      try {
        await new Promise((resolve) => setTimeout(resolve, 20));
        return await prune(...args);
      } finally {
        pruning--;
      }
    };
    const session = await h.kernel.sessions.open("openai", "alice");
    // Four turns first, so that the eight below start over the threshold.
    for (let n = 0; n < 4; n++) await h.kernel.turn({ session, input: long(n), history: [] });
    // Turns past their start (their first model round begun) and not yet ended.
    let running = 0;
    let mostRunning = 0;
    const onEvent = (e: { type: string; n?: number }) => void (e.type === "iteration" && e.n === 1 && (mostRunning = Math.max(mostRunning, ++running)));
    const results = await Promise.all(Array.from({ length: 8 }, (_, i) => h!.kernel.turn({ session, input: long(10 + i), history: [], onEvent }).finally(() => running--)));
    assert.deepEqual(
      results.map((r) => r.stopReason),
      Array<string>(8).fill("no_tool_calls"),
    );
    assert.ok(mostRunning > 1, "the turns ran at the same time");
    assert.equal(mostPruning, 1, "one prune of the session at a time");
    const rows = await h.store.client.execute({ sql: "SELECT layer, COUNT(*) AS n FROM events WHERE session_id = ? GROUP BY layer", args: [session.id] });
    const byLayer = Object.fromEntries(rows.rows.map((r) => [String(r.layer), Number(r.n)]));
    assert.equal((byLayer.L1 ?? 0) + (byLayer.L2 ?? 0), 24, `every input and answer stored once: ${JSON.stringify(byLayer)}`);
    assert.ok((byLayer.L2 ?? 0) > 0, "the overflow checks pruned");
  });

  test("turns that render the stored history still queue: the second sees the first's answer", async () => {
    h = await kernelHarness((r) => ({ content: `answer to ${lastUser(r.body)}`, delayMs: 50 }));
    const session = await h.kernel.sessions.open("console", "bob");
    await Promise.all([h.kernel.turn({ session, input: "first" }), h.kernel.turn({ session, input: "second" })]);
    const second = h.provider.requests.find((r) => lastUser(r.body) === "second")!;
    assert.ok(
      second.body.messages.some((m: { role: string; content: string }) => m.role === "assistant" && m.content === "answer to first"),
      "the second turn's request holds the first's answer",
    );
  });
});

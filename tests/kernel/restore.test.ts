/**
 * Peek → confirm → move (DESIGN §3), through real kernel turns on a real libSQL file: an early
 * turn of a long chat has sunk to L2; when the user comes back to their topic, recall is sure of them
 * (first in every channel) and the next request holds the original turns — user message and
 * answer, in their original order, as messages rather than an injected line — within the budget.
 */
import { describe, test, afterEach } from "node:test";
import assert from "node:assert/strict";
import { messageTokens, sinkToL2, type ChatMessage } from "../../src/context/index.ts";
import { toolSpecTokens } from "../../src/kernel/index.ts";
import type { ToolSpec } from "../../src/llm/index.ts";
import { kernelHarness, type Harness } from "./support.ts";

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

const KYOTO =
  "Plan the Kyoto trip: we take the shinkansen from Tokyo on Tuesday and sleep at the Hoshinoya ryokan by the Katsura river. " +
  "Day one: Fushimi Inari at dawn, Kiyomizu-dera, dinner in Pontocho. Day two: Arashiyama bamboo grove, Tenryu-ji, the monkey park, " +
  "a kaiseki dinner at the ryokan. Day three: Kinkaku-ji, Ryoan-ji, Nishiki market, back on the evening shinkansen.";
const KYOTO_ANSWER =
  "Noted: shinkansen Tuesday morning, two nights at Hoshinoya, the boat up the Katsura; Fushimi Inari at dawn, Arashiyama on day two, " +
  "Kinkaku-ji and Nishiki market before the evening train. I will remind you to book the kaiseki dinner and the Pontocho table.";
const TOPICS = [
  "sourdough starter feeding",
  "bicycle chain lubrication",
  "tax return deadlines",
  "piano scales practice",
  "aquarium filter cleaning",
  "chess opening theory",
  "balcony tomato watering",
  "laptop battery care",
  "marathon training pace",
  "knitting a wool scarf",
  "car tyre pressure",
  "houseplant repotting",
];

/** The model: answers the Kyoto plan with its own words, anything else with a long filler. */
const model = (request: { body: any }) => {
  const last = request.body.messages.at(-1) as ChatMessage;
  const text = typeof last.content === "string" ? last.content : "";
  if (text.startsWith("Plan the Kyoto")) return { content: KYOTO_ANSWER };
  return { content: `About that: ${text.slice(0, 40)} — ${"steady routine matters more than intensity ".repeat(16)}` };
};

const layerOf = async (harness: Harness, text: string) => String((await harness.store.client.execute({ sql: "SELECT layer FROM events WHERE text LIKE ?", args: [`%${text}%`] })).rows[0]?.layer);

const requestTokens = (request: { body: any }) => (request.body.messages as ChatMessage[]).reduce((sum, m) => sum + messageTokens(m), 0) + toolSpecTokens(request.body.tools as ToolSpec[]);

/**
 * A chat whose first turn (the Kyoto plan) has sunk to L2. It is sunk explicitly, through the
 * store's own sink (the one pruning uses): which turns pruning sinks is pruning's business
 * (tests/context), and this test needs that one sunk whatever the scorer thinks of it.
 */
async function longChat(): Promise<Awaited<ReturnType<Harness["kernel"]["sessions"]["open"]>>> {
  const session = await h!.kernel.sessions.open("test", "Ann");
  await h!.kernel.turn({ session, input: KYOTO });
  for (const topic of TOPICS) await h!.kernel.turn({ session, input: `Tell me about ${topic}: ${`${topic}, `.repeat(30)}` });
  const kyoto = await h!.store.client.execute("SELECT id FROM events WHERE text LIKE '%Hoshinoya%' AND layer = 'L1'");
  assert.equal(kyoto.rows.length, 2);
  await sinkToL2(
    h!.store.client,
    kyoto.rows.map((r) => String(r.id)),
  );
  return session;
}

describe("cold turns come back into context", () => {
  test("returning to a sunk topic: the next request holds the original turn, in order, within the budget; a weak match does not", async () => {
    const budget = 3000;
    h = await kernelHarness(model, { budget });
    const session = await longChat();
    // A weak match first: one word of the plan among others that match the fillers better.
    await h.kernel.turn({ session, input: "What routine for the bicycle chain and the tomato watering on Tuesday?" });
    assert.equal(await layerOf(h, "Hoshinoya ryokan"), "L2", "recall was not sure of it: it stays cold");
    const reports: Record<string, unknown>[] = [];
    await h.kernel.turn({ session, input: "Back to the Kyoto trip: which ryokan and which day for the shinkansen?", onEvent: (e) => e.type === "recall" && reports.push(e.report) });
    const request = h.provider.requests.at(-1)!;
    const messages = request.body.messages as ChatMessage[];
    const contents = messages.map((m) => (typeof m.content === "string" ? m.content : ""));
    const question = contents.indexOf(KYOTO);
    const answer = contents.indexOf(KYOTO_ANSWER);
    assert.ok(question > 0 && messages[question]!.role === "user", `the original question is a message of the request:\n${contents.join("\n")}`);
    assert.ok(answer === question + 1 && messages[answer]!.role === "assistant", "its answer follows it");
    assert.ok(answer < contents.length - 1 && contents.at(-1)!.startsWith("Back to the Kyoto"), "both before the new input");
    assert.doesNotMatch(contents[0]!, /Hoshinoya/, "not injected as a memory line as well");
    assert.ok(requestTokens(request) <= budget, `request of ${requestTokens(request)} tokens exceeds the ${budget}-token budget`);
    // The move is visible: the recall report names the restored events, the log says what sank.
    assert.equal((reports[0]!.restored as string[]).length, 2);
    assert.ok(
      h.logs.some((l) => /restored 2 cold events into L1 .*; sank \d+ to make room/.test(l)),
      h.logs.join("\n"),
    );
    assert.equal(await layerOf(h, "Hoshinoya ryokan"), "L1");
    const split = await h.store.client.execute("SELECT count(*) AS n FROM blocks b JOIN events e ON e.id = b.event_id WHERE b.holder <> e.layer");
    assert.equal(Number(split.rows[0]!.n), 0, "every block has its event's holder");
  });

  test("the model asks for it: memory_recall with restore: true brings the turn back for the next round", async () => {
    h = await kernelHarness(
      (request, _n) => {
        const tools = request.body.messages.filter((m: ChatMessage) => m.role === "tool");
        const last = request.body.messages.at(-1) as ChatMessage;
        if (typeof last.content === "string" && last.content === "What did we settle on, then?") {
          return { toolCalls: [{ id: "r1", name: "memory_recall", arguments: JSON.stringify({ query: "Kyoto Hoshinoya ryokan shinkansen", restore: true, limit: 1 }) }] };
        }
        return tools.length && last.role === "tool" ? { content: "done" } : model(request);
      },
      { budget: 4000 },
    );
    // A larger budget than above: the tool round (the recall's JSON) must not be a runaway frame.
    const session = await longChat();
    await h.kernel.turn({ session, input: "What did we settle on, then?" });
    const [first, second] = h.provider.requests.slice(-2).map((r) => (r.body.messages as ChatMessage[]).map((m) => (typeof m.content === "string" ? m.content : "")));
    assert.ok(!first!.includes(KYOTO), "not in the request before the tool ran");
    assert.ok(second!.includes(KYOTO) && second!.indexOf(KYOTO_ANSWER) === second!.indexOf(KYOTO) + 1, "the next round holds the original turn");
    const result = JSON.parse(second!.at(-1)!);
    assert.equal(result.restored.length, 2, JSON.stringify(result));
    assert.ok(requestTokens(h.provider.requests.at(-1)!) <= 4000, "the budget holds");
  });
});

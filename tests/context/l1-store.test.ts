import { after, describe, test } from "node:test";
import assert from "node:assert/strict";
import { rmSync } from "node:fs";
import { join } from "node:path";
import { openStore, type Store } from "../../src/store/index.ts";
import { searchEvents } from "../../src/search/index.ts";
import { createContextEngine, inspectSequence, sinkToL2, writeL1Event, type ContextEvent } from "../../src/context/index.ts";
import { createFallbackEmbedder } from "../../src/embed/index.ts";
import { coldcontextQuery } from "../../src/memory/index.ts";
import { tempDir, testDir } from "../support/temp-dir.ts";

const dir = tempDir("homed-l1-").path;
after(() => rmSync(dir, { recursive: true, force: true }));

const TOPICS = [
  "我们明天在杭州部署 kubernetes 集群，用 helm 安装",
  "what should I cook for dinner tonight",
  "推荐几部好看的科幻电影",
  "the kubernetes pod is in crashloop after the deploy",
  "记得周日给妈妈打电话",
  "my running shoes are worn out",
];

/** Event i: a plain turn, or every third one a tool frame with parallel calls. */
function event(i: number): ContextEvent {
  const time = new Date(Date.UTC(2026, 0, 1, 10, i)).toISOString();
  const topic = TOPICS[i % TOPICS.length]!;
  if (i % 3 !== 2) return { id: `ev-${i}`, time, messages: [{ role: "user", content: `${topic} (${i})` }] };
  return {
    id: `ev-${i}`,
    time,
    messages: [
      {
        role: "user",
        content: [
          { type: "text", text: topic },
          { type: "image_url", image_url: { url: `https://example.com/${i}.png` } },
        ],
      },
      {
        role: "assistant",
        content: null,
        tool_calls: [
          { id: `c${i}a`, type: "function", function: { name: "search", arguments: `{"q":"${i}"}` } },
          { id: `c${i}b`, type: "function", function: { name: "read", arguments: "{}" } },
        ],
      },
      { role: "tool", tool_call_id: `c${i}b`, content: `read result ${i}` },
      { role: "tool", tool_call_id: `c${i}a`, content: `search result ${i}: ${topic}` },
      { role: "assistant", content: `done ${i}` },
    ],
  };
}

async function holders(store: Store) {
  const events = await store.client.execute("SELECT id, layer FROM events ORDER BY id");
  const blocks = await store.client.execute("SELECT b.id, b.holder, e.layer FROM blocks b JOIN events e ON e.id = b.event_id ORDER BY b.id");
  return {
    events: events.rows.map((r) => `${r.id}:${r.layer}`),
    blocks: blocks.rows.map((r) => ({ id: String(r.id), holder: String(r.holder), layer: String(r.layer) })),
  };
}

// Awaited set-up at the top level, not in an async describe: Deno's node:test does not wait
// for an async describe body, so the tests it registers after an await would never run.
const store = await openStore({ url: `file:${join(dir, "homed.db")}` });
const lines: string[] = [];
const engine = createContextEngine({ client: store.client, logger: { info: (line) => lines.push(line) }, pinned: 3 });
let total = 0;
for (let i = 0; i < 24; i++) total += (await engine.append("s1", "conv-1", event(i))).tokens;

describe("L1 in the store", () => {
  after(() => store.close());

  test("an entered event has both vectors, its blocks in L1 and its search rows", async () => {
    const row = (await store.client.execute("SELECT layer, embed_model, length(embedding) AS bytes, tfidf FROM events WHERE id = 'ev-2'")).rows[0]!;
    assert.equal(row.layer, "L1");
    assert.equal(row.embed_model, engine.embedder.modelId);
    assert.equal(row.bytes, 512 * 4);
    const tfidf = JSON.parse(String(row.tfidf)) as Record<string, number>;
    assert.ok("科幻" in tfidf && "search" in tfidf, `tfidf terms: ${Object.keys(tfidf)}`);
    const blocks = await store.client.execute("SELECT kind, holder FROM blocks WHERE event_id = 'ev-2' ORDER BY id");
    assert.deepEqual(blocks.rows.map((r) => `${r.kind}:${r.holder}`).sort(), ["image:L1", "text:L1", "text:L1", "text:L1", "text:L1", "text:L1"]);
    const found = await searchEvents(
      store.client,
      { words: ["科幻"], trigrams: [], bigrams: [] },
      { limit: 5, filter: { sql: "e.id = 'ev-2'", args: [] }, within: { sql: "SELECT rowid AS r FROM events WHERE id = 'ev-2'", args: [] } },
    );
    assert.deepEqual(
      found.words.map((r) => r.id),
      ["ev-2"],
    );
  });

  test("a prune sinks to L2: nothing lost, ids stay, every block exactly one holder, the same as its event", async () => {
    const before = await holders(store);
    const budget = Math.floor(total / 2); // ratio 2 > 1.25
    const plan = await engine.prune("s1", "kubernetes 部署 crashloop", budget);
    assert.match(lines.at(-1)!, /^session s1: overflow check #1: ratio=2\.\d\d events=24 \(threshold=1\.25\)$/);
    assert.ok(plan.sink.length > 0);
    const afterSink = await holders(store);
    assert.equal(afterSink.events.length, before.events.length, "no event lost or copied");
    assert.deepEqual(
      afterSink.blocks.map((b) => b.id),
      before.blocks.map((b) => b.id),
      "same block ids, none lost or copied",
    );
    for (const b of afterSink.blocks) assert.equal(b.holder, b.layer, `block ${b.id} held by ${b.holder}, its event in ${b.layer}`);
    const sunk = afterSink.events
      .filter((e) => e.endsWith(":L2"))
      .map((e) => e.split(":")[0])
      .sort();
    assert.deepEqual(sunk, [...plan.sink].sort());
    const l1 = await store.client.execute("SELECT SUM(tokens) AS t FROM events WHERE layer = 'L1'");
    assert.ok(Number(l1.rows[0]!.t) <= budget, "what stays fits the budget");
    for (const id of ["ev-21", "ev-22", "ev-23"]) assert.ok(plan.keep.includes(id), `pinned ${id} kept`);
    // Tool frames are the large events; the ones about the input stay, unrelated ones sink.
    for (const id of ["ev-9", "ev-15"]) assert.ok(plan.keep.includes(id), `relevant ${id} kept`);
    for (const id of ["ev-2", "ev-8", "ev-14"]) assert.ok(plan.sink.includes(id), `unrelated ${id} sunk`);
  });

  test("a sunk event is searchable by its words in L2 (indexed on entry, not on the move)", async () => {
    const hits = await searchEvents(store.client, { words: ["科幻"], trigrams: [], bigrams: [] }, { limit: 20, filter: { sql: "e.layer = 'L2'", args: [] } });
    assert.ok(
      hits.words.some((r) => r.id === "ev-2"),
      `L2 hits: ${hits.words.map((r) => r.id)}`,
    );
  });

  test("a second check under the threshold sinks nothing and counts #2", async () => {
    const plan = await engine.prune("s1", "anything", 1_000_000);
    assert.deepEqual(plan.sink, []);
    assert.match(lines.at(-1)!, /^session s1: overflow check #2: ratio=0\.\d\d events=\d+ \(threshold=1\.25\)$/);
  });

  test("a sink naming a non-L1 event moves nothing at all", async () => {
    const before = await holders(store);
    const l1 = (await store.client.execute("SELECT id FROM events WHERE layer = 'L1' LIMIT 1")).rows[0]!.id as string;
    await assert.rejects(sinkToL2(store.client, [l1, "no-such-event"]), /Cannot sink to L2: 1 of 2 events are not in L1/);
    assert.deepEqual(await holders(store), before);
  });

  test("the remaining L1 renders as a valid request", async () => {
    const out = await engine.render("s1", 2_000);
    const report = inspectSequence(out.messages);
    assert.ok(out.included.length > 0);
    assert.equal(report.dangling + report.orphans, 0);
    assert.ok(report.tokens <= 2_000);
  });
});

describe("search text of live events", () => {
  test("an answer, once sunk, is found by the words of the question before it", async () => {
    const store = await openStore({ url: `file:${join(testDir("homed-l1-"), "homed.db")}` });
    const embedder = createFallbackEmbedder();
    const say = (id: string, role: "user" | "assistant", content: string) =>
      writeL1Event(store.client, { sessionId: "s", conversation: "c", embedder, event: { id, time: new Date(0).toISOString(), messages: [{ role, content }] } });
    await say("q", "user", "Which dentist did I book in Hangzhou?");
    await say("a", "assistant", "Dr. Chen at Xixi clinic, Tuesday at nine.");
    await sinkToL2(store.client, ["q", "a"]);
    const found = await coldcontextQuery(store.client, "dentist Hangzhou", { k: 5, conversation: "c", channels: ["words"] });
    assert.ok(
      found.some((f) => f.id === "a"),
      `the answer should be found: ${JSON.stringify(found.map((f) => f.id))}`,
    );
    store.close();
  });
});

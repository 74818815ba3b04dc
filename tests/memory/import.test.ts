import { describe, test } from "node:test";
import assert from "node:assert/strict";
import type { Embedder } from "../../src/embed/index.ts";
import { spawnSync } from "node:child_process";
import { hostname } from "node:os";
import { cleanAbandonedImports, coldcontextQuery, importHistory, parseHistory } from "../../src/memory/index.ts";
import { VECTOR_DIM } from "../../src/store/index.ts";
import { count, message, openTempStore } from "./fixture.ts";

const line = (over: Record<string, unknown> = {}) =>
  JSON.stringify({ conversation: "c", session: "s1", time: "2024-05-08T13:56:00Z", speaker: "Ann", role: "user", text: "hello", id: "D1:1", ...over });

describe("history import", () => {
  test("parses the documented format, with images, skipping blank lines", () => {
    const parsed = parseHistory([line(), "", line({ id: "D1:2", images: ["https://x/y.jpg"], role: "assistant" })].join("\n"));
    assert.deepEqual(parsed.invalid, []);
    assert.equal(parsed.messages.length, 2);
    assert.equal(parsed.messages[0]!.time, Date.UTC(2024, 4, 8, 13, 56));
    assert.deepEqual(parsed.messages[1]!.images, ["https://x/y.jpg"]);
    assert.equal(parsed.messages[1]!.sourceId, "D1:2");
  });

  test("each invalid line is named with its 1-based number and reason", () => {
    const parsed = parseHistory([line(), "{not json", line({ id: "D1:3", time: "yesterday" }), line({ id: "D1:4", role: "bot" }), line({ id: "D1:1" }), line({ id: "D1:6", text: " " })].join("\n"));
    assert.deepEqual(
      parsed.invalid.map((i) => i.line),
      [2, 3, 4, 5, 6],
    );
    assert.match(parsed.invalid[0]!.reason, /not JSON/);
    assert.match(parsed.invalid[1]!.reason, /"time"/);
    assert.match(parsed.invalid[2]!.reason, /"role"/);
    assert.match(parsed.invalid[3]!.reason, /appears twice/);
    assert.match(parsed.invalid[4]!.reason, /empty/);
  });

  test("an import bounded to few bytes a segment writes several segments, and every message is found in them", async () => {
    await using store = await openTempStore();
    const batch = Array.from({ length: 120 }, (_, i) => message(`order zq${i * 7919}x ships from 仓库${i}号`, { session: `s${i % 7}`, sourceId: `m${i}` }));
    await importHistory(store.client, batch, { segmentLimits: { docs: 8_192, bytes: 30_000 } });
    const segments = await count(store, "SELECT count(*) FROM search_segments");
    assert.ok(segments >= 2, `${segments} segments`);
    assert.equal(await count(store, "SELECT sum(docs) FROM search_segments"), 120);
    for (const i of [0, 60, 119]) {
      const found = await coldcontextQuery(store.client, `zq${i * 7919}x`, { k: 1, channels: ["words"] });
      assert.deepEqual(
        found.flatMap((r) => r.sources),
        [`m${i}`],
      );
    }
  });

  test("re-importing the same messages adds nothing; new ones continue the session's order", async () => {
    await using store = await openTempStore();
    const batch = [message("one", { session: "s", sourceId: "1" }), message("two", { session: "s", sourceId: "2" })];
    assert.deepEqual(await importHistory(store.client, batch), { added: 2, present: 0 });
    assert.deepEqual(await importHistory(store.client, batch), { added: 0, present: 2 });
    const more = [...batch, message("three", { session: "s", sourceId: "3" })];
    assert.deepEqual(await importHistory(store.client, more), { added: 1, present: 2 });
    assert.equal(await count(store, "SELECT count(*) FROM events"), 3);
    assert.equal(await count(store, "SELECT sum(docs) FROM search_segments WHERE state = 'live'"), 3, "each message indexed once");
    const seqs = await store.client.execute("SELECT seq FROM events ORDER BY time");
    assert.deepEqual(
      seqs.rows.map((r) => Number(r.seq)),
      [0, 1, 2],
    );
    // The same id in another conversation is another message.
    await importHistory(store.client, [message("one", { session: "s", sourceId: "1", conversation: "other" })]);
    assert.equal(await count(store, "SELECT count(*) FROM events"), 4);
  });

  test("imported messages are L2 events with provenance, one text block each, held by L2", async () => {
    await using store = await openTempStore();
    await importHistory(store.client, [message("with a photo", { sourceId: "p", images: ["file:///a.jpg"] })]);
    const row = (await store.client.execute("SELECT layer, source_id, role, speaker FROM events")).rows[0]!;
    assert.deepEqual([row.layer, row.source_id, row.role, row.speaker], ["L2", "p", "user", "Ann"]);
    const blocks = await store.client.execute("SELECT kind, holder, content FROM blocks ORDER BY id");
    assert.deepEqual(
      blocks.rows.map((b) => [b.kind, b.holder, b.content]),
      [
        ["text", "L2", "with a photo"],
        ["image", "L2", "file:///a.jpg"],
      ],
    );
  });

  test("a failure in the middle of an import writes nothing", async () => {
    await using store = await openTempStore();
    let calls = 0;
    const failing: Embedder = {
      modelId: "failing@512",
      dimension: VECTOR_DIM,
      embedTexts: async (texts) => {
        // The first chunk (1000 messages) is written, in its own transaction, before the second one fails.
        if (++calls === 2) throw new Error("model crashed");
        return texts.map(() => new Float32Array(VECTOR_DIM).fill(0.1));
      },
    };
    const many = Array.from({ length: 1_100 }, (_, i) => message(`note ${i}`, { sourceId: String(i) }));
    await assert.rejects(importHistory(store.client, many, { embedder: failing }), /model crashed/);
    assert.equal(calls, 2);
    for (const table of ["events", "blocks", "search_segments", "search_postings", "import_events", "import_blocks", "import_seen", "import_runs"]) {
      assert.equal(await count(store, `SELECT count(*) FROM ${table}`), 0, table);
    }
  });

  test("an id read again in the next chunk is caught, though that chunk is analysed before the first is written", async () => {
    await using store = await openTempStore();
    // Chunks of 1,000: message 1,200 repeats message 10's id while chunk one's ids are still on their way to import_seen.
    const many = Array.from({ length: 1_500 }, (_, i) => ({ ...message(`note ${i}`, { sourceId: String(i === 1_200 ? 10 : i) }), line: i + 1 }));
    await assert.rejects(importHistory(store.client, many), /line 1201: "id": 10 appears twice in conversation conv-a/);
    for (const table of ["events", "import_events", "import_seen", "search_segments"]) assert.equal(await count(store, `SELECT count(*) FROM ${table}`), 0, table);
  });

  test("cleaning at start removes the runs whose process is gone and keeps a running one's", async () => {
    await using store = await openTempStore();
    const gone = spawnSync(process.execPath, ["--version"]).pid;
    for (const [id, pid] of [
      [1, gone],
      [2, process.ppid],
    ] as const) {
      await store.client.execute({ sql: "INSERT INTO import_runs (id, first_rowid, state, pid, host, started_at) VALUES (?, ?, 'staging', ?, ?, 0)", args: [id, id * 2 ** 32, pid, hostname()] });
      await store.client.execute({ sql: "INSERT INTO import_seen (run, id) VALUES (?, 'ev_x')", args: [id] });
    }
    assert.equal(await cleanAbandonedImports(store.client), 1);
    assert.equal(await count(store, "SELECT group_concat(id) FROM import_runs"), 2);
    assert.equal(await count(store, "SELECT group_concat(run) FROM import_seen"), 2);
  });

  test("more sessions open at once than are held: each session's messages keep their order across chunks", async () => {
    await using store = await openTempStore();
    // 300 sessions interleaved turn by turn, 50 held open: every session is let go and met again,
    // and its last turns come in the second chunk, where where it goes on must come from staging.
    const messages = [];
    for (let turn = 0; turn < 4; turn++) {
      for (let s = 0; s < 300; s++) messages.push(message(`turn ${turn} of session ${s}`, { session: `s${s}`, sourceId: `${s}-${turn}` }));
    }
    assert.deepEqual(await importHistory(store.client, messages, { openSessions: 50 }), { added: 1_200, present: 0 });
    const rows = await store.client.execute("SELECT session_id, group_concat(seq || ':' || source_id, ' ') AS seqs FROM (SELECT * FROM events ORDER BY session_id, seq) GROUP BY session_id");
    assert.equal(rows.rows.length, 300);
    for (const r of rows.rows) {
      const s = String(r.session_id).split("/s")[1];
      assert.equal(r.seqs, `0:${s}-0 1:${s}-1 2:${s}-2 3:${s}-3`);
    }
  });
});

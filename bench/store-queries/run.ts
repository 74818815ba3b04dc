/**
 * What recall's per-turn reads cost through the store's typed sql templates (src/store/cold-*.ts)
 * against the same SQL through a raw `client.execute` (the baseline, as the code ran before the
 * SQL moved into src/store/), interleaved on one store of 3,000 synthetic messages with a
 * stand-in model's vectors. p50 per query. The query builder cost ~150 µs a query more than the
 * raw SQL (store/memory-records.ts), which is why these are templates.
 */
import { join } from "node:path";
import { importHistory } from "../../src/memory/index.ts";
import { coldCandidateRows, coldUses, coldVectorCount, idsInConversation, nearestColdEvents, nearestColdImages, openStore, recentColdEvents } from "../../src/store/index.ts";
import { createFallbackEmbedder, type Embedder } from "../../src/embed/index.ts";
import { syntheticHistory } from "../synthetic-corpus.ts";
import { scratchDir } from "../scratch.ts";

const dir = scratchDir("homed-bench-store-queries-");
const store = await openStore({ url: `file:${join(dir, "homed.db")}` });
const c = store.client;
const standIn: Embedder = { ...createFallbackEmbedder(), modelId: "bench-stand-in@512" };
const messages = syntheticHistory(3000);
await importHistory(c, messages, { embedder: standIn });
const conv = messages[0]!.conversation;
const ids = (await c.execute("SELECT id FROM events ORDER BY random() LIMIT 100")).rows.map((r) => String(r.id));
const [vec] = await standIn.embedTexts(["garden"], { purpose: "query" });
const blob = new Uint8Array(vec!.buffer);
const marks = (n: number) => Array.from({ length: n }, () => "?").join(", ");
const pairs: [string, () => Promise<unknown>, () => Promise<unknown>][] = [
  [
    "candidate rows (10 ids)",
    () => c.execute({ sql: `SELECT id, text, time, conversation, session_id, speaker, source_id FROM events WHERE +layer = 'L2' AND id IN (${marks(10)})`, args: ids.slice(0, 10) }),
    () => coldCandidateRows(c, ids.slice(0, 10)),
  ],
  ["own ids (100 ids)", () => c.execute({ sql: `SELECT id FROM events WHERE +conversation = ? AND id IN (${marks(100)})`, args: [conv, ...ids] }), () => idsInConversation(c, "events", conv, ids)],
  ["uses (10 ids)", () => c.execute({ sql: `SELECT id, access_count, scene_id FROM events WHERE id IN (${marks(10)})`, args: ids.slice(0, 10) }), () => coldUses(c, ids.slice(0, 10))],
  [
    "vector count (viewer)",
    () => c.execute({ sql: "SELECT count(*) AS n FROM events e WHERE e.layer = 'L2' AND e.embed_model = ?", args: [standIn.modelId] }),
    () => coldVectorCount(c, {}, standIn.modelId),
  ],
  [
    "vector exact scan (chat viewer, 100)",
    () =>
      c.execute({
        sql: `SELECT e.id AS id, vector_distance_cos(e.embedding, vector32(?)) AS distance FROM events e WHERE e.layer = 'L2' AND (e.private_to IS NULL OR e.private_to IN (?)) AND e.embed_model = ? AND e.embedding IS NOT NULL ORDER BY distance LIMIT ?`,
        args: [blob, "partner:Ann", standIn.modelId, 100],
      }),
    () => nearestColdEvents(c, { vector: blob, modelId: standIn.modelId }, { privateScopes: ["partner:Ann"] }, 100),
  ],
  [
    "images (chat viewer)",
    () =>
      c.execute({
        sql: `SELECT b.event_id AS id, min(vector_distance_cos(b.embedding, vector32(?))) AS distance FROM blocks b JOIN events e ON e.id = b.event_id WHERE b.kind = 'image' AND b.embed_model = ? AND b.embedding IS NOT NULL AND e.layer = 'L2' AND (e.private_to IS NULL OR e.private_to IN (?)) GROUP BY b.event_id ORDER BY distance LIMIT ?`,
        args: [blob, standIn.modelId, "partner:Ann", 100],
      }),
    () => nearestColdImages(c, { vector: blob, modelId: standIn.modelId }, { privateScopes: ["partner:Ann"] }, 100),
  ],
  [
    "recent cold (short input)",
    () =>
      c.execute({
        sql: `SELECT id, text, access_count FROM events WHERE layer = 'L2' AND (conversation = ? OR scope = 'user') AND (events.private_to IS NULL OR events.private_to IN (?)) ORDER BY time DESC LIMIT ?`,
        args: [conv, "partner:Ann", 5],
      }),
    () => recentColdEvents(c, { conversation: conv, privateScopes: ["partner:Ann"], limit: 5 }),
  ],
];
const p50 = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
for (const [name, raw, store] of pairs) {
  const t = { raw: [] as number[], store: [] as number[] };
  const N = name.includes("scan") ? 600 : 2000;
  for (let i = 0; i < N; i++)
    for (const [k, f] of (i % 2
      ? [
          ["raw", raw],
          ["store", store],
        ]
      : [
          ["store", store],
          ["raw", raw],
        ]) as ["raw" | "store", () => Promise<unknown>][]) {
      const s = performance.now();
      await f();
      t[k].push(performance.now() - s);
    }
  console.log(`${name.padEnd(40)} raw execute p50 ${(p50(t.raw) * 1000).toFixed(0)} µs   store module p50 ${(p50(t.store) * 1000).toFixed(0)} µs  (${N} each, interleaved)`);
}
store.close();

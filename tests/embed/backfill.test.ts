/** Backfill after a switch of embedder: complete, resumable, visible, and never in recall's way. */
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { createClient } from "@libsql/client";
import { join } from "node:path";
import { backfillEmbeddings, countStale, createClipEmbedder, createFallbackEmbedder, readClipFolder, type BackfillProgress, type Embedder } from "../../src/embed/index.ts";
import { openStore, type Store } from "../../src/store/index.ts";
import { pngFile } from "./images.ts";
import { tinyClipCopy } from "./tiny-clip.ts";
import { testDir } from "../support/temp-dir.ts";

const fallback = createFallbackEmbedder();
const blob = (v: Float32Array) => new Uint8Array(v.buffer, v.byteOffset, v.byteLength);
const IMAGE = pngFile(32, 32, (x) => [x * 8, 10, 200]);

/**
 * A store holding 5 events (3 by the fallback, 2 never embedded) and 6 blocks: 2 text, and 4
 * images — stored bytes, an inline data: URL, a remote URL (never fetched), broken bytes.
 */
async function seeded(): Promise<{ store: Store; url: string }> {
  const url = `file:${join(testDir("homed-backfill-"), "homed.db")}`;
  const store = await openStore({ url });
  const texts = ["我爱北京", "the cat sat", "周五开会", "", "hello world"];
  for (const [i, text] of texts.entries()) {
    const embedded = i < 3;
    await store.client.execute({
      sql: `INSERT INTO events (id, session_id, conversation, layer, seq, time, messages, text, tokens, created_at, embed_model, embedding)
            VALUES (?, 's', 'c', 'L2', ?, 0, '[]', ?, 1, 0, ?, ?)`,
      args: [`e${i}`, i, text, embedded ? fallback.modelId : null, embedded ? blob((await fallback.embedTexts([text]))[0]!) : null],
    });
  }
  const blocks: [string, string, string | null, Uint8Array | null][] = [
    ["b0", "text", "猫的图片", null],
    ["b1", "image", null, IMAGE],
    ["b2", "image", null, new Uint8Array([1, 2, 3])],
    ["b3", "text", "notes", null],
    ["b4", "image", `data:image/png;base64,${Buffer.from(IMAGE).toString("base64")}`, null],
    ["b5", "image", "https://example.invalid/cat.png", null],
  ];
  for (const [id, kind, content, bytes] of blocks) {
    await store.client.execute({ sql: "INSERT INTO blocks (id, kind, holder, content, created_at) VALUES (?, ?, 'L2', ?, 0)", args: [id, kind, content] });
    if (bytes) await store.client.execute({ sql: "INSERT INTO block_data (block_id, bytes) VALUES (?, ?)", args: [id, bytes] });
  }
  return { store, url };
}

async function vectorOf(store: Store, table: string, id: string): Promise<{ model: string | null; vector?: Float32Array }> {
  const row = (await store.client.execute({ sql: `SELECT embed_model, embedding FROM ${table} WHERE id = ?`, args: [id] })).rows[0]!;
  const bytes = row.embedding as ArrayBuffer | null;
  return { model: row.embed_model as string | null, vector: bytes ? new Float32Array(bytes.slice(0)) : undefined };
}

const same = (a: Float32Array | undefined, b: Float32Array) => !!a && a.length === b.length && a.every((v, i) => Math.abs(v - b[i]!) < 1e-6);

// Awaited set-up at the top level, not in an async describe: Deno's node:test does not wait
// for an async describe body, so the tests it registers after an await would never run.
const clip = await createClipEmbedder(readClipFolder(tinyClipCopy("fp32")));

describe("backfill", () => {
  test("re-embeds every stale event and block with the new model; images through the image encoder", async () => {
    const { store } = await seeded();
    assert.deepEqual(await countStale(store.client, clip), { events: 5, blocks: 6 });
    const progress: BackfillProgress[] = [];
    const report = await backfillEmbeddings(store.client, clip, { batchSize: 2, onProgress: (p) => progress.push(p) });
    assert.deepEqual(report.events, { done: 4, skipped: 1, total: 5 }); // the empty event has nothing to embed
    // The broken image is skipped, not fatal; the remote URL is not fetched.
    assert.deepEqual(report.blocks, { done: 4, skipped: 2, total: 6 });
    for (const [i, text] of ["我爱北京", "the cat sat", "周五开会"].entries()) {
      const got = await vectorOf(store, "events", `e${i}`);
      assert.equal(got.model, clip.modelId);
      assert.ok(same(got.vector, (await clip.embedTexts([text]))[0]!));
    }
    const image = await vectorOf(store, "blocks", "b1");
    assert.equal(image.model, clip.modelId);
    assert.ok(same(image.vector, (await clip.embedImages!([IMAGE]))[0]!));
    assert.ok(same((await vectorOf(store, "blocks", "b4")).vector, (await clip.embedImages!([IMAGE]))[0]!));
    assert.equal((await vectorOf(store, "blocks", "b2")).model, null);
    assert.equal((await vectorOf(store, "blocks", "b5")).model, null);
    assert.deepEqual(
      progress.map((p) => `${p.table} ${p.done}+${p.skipped}/${p.total}`),
      ["events 2+0/5", "events 3+1/5", "events 4+1/5", "blocks 2+0/6", "blocks 3+1/6", "blocks 4+2/6"],
    );
    assert.deepEqual(await countStale(store.client, clip), { events: 1, blocks: 2 });
    store.close();
  });

  test("resumable: stopped after one batch, the next run does only what is left", async () => {
    const { store } = await seeded();
    const stop = new AbortController();
    const first = await backfillEmbeddings(store.client, clip, { batchSize: 2, signal: stop.signal, onProgress: () => stop.abort() });
    assert.equal(first.stopped, true);
    assert.equal(first.events.done, 2);
    const embedded: string[] = [];
    const counting: Embedder = {
      ...clip,
      embedTexts: async (texts, options) => (embedded.push(...texts), clip.embedTexts(texts, options)),
    };
    const second = await backfillEmbeddings(store.client, counting, { batchSize: 2 });
    assert.equal(second.stopped, false);
    assert.equal(second.events.total, 3);
    assert.deepEqual(embedded, ["周五开会", "hello world", "猫的图片", "notes"]);
    store.close();
  });

  test("readers keep working mid-backfill, and a vector written meanwhile is not overwritten", async () => {
    const { store, url } = await seeded();
    let release!: () => void;
    let paused!: () => void;
    const isPaused = new Promise<void>((resolve) => (paused = resolve));
    const gate = new Promise<void>((resolve) => (release = resolve));
    let calls = 0;
    const gated: Embedder = {
      modelId: clip.modelId,
      dimension: clip.dimension,
      embedTexts: async (texts, options) => {
        if (++calls === 2) {
          paused();
          await gate;
        }
        return clip.embedTexts(texts, options);
      },
    };
    const running = backfillEmbeddings(store.client, gated, { batchSize: 2 });
    await isPaused;
    // Another connection, as the daemon's recall would have: reads and vector search still answer.
    const reader = createClient({ url });
    const probe = blob((await fallback.embedTexts(["周五开会"]))[0]!);
    const near = await reader.execute({
      sql: "SELECT id FROM events WHERE embed_model = ? ORDER BY vector_distance_cos(embedding, vector32(?)) LIMIT 1",
      args: [fallback.modelId, probe],
    });
    assert.equal(near.rows[0]?.id, "e2");
    // A writer stores e2 with the new model while the backfill holds e2 in its current batch.
    const fresh = new Float32Array(512).fill(0);
    fresh[0] = 1;
    await reader.execute({ sql: "UPDATE events SET embed_model = ?, embedding = ? WHERE id = 'e2'", args: [clip.modelId, blob(fresh)] });
    reader.close();
    release();
    await running;
    assert.ok(same((await vectorOf(store, "events", "e2")).vector, fresh));
    assert.equal((await vectorOf(store, "events", "e4")).model, clip.modelId);
    store.close();
  });
});

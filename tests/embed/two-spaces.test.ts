/**
 * Two vector spaces (issue 16): with a sentence encoder and Chinese-CLIP both installed, text
 * memory is the sentence encoder's and images are CLIP's, each tagged with its own model; a text
 * query reaches the photo through CLIP's text tower in CLIP's space; backfill and coverage count
 * both spaces.
 *
 * The tiny CLIP's image tower is rebuilt here so that an image whose top-left red channel is
 * above the mean lies exactly along the text "猫" (below it: exactly opposite) — what real CLIP
 * learns from captioned photos. The expected vectors come from the fixture's weight formulas.
 */
import { after, describe, test } from "node:test";
import assert from "node:assert/strict";
import { cpSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { sinkToL2, writeL1Event } from "../../src/context/index.ts";
import { backfillEmbeddings, countStale, createSentenceEmbedder, imageEmbedder, openEmbedder, readSentenceFolder, runModelCommand, type Embedder } from "../../src/embed/index.ts";
import { parseArgs, resolveSettings } from "../../src/config/index.ts";
import { COMMANDS } from "../../src/cli/commands/index.ts";
import { allFlags } from "../../src/cli/help.ts";
import { coldcontextQuery, recallQuery } from "../../src/memory/index.ts";
import { mergeByRank, vectorChannel } from "../../src/memory/vector-channel.ts";
import { createLogger } from "../../src/log/index.ts";
import { createApp } from "../../src/server/index.ts";
import { openStore, type Store } from "../../src/store/index.ts";
import { TINY_CLIP_DIR, TINY_DIM, tinyImageModel } from "../fixtures/make-tiny-clip.ts";
import { kernelHarness } from "../kernel/support.ts";
import { pngFile } from "./images.ts";
import { tinySentenceFolder } from "./sentence-support.ts";
import { CAT_IDS, catAlignedWeight, expectedText } from "./tiny-clip.ts";
import { testDir } from "../support/temp-dir.ts";

const CLIP_MODEL = "chinese-clip-vit-b16@512";
const SENTENCE_MODEL = "tiny-sentence@8";
const CAT_TEXT = expectedText(CAT_IDS);

const CAT_PHOTO = pngFile(32, 32, () => [250, 120, 100]);
const OTHER_PHOTO = pngFile(32, 32, () => [10, 120, 100]);
const dataUrl = (png: Uint8Array) => `data:image/png;base64,${Buffer.from(png).toString("base64")}`;

function modelsFolder(): string {
  const modelsDir = testDir("homed-two-spaces-");
  tinySentenceFolder({ pooling: "mean" }, { modelsDir });
  const clipDir = join(modelsDir, "chinese-clip-vit-b16-onnx");
  cpSync(join(TINY_CLIP_DIR, "fp32"), clipDir, { recursive: true });
  writeFileSync(join(clipDir, "vit-b-16.img.fp32.onnx"), tinyImageModel("fp32", catAlignedWeight).model);
  return modelsDir;
}

// Awaited set-up at the top level, not in an async describe (Deno's node:test would not wait).
const modelsDir = modelsFolder();
const active = await openEmbedder({ modelsDir, threads: 1 });
const embedder = active.embedder;
const sentenceAlone = await createSentenceEmbedder(readSentenceFolder(join(modelsDir, "tiny-sentence")));
after(async () => {
  await embedder.close?.();
  await sentenceAlone.close();
});

const openTemp = () => openStore({ url: `file:${join(testDir("homed-two-spaces-db-"), "homed.db")}` });
const vectorOf = (bytes: unknown) => new Float32Array((bytes as ArrayBuffer).slice(0));
const near = (a: Float32Array, b: ArrayLike<number>) => a.length === b.length && Array.from(a).every((v, i) => Math.abs(v - b[i]!) < 1e-5);

/** A text event, a photo "of a cat" with a caption that never says so, and another photo; all in L2. */
async function remember(client: Store["client"], using: Embedder = embedder): Promise<void> {
  const events = [
    { id: "text", messages: [{ role: "user" as const, content: "我爱北京" }] },
    {
      id: "cat",
      messages: [
        {
          role: "user" as const,
          content: [
            { type: "text" as const, text: "看" },
            { type: "image_url" as const, image_url: { url: dataUrl(CAT_PHOTO) } },
          ],
        },
      ],
    },
    {
      id: "other",
      messages: [
        {
          role: "user" as const,
          content: [
            { type: "text" as const, text: "看" },
            { type: "image_url" as const, image_url: { url: dataUrl(OTHER_PHOTO) } },
          ],
        },
      ],
    },
  ];
  for (const [i, event] of events.entries()) {
    await writeL1Event(client, { sessionId: "s", conversation: "c", embedder: using, event: { ...event, time: new Date(i * 1000).toISOString() } });
  }
  await sinkToL2(
    client,
    events.map((e) => e.id),
  );
}

describe("a sentence encoder and Chinese-CLIP together", () => {
  test("the sentence encoder embeds text; CLIP stays the image model, in its own space", () => {
    assert.equal(active.kind, "sentence");
    assert.equal(embedder.modelId, SENTENCE_MODEL);
    assert.equal(imageEmbedder(embedder)?.modelId, CLIP_MODEL);
    assert.match(active.reason, /^sentence encoder tiny-sentence .*; images by Chinese-CLIP ViT-B\/16 from .*chinese-clip-vit-b16-onnx .*its own vector space/);
  });

  test("homed model list says what each model is for", async () => {
    const args = parseArgs(["model", "list", "-models", modelsDir], allFlags(COMMANDS));
    let out = "";
    await runModelCommand(["list"], args, resolveSettings(args, {}), { stdout: (text) => (out += text), stderr: () => {}, isTty: false });
    assert.match(out, /^\*\s+tiny-sentence\s/m);
    assert.match(out, /; Chinese-CLIP in .*chinese-clip-vit-b16-onnx \(for images\)$/m);
  });

  test("a text event gets a sentence vector; an image event's photo gets a CLIP vector", async () => {
    const store = await openTemp();
    await remember(store.client);
    const events = await store.client.execute("SELECT id, text, embed_model, embedding FROM events ORDER BY time");
    for (const row of events.rows) {
      assert.equal(row.embed_model, SENTENCE_MODEL);
      assert.ok(near(vectorOf(row.embedding), (await sentenceAlone.embedTexts([String(row.text)]))[0]!));
    }
    const images = await store.client.execute("SELECT event_id, embed_model, embedding FROM blocks WHERE kind = 'image' ORDER BY event_id");
    assert.deepEqual(
      images.rows.map((r) => [r.event_id, r.embed_model]),
      [
        ["cat", CLIP_MODEL],
        ["other", CLIP_MODEL],
      ],
    );
    const [cat, other] = images.rows.map((r) => vectorOf(r.embedding));
    assert.equal(cat!.length, TINY_DIM);
    assert.ok(near(cat!, CAT_TEXT));
    assert.ok(
      near(
        other!,
        CAT_TEXT.map((v) => -v),
      ),
    );
    // Text blocks carry no vector of their own (as with CLIP alone).
    assert.equal(Number((await store.client.execute("SELECT count(*) AS n FROM blocks WHERE kind = 'text' AND embedding IS NOT NULL")).rows[0]!.n), 0);
    store.close();
  });

  test("a text query finds the photo through CLIP's space, merged with the sentence hits by rank", async () => {
    const store = await openTemp();
    await remember(store.client);
    const scope = { conversation: "c" };
    const texts = await vectorChannel(store.client, sentenceAlone, recallQuery("猫"), scope, 10);
    assert.equal(
      texts.some((hit) => hit.id === "cat" && hit.score > 0.99),
      false,
      "the sentence space alone does not see the photo",
    );
    const both = await vectorChannel(store.client, embedder, recallQuery("猫"), scope, 10);
    // The image ranking is the cat photo alone: the other photo lies opposite "猫" (cosine -1, under the noise floor).
    assert.deepEqual(both, mergeByRank(texts, [{ id: "cat", score: 1 }]));
    assert.equal(both[0]!.id, "cat");
    // Through recall as a whole: the photo is found though its caption never says "猫".
    const found = await coldcontextQuery(store.client, "猫", { k: 3, conversation: "c", embedder });
    assert.equal(found[0]?.id, "cat");
    assert.ok(found[0]!.channels.vector);
    assert.equal(found[0]!.channels.words, undefined);
    store.close();
  });

  test("mergeByRank: the first of each space side by side (text first on a tie); a record in both sums its shares", () => {
    const merged = mergeByRank(
      [
        { id: "a", score: 0.9 },
        { id: "b", score: 0.8 },
      ],
      [
        { id: "p", score: 0.3 },
        { id: "b", score: 0.2 },
      ],
    );
    assert.deepEqual(
      merged.map((m) => m.id),
      ["b", "a", "p"],
    );
    assert.equal(merged[0]!.score, 1 / 62 + 1 / 62);
    assert.equal(merged[1]!.score, 1 / 61);
  });

  test("backfill re-embeds each space with its own model, and a text model's switch keeps CLIP's image vectors", async () => {
    const store = await openTemp();
    // Written by the sentence encoder alone: the photos have no vectors yet.
    await remember(store.client, sentenceAlone);
    await store.client.execute("UPDATE events SET embed_model = NULL, embedding = NULL WHERE id = 'text'");
    assert.deepEqual(await countStale(store.client, sentenceAlone), { events: 1, blocks: 3 }); // text blocks only: nothing here embeds photos
    assert.deepEqual(await countStale(store.client, embedder), { events: 1, blocks: 5 }); // + the two photos, by CLIP
    const report = await backfillEmbeddings(store.client, embedder);
    assert.deepEqual(
      [report.events, report.blocks],
      [
        { done: 1, skipped: 0, total: 1 },
        { done: 5, skipped: 0, total: 5 },
      ],
    );
    const blocks = await store.client.execute("SELECT event_id, kind, embed_model, embedding FROM blocks ORDER BY event_id, kind");
    for (const row of blocks.rows) assert.equal(row.embed_model, row.kind === "image" ? CLIP_MODEL : SENTENCE_MODEL);
    assert.ok(near(vectorOf(blocks.rows.find((r) => r.event_id === "cat" && r.kind === "image")!.embedding), CAT_TEXT));
    assert.deepEqual(await countStale(store.client, embedder), { events: 0, blocks: 0 });
    // Another text model: its text is stale, CLIP's photos are not.
    assert.deepEqual(await countStale(store.client, { ...embedder, modelId: "another@8" }), { events: 3, blocks: 3 });
    store.close();
  });

  test("the console's embedder card counts both spaces: memories with sentence vectors, photos with CLIP vectors", async () => {
    const h = await kernelHarness([], { embedder, vectorRecall: true });
    try {
      await remember(h.store.client);
      await h.store.client.execute({ sql: "INSERT INTO blocks (id, kind, holder, content, created_at) VALUES ('remote', 'image', 'L2', 'https://example.invalid/cat.png', 0)", args: [] });
      const token = "k".repeat(40);
      const app = createApp({ version: "0", store: h.store, log: createLogger({ level: "warn", stderr: () => {} }), kernel: h.kernel, adminToken: token, adminTokenPath: "/x" });
      const stats = ((await (await app.request("/api/memory/stats", { headers: { authorization: `Bearer ${token}` } })).json()) as any).embedder;
      assert.deepEqual([stats.modelId, stats.dimension, stats.embedded, stats.events], [SENTENCE_MODEL, 8, 3, 3]);
      assert.deepEqual(stats.images, { modelId: CLIP_MODEL, dimension: 512, embedded: 2, images: 3 });
    } finally {
      await h.close();
    }
  });
});

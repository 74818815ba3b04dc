import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { join } from "node:path";
import { writeL1Event } from "../../src/context/index.ts";
import { createFallbackEmbedder, type Embedder } from "../../src/embed/index.ts";
import { openStore } from "../../src/store/index.ts";
import { testDir } from "../support/temp-dir.ts";

/** The fallback for text, plus an image encoder that records what it was given. */
function withImages(seen: Uint8Array[]): Embedder {
  const fallback = createFallbackEmbedder();
  return {
    ...fallback,
    modelId: "with-images@512",
    embedImages: async (images) =>
      images.map((bytes) => {
        seen.push(bytes);
        const v = new Float32Array(512);
        v[7] = 1;
        return v;
      }),
  };
}

describe("image blocks", () => {
  test("an inline image becomes a block with a vector in the text space; a remote one is not fetched", async () => {
    const store = await openStore({ url: `file:${join(testDir("homed-img-"), "homed.db")}` });
    const seen: Uint8Array[] = [];
    const png = Buffer.from([0x89, 0x50, 0x4e, 0x47, 1, 2, 3]);
    await writeL1Event(store.client, {
      sessionId: "s",
      conversation: "c",
      embedder: withImages(seen),
      event: {
        id: "e1",
        time: new Date(0).toISOString(),
        messages: [
          {
            role: "user",
            content: [
              { type: "text", text: "look at this" },
              { type: "image_url", image_url: { url: `data:image/png;base64,${png.toString("base64")}` } },
              { type: "image_url", image_url: { url: "https://example.com/cat.jpg" } },
            ],
          },
        ],
      },
    });
    const rows = await store.client.execute("SELECT kind, embed_model, embedding IS NOT NULL AS has FROM blocks ORDER BY id");
    assert.deepEqual(
      rows.rows.map((r) => [r.kind, r.embed_model, Number(r.has)]),
      [
        ["text", null, 0],
        ["image", "with-images@512", 1],
        ["image", null, 0],
      ],
    );
    assert.deepEqual([...seen[0]!], [...png]);
    store.close();
  });
});

describe("image recall", () => {
  test("a text query finds an event by its image (same vector space)", async () => {
    const { coldcontextQuery } = await import("../../src/memory/index.ts");
    const { sinkToL2 } = await import("../../src/context/index.ts");
    const store = await openStore({ url: `file:${join(testDir("homed-img-"), "homed.db")}` });
    const cat = 3;
    const embedder: Embedder = {
      modelId: "concepts@512",
      dimension: 512,
      embedTexts: async (texts) =>
        texts.map((t) => {
          const v = new Float32Array(512);
          if (/cat|kitten/i.test(t)) v[cat] = 1;
          // The other event's text is half-way to "cat": without its image, it would win.
          else if (/weather/.test(t)) v[cat] = v[9] = 0.5;
          else v[9] = 1;
          return v;
        }),
      embedImages: async (images) =>
        images.map(() => {
          const v = new Float32Array(512);
          v[cat] = 1;
          return v;
        }),
    };
    const image = `data:image/png;base64,${Buffer.from([1, 2, 3]).toString("base64")}`;
    for (const [id, content] of [
      [
        "photo",
        [
          { type: "text" as const, text: "look at this one" },
          { type: "image_url" as const, image_url: { url: image } },
        ],
      ],
      ["other", "the weather was nice"],
    ] as const) {
      await writeL1Event(store.client, { sessionId: "s", conversation: "c", embedder, event: { id, time: new Date(0).toISOString(), messages: [{ role: "user", content: content as never }] } });
    }
    await sinkToL2(store.client, ["photo", "other"]);
    const found = await coldcontextQuery(store.client, "a kitten sleeping", { k: 2, conversation: "c", embedder, channels: ["vector"] });
    assert.equal(found[0]!.id, "photo");
    store.close();
  });
});

/**
 * Any embedding width (issue 16.1): scripted OpenAI-compatible models of 384, 768, 1024 and
 * 1536 dimensions store their vectors, recall finds a paraphrase through the vector channel
 * (by exact scan and through the model's own DiskANN table), and a switch between two widths
 * re-embeds and never compares vectors of different models.
 */
import { after, describe, test } from "node:test";
import assert from "node:assert/strict";
import { backfillEmbeddings, createHttpEmbedder } from "../../src/embed/index.ts";
import { coldcontextQuery } from "../../src/memory/index.ts";
import { coldEventStatements } from "../../src/memory/cold-event.ts";
import { ensureVectorSpace, findVectorSpace } from "../../src/store/index.ts";
import { count, message, openTempStore, seed } from "../memory/fixture.ts";
import { paraphrases, startScriptedServer, type ScriptedServer } from "./scripted-server.ts";

const GROUPS = [
  ["car broke down", "automobile"],
  ["birthday", "born"],
  ["tea", "oolong"],
];
const MESSAGES = () => [
  message("my car broke down on the highway", { sourceId: "car" }),
  message("we celebrated her birthday at the lake", { sourceId: "cake" }),
  message("I bought green tea in Hangzhou", { sourceId: "tea" }),
  message("the meeting moved to Friday", { sourceId: "meeting" }),
];

const servers: ScriptedServer[] = [];
after(() => Promise.all(servers.map((s) => s.close())));

async function model(dimension: number) {
  const server = await startScriptedServer([paraphrases(dimension, GROUPS)]);
  servers.push(server);
  // No stated dimension: the model's own width, as a user of Ollama's bge-m3 would run it.
  return createHttpEmbedder({ baseUrl: server.baseUrl, model: `scripted-${dimension}` });
}

const ids = (results: { sources: string[] }[]) => results.flatMap((r) => r.sources);

describe("any embedding width", () => {
  for (const dimension of [384, 768, 1024, 1536]) {
    test(`${dimension} dimensions: stored at that width, a paraphrase found by scan and by the model's index`, async () => {
      await using store = await openTempStore();
      const embedder = await model(dimension);
      await seed(store, MESSAGES(), embedder);
      const { client } = store;
      assert.equal(await count(store, "SELECT count(*) FROM events WHERE embed_model = ? AND length(embedding) = ?", [embedder.modelId, dimension * 4]), 4);
      // "automobile" shares no word or gram with "my car broke down": only the vector channel can find it.
      assert.deepEqual(ids(await coldcontextQuery(client, "an automobile problem", { k: 1, channels: ["vector"], embedder })), ["car"]);
      assert.deepEqual(ids(await coldcontextQuery(client, "an automobile problem", { k: 5, channels: ["words", "grams"] })), []);
      const space = await ensureVectorSpace(client, embedder.modelId);
      assert.equal(space?.dimension, dimension);
      assert.deepEqual(ids(await coldcontextQuery(client, "when was she born", { k: 1, channels: ["vector"], embedder, exactScanLimit: 0 })), ["cake"]);
      // Vectors written after the space exists reach its index through the triggers: a live
      // event's INSERT and an import's staged UPDATE.
      const [vector] = await embedder.embedTexts(["oolong, please"]);
      await client.batch(await coldEventStatements(message("oolong, please", { sourceId: "oolong" }), 0, { modelId: embedder.modelId, vector: vector! }, Date.now()), "write");
      await seed(store, [message("the car broke down again", { sourceId: "car2" })], embedder);
      assert.equal(await count(store, `SELECT count(*) FROM ${space!.vectors}`), 6);
      assert.deepEqual(ids(await coldcontextQuery(client, "a cup of tea", { k: 2, channels: ["vector"], embedder, exactScanLimit: 0 })).sort(), ["oolong", "tea"]);
    });
  }

  test("a switch from 768 to 1536: recall sees only the active model; backfill re-embeds; the old index empties", async () => {
    await using store = await openTempStore();
    const { client } = store;
    const small = await model(768);
    const large = await model(1536);
    await seed(store, MESSAGES(), small);
    const old = await ensureVectorSpace(client, small.modelId);
    assert.equal(await count(store, `SELECT count(*) FROM ${old!.vectors}`), 4);
    // Before backfill: the new model has no vectors, so the vector channel finds nothing (and
    // never compares a 1536-dim query with a 768-dim memory).
    assert.deepEqual(ids(await coldcontextQuery(client, "an automobile problem", { k: 3, channels: ["vector"], embedder: large })), []);
    const report = await backfillEmbeddings(client, large);
    assert.equal(report.events.done, 4);
    assert.equal(await count(store, "SELECT count(*) FROM events WHERE length(embedding) = ?", [1536 * 4]), 4);
    assert.equal(await count(store, `SELECT count(*) FROM ${old!.vectors}`), 0, "the old model's index table empties as its vectors are replaced");
    assert.deepEqual(ids(await coldcontextQuery(client, "an automobile problem", { k: 1, channels: ["vector"], embedder: large })), ["car"]);
    assert.equal((await ensureVectorSpace(client, large.modelId))?.dimension, 1536);
    assert.deepEqual(ids(await coldcontextQuery(client, "an automobile problem", { k: 1, channels: ["vector"], embedder: large, exactScanLimit: 0 })), ["car"]);
    assert.deepEqual(ids(await coldcontextQuery(client, "an automobile problem", { k: 3, channels: ["vector"], embedder: small })), []);
  });

  test("the index is built on first use: a query past the scan limit answers by scan and starts the build", async () => {
    await using store = await openTempStore();
    const embedder = await model(384);
    await seed(store, MESSAGES(), embedder);
    assert.equal(await findVectorSpace(store.client, embedder.modelId), undefined);
    assert.deepEqual(ids(await coldcontextQuery(store.client, "an automobile problem", { k: 1, channels: ["vector"], embedder, exactScanLimit: 0 })), ["car"]);
    for (let i = 0; i < 100 && !(await findVectorSpace(store.client, embedder.modelId)); i++) await new Promise((r) => setTimeout(r, 20));
    assert.equal((await findVectorSpace(store.client, embedder.modelId))?.dimension, 384);
  });
});

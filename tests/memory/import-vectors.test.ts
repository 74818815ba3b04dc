/**
 * Which imported messages get vectors: none from the fallback embedder (recall never searches
 * them; a real model's come by backfill), a real model's always. And recall asked for the vector
 * channel without a model says why it ran without it.
 */
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { openStore } from "../../src/store/index.ts";
import { answer, startScriptedServer } from "../embed/scripted-server.ts";
import { run, SOURCE_HOMED } from "../support/process.ts";
import { tempDir } from "../support/temp-dir.ts";

const turn = (id: string, text: string) => JSON.stringify({ conversation: "conv-1", session: "s1", time: "2023-05-08T13:56:00Z", speaker: "Caroline", role: "user", text, id });

/** A two-message history file in `dir`, and the data folder to import it into. */
function twoTurnHistory(dir: string): { history: string; data: string } {
  const history = join(dir, "history.jsonl");
  writeFileSync(history, `${[turn("D1:1", "I went to a support group yesterday"), turn("D1:2", "I painted a sunrise")].join("\n")}\n`);
  return { history, data: join(dir, "data") };
}

async function vectorsIn(data: string): Promise<{ events: number; withVector: number; models: string[] }> {
  const store = await openStore({ url: `file:${join(data, "homed.db")}` });
  try {
    const rows = await store.client.execute("SELECT count(*) AS n, count(embedding) AS v, group_concat(DISTINCT embed_model) AS m FROM events");
    const row = rows.rows[0]!;
    return { events: Number(row.n), withVector: Number(row.v), models: row.m === null ? [] : String(row.m).split(",") };
  } finally {
    store.close();
  }
}

describe("vectors of imported history", () => {
  test("the fallback embedder writes none, and recall asked for vectors says it needs a model", async () => {
    using tmp = tempDir("homed-vectors-");
    const { history, data } = twoTurnHistory(tmp.path);
    const imported = await run([...SOURCE_HOMED, "import", "-data", data, "-models", join(tmp.path, "no-models"), history]);
    assert.equal(imported.code, 0, imported.stderr);
    assert.match(imported.stdout, /2 added, .*no vectors until an embedding model is configured/);
    assert.deepEqual(await vectorsIn(data), { events: 2, withVector: 0, models: [] });

    const vectorOnly = await run([...SOURCE_HOMED, "recall", "-data", data, "-models", join(tmp.path, "no-models"), "--channels", "vector", "support group"]);
    assert.equal(vectorOnly.code, 0, vectorOnly.stderr);
    assert.match(vectorOnly.stderr, /the vector channel needs an embedding model .* so recall ran without it/);
    assert.match(vectorOnly.stdout, /no memories found/);
    // The other channels asked for still answer; without -channels, no note (vectors were not asked for).
    const mixed = await run([...SOURCE_HOMED, "recall", "-data", data, "-models", join(tmp.path, "no-models"), "--channels", "words,vector", "--explain", "support group"]);
    assert.match(mixed.stderr, /needs an embedding model/);
    assert.match(mixed.stdout, /support group yesterday[\s\S]*words #1 .* vector off/);
    const plain = await run([...SOURCE_HOMED, "recall", "-data", data, "-models", join(tmp.path, "no-models"), "support group"]);
    assert.equal(plain.stderr, "");
    assert.match(plain.stdout, /support group yesterday/);
  });

  test("history imported without vectors gets a model's by backfill, and the vector channel then finds it", async () => {
    using tmp = tempDir("homed-vectors-");
    const server = await startScriptedServer([answer()]);
    try {
      const { history, data } = twoTurnHistory(tmp.path);
      assert.equal((await run([...SOURCE_HOMED, "import", "-data", data, history])).code, 0);
      assert.equal((await vectorsIn(data)).withVector, 0);
      const model = ["-embed-url", server.baseUrl, "-embed-model", "test-model"];
      const backfill = await run([...SOURCE_HOMED, "embed", "-data", data, ...model, "--backfill"]);
      assert.equal(backfill.code, 0, backfill.stderr);
      assert.equal((await vectorsIn(data)).withVector, 2);
      const found = await run([...SOURCE_HOMED, "recall", "-data", data, ...model, "--channels", "vector", "--json", "painted a sunrise"]);
      assert.deepEqual(JSON.parse(found.stdout).results[0].sources, ["D1:2"]);
    } finally {
      await server.close();
    }
  });

  test("a real embedding model's vectors are written with its model id, and the vector channel finds them", async () => {
    using tmp = tempDir("homed-vectors-");
    const server = await startScriptedServer([answer()]);
    try {
      const { history, data } = twoTurnHistory(tmp.path);
      const model = ["-embed-url", server.baseUrl, "-embed-model", "test-model"];
      const imported = await run([...SOURCE_HOMED, "import", "-data", data, ...model, history]);
      assert.equal(imported.code, 0, imported.stderr);
      assert.match(imported.stdout, /2 added, .*vectors by /);
      const stored = await vectorsIn(data);
      assert.equal(stored.withVector, 2);
      assert.equal(stored.models.length, 1);
      assert.doesNotMatch(stored.models[0]!, /fallback/);

      const found = await run([...SOURCE_HOMED, "recall", "-data", data, ...model, "--channels", "vector", "--json", "painted a sunrise"]);
      assert.equal(found.code, 0, found.stderr);
      assert.equal(found.stderr, "");
      assert.deepEqual(JSON.parse(found.stdout).results[0].sources, ["D1:2"]);
    } finally {
      await server.close();
    }
  });
});

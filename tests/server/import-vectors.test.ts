/** The console's history import stores vectors exactly when recall would search them: not the fallback's. */
import { describe, test, afterEach } from "node:test";
import assert from "node:assert/strict";
import { createLogger } from "../../src/log/index.ts";
import { createApp } from "../../src/server/index.ts";
import { kernelHarness, type Harness } from "../kernel/support.ts";
import { phraseEmbedder } from "../memory/fixture.ts";

const TOKEN = "k".repeat(40);
const line = (id: string, text: string) => JSON.stringify({ conversation: "bob", session: "s1", time: "2024-05-08T13:56:00Z", speaker: "Bob", role: "user", text, id });

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

async function importTwo(harness: Harness): Promise<{ withVector: number; models: unknown[] }> {
  const log = createLogger({ level: "info", stderr: () => {} });
  const app = createApp({ version: "0.0.0-test", store: harness.store, log, kernel: harness.kernel, adminToken: TOKEN, adminTokenPath: "/data/admin.token" });
  const res = await app.request("/api/memory/import", {
    method: "POST",
    headers: { authorization: `Bearer ${TOKEN}`, "content-type": "application/x-ndjson" },
    body: [line("a", "The kettle is in the loft."), line("b", "Bins go out on Tuesday.")].join("\n"),
  });
  assert.match(await res.text(), /event: done/);
  const rows = await harness.store.client.execute("SELECT count(embedding) AS v, group_concat(DISTINCT embed_model) AS m FROM events");
  return { withVector: Number(rows.rows[0]!.v), models: [rows.rows[0]!.m] };
}

describe("console import: vectors", () => {
  test("with the fallback embedder (vector recall off) no vectors are written", async () => {
    h = await kernelHarness([]);
    assert.deepEqual(await importTwo(h), { withVector: 0, models: [null] });
  });

  test("with a real embedder (vector recall on) every message gets its vector", async () => {
    h = await kernelHarness([], { embedder: phraseEmbedder({ kettle: 1 }), vectorRecall: true });
    assert.deepEqual(await importTwo(h), { withVector: 2, models: ["test-phrases@512"] });
  });
});

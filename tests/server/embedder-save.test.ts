/**
 * Saving an embedder from the console (issue 16.5), over real HTTP against a real daemon and a
 * scripted OpenAI-compatible embedder on 127.0.0.1: PUT probes first and saves nothing when the
 * endpoint refuses; a saved endpoint (its key sealed in homed.json) is the embedder after a
 * restart, stored memory is re-embedded with it, and the commands agree; DELETE goes back to the
 * default.
 */
import { after, describe, test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { answer, startScriptedServer, status, type ScriptedServer } from "../embed/scripted-server.ts";
import { startApiDaemon, type ApiDaemon } from "../support/api-daemon.ts";
import { run, SOURCE_HOMED } from "../support/process.ts";
import { tempDir } from "../support/temp-dir.ts";

const KEY = "sk-embed-secret-42";
const data = tempDir("homed-embedder-save-");
let embeddings: ScriptedServer | undefined;
let daemon: ApiDaemon | undefined;
after(async () => {
  await daemon?.stop();
  await embeddings?.close();
  data.remove();
});

const env = { ...process.env };
for (const name of ["HOMED_EMBED_URL", "HOMED_EMBED_MODEL", "HOMED_EMBED_API_KEY", "HOMED_DATA"]) delete env[name];

async function restart(): Promise<ApiDaemon> {
  await daemon?.stop();
  daemon = await startApiDaemon(data.path);
  return daemon;
}

async function call(method: string, path: string, body?: unknown): Promise<{ status: number; json: any }> {
  const response = await fetch(`${daemon!.url}${path}`, { method, headers: daemon!.headers, body: body === undefined ? undefined : JSON.stringify(body) });
  return { status: response.status, json: await response.json() };
}

const homedJson = () => (existsSync(join(data.path, "homed.json")) ? JSON.parse(readFileSync(join(data.path, "homed.json"), "utf8")) : {});

/** Polls the memory card until the saved model's coverage is complete (the backfill runs in the background). */
async function covered(): Promise<any> {
  const started = performance.now();
  for (;;) {
    const stats = (await call("GET", "/api/memory/stats")).json.embedder;
    if (stats.embedded === stats.events || performance.now() - started > 30_000) return stats;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe("console: saving the embedder", () => {
  test("refused without saving when the endpoint refuses; saved, it is active after a restart; DELETE goes back", async () => {
    // Two memories from before, and a settings section of the user's that must survive the writes.
    const history = join(data.path, "history.jsonl");
    const line = (id: string, text: string) => JSON.stringify({ conversation: "c", session: "s", time: "2024-01-01T00:00:00Z", speaker: "me", role: "user", text, id });
    writeFileSync(history, [line("m1", "the first memory"), line("m2", "the second memory")].join("\n"));
    assert.equal((await run([...SOURCE_HOMED, "import", "-data", data.path, history], { env })).code, 0);
    writeFileSync(join(data.path, "homed.json"), JSON.stringify({ fusion: { weights: { vector: 0.2 } } }));
    embeddings = await startScriptedServer([status(401, "invalid api key"), answer(768)]);
    await restart();
    assert.match((await call("GET", "/api/memory/stats")).json.embedder.modelId, /^fallback-hash-v1@/);

    assert.equal((await call("PUT", "/api/memory/embedder", { url: "ftp://x", model: "m" })).status, 400);
    assert.equal((await call("PUT", "/api/memory/embedder", { url: embeddings.baseUrl, model: "m", extra: 1 })).status, 400);
    const refused = await call("PUT", "/api/memory/embedder", { url: embeddings.baseUrl, model: "bge-m3", key: "sk-wrong" });
    assert.equal(refused.status, 502);
    assert.equal(refused.json.error, "embedder_unreachable");
    assert.match(refused.json.message, /^Cannot save the embedder: .*HTTP 401.*invalid api key/);
    assert.deepEqual(homedJson(), { fusion: { weights: { vector: 0.2 } } }, "nothing saved");

    const saved = await call("PUT", "/api/memory/embedder", { url: embeddings.baseUrl, model: "bge-m3", key: KEY });
    assert.equal(saved.status, 200);
    assert.deepEqual(saved.json.saved, { url: embeddings.baseUrl, model: "bge-m3", hasKey: true });
    assert.deepEqual([saved.json.probe.modelId, saved.json.probe.dimension, saved.json.restartRequired], ["openai:bge-m3", 768, true]);
    assert.match(saved.json.active, /^fallback-hash-v1@/);
    const file = readFileSync(join(data.path, "homed.json"), "utf8");
    assert.equal(file.includes(KEY), false, "the key is sealed, never in homed.json in plain text");
    assert.match(homedJson().embedder.apiKey, /^homed-secret-v1:/);
    assert.deepEqual(homedJson().fusion, { weights: { vector: 0.2 } });
    // Until the restart, every visit is told so.
    assert.deepEqual((await call("GET", "/api/memory/embedder")).json.restartRequired, true);

    // After a restart the saved endpoint is the embedder, with its key, and backfill re-embeds what was stored.
    await restart();
    const stats = await covered();
    assert.deepEqual([stats.modelId, stats.dimension, stats.vectors, stats.embedded, stats.events], ["openai:bge-m3", 768, true, 2, 2]);
    assert.equal(embeddings.requests.at(-1)!.headers.authorization, `Bearer ${KEY}`);
    assert.deepEqual((await call("GET", "/api/memory/embedder")).json, {
      saved: { url: embeddings.baseUrl, model: "bge-m3", hasKey: true },
      active: "openai:bge-m3",
      restartRequired: false,
    });
    assert.match(daemon!.stderr(), /embedder: openai:bge-m3: OpenAI-compatible .* model bge-m3 \(saved from the console in homed\.json\)/);
    // The commands read the same choice from the folder: their vectors are comparable with the daemon's.
    const embedded = await run([...SOURCE_HOMED, "embed", "-data", data.path, "--json", "hello"], { env });
    assert.equal(JSON.parse(embedded.stdout).model, "openai:bge-m3");

    const removed = await call("DELETE", "/api/memory/embedder");
    assert.deepEqual([removed.status, removed.json.saved, removed.json.restartRequired], [200, null, true]);
    assert.deepEqual(homedJson(), { fusion: { weights: { vector: 0.2 } } });
    await restart();
    assert.match((await call("GET", "/api/memory/stats")).json.embedder.modelId, /^fallback-hash-v1@/);
  });
});

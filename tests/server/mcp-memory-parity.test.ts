/**
 * dsh-holo-memory's tool surface (issue 15 item 3), through the official MCP SDK client against a
 * real daemon at /mcp: the seed's parameters (memory_recall layers/limit/scope/since/until with k
 * kept as an alias, memory_open maxChars/history, memory_note layer/title/tags, memory_stats'
 * coverage/storage/distillation/thresholds, memory_doctor deep), and every input schema valid
 * under a strict JSON Schema validator (Ajv, strict mode, draft 2020-12 as zod writes it).
 */
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { join } from "node:path";
import Ajv2020 from "ajv/dist/2020.js";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { startApiDaemon, type ApiDaemon } from "../support/api-daemon.ts";
import { tempDir, type TempDir } from "../support/temp-dir.ts";

describe("memory tools match the seed (MCP)", () => {
  let dir: TempDir;
  let daemon: ApiDaemon;
  let client: Client;
  const call = async (name: string, args: Record<string, unknown>) => {
    const result = await client.callTool({ name, arguments: args });
    return { error: result.isError === true, text: JSON.stringify(result.content), data: result.structuredContent as any };
  };

  before(async () => {
    dir = tempDir("homed-mcp-parity-");
    daemon = await startApiDaemon(dir.path);
    const key = ((await (await fetch(`${daemon.url}/api/keys`, { method: "POST", headers: daemon.headers, body: JSON.stringify({ name: "ide", scopes: ["mcp"] }) })).json()) as { key: string }).key;
    client = new Client({ name: "homed-test", version: "0.0.0" });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${daemon.url}/mcp`), { requestInit: { headers: { authorization: `Bearer ${key}` } } }));
  });
  after(async () => {
    await client?.close();
    await daemon?.stop();
    dir?.remove();
  });

  test("every input schema compiles under a strict validator and names the seed's parameters", async () => {
    const { tools } = await client.listTools();
    const ajv = new Ajv2020({ strict: true, allErrors: true });
    for (const tool of tools) assert.doesNotThrow(() => ajv.compile(tool.inputSchema), tool.name);
    const params = (name: string) => Object.keys(tools.find((t) => t.name === name)!.inputSchema.properties ?? {});
    for (const p of ["query", "layers", "limit", "k", "scope", "since", "until", "restore"]) assert.ok(params("memory_recall").includes(p), `memory_recall ${p}`);
    for (const p of ["id", "maxChars", "history"]) assert.ok(params("memory_open").includes(p), `memory_open ${p}`);
    for (const p of ["text", "subject", "predicate", "object", "layer", "title", "tags", "kind", "scope"]) assert.ok(params("memory_note").includes(p), `memory_note ${p}`);
    assert.deepEqual(params("memory_doctor"), ["deep"]);
    // The schemas go to the model with every request: no parameter may cost hundreds of tokens.
    assert.ok(JSON.stringify(tools.find((t) => t.name === "memory_recall")!.inputSchema).length < 2500);
  });

  test("note into L2 with a title and tags; recall by layer, limit (k as alias) and time", async () => {
    const l2 = await call("memory_note", { text: "the boiler service is booked with Anders", layer: "L2", title: "house", tags: ["boiler", "repairs"] });
    assert.equal(l2.error, false, l2.text);
    assert.equal(l2.data.layer, "L2");
    const l3 = await call("memory_note", { text: "the boiler model is a Vaillant ecoTEC", title: "house" });
    assert.equal(l3.data.layer, "L3");
    const cold = await call("memory_recall", { query: "boiler #repairs", layers: ["L2"], limit: 5 });
    assert.deepEqual(
      cold.data.results.map((r: any) => r.layer),
      ["L2"],
    );
    assert.equal(cold.data.results[0].id, l2.data.id);
    assert.match(cold.data.results[0].text, /#boiler #repairs/);
    assert.equal(cold.data.results[0].speaker, "house", "the title names the note");
    const facts = await call("memory_recall", { query: "boiler", layers: ["L3"] });
    assert.deepEqual(
      facts.data.results.map((r: any) => r.id),
      [l3.data.id],
    );
    assert.match(facts.data.results[0].text, /^house says/);
    assert.equal((await call("memory_recall", { query: "boiler", k: 1 })).data.results.length, 1, "k still works");
    assert.equal((await call("memory_recall", { query: "boiler", limit: 1 })).data.results.length, 1);
    assert.equal((await call("memory_recall", { query: "boiler", limit: 1, k: 2 })).error, true);
    const tomorrow = new Date(Date.now() + 86_400_000).toISOString();
    assert.deepEqual((await call("memory_recall", { query: "boiler", since: tomorrow })).data.results, []);
    assert.equal((await call("memory_recall", { query: "boiler", until: tomorrow })).data.results.length, 2);
    const badTime = await call("memory_recall", { query: "boiler", since: "last tuesday" });
    assert.equal(badTime.error, true);
    assert.match(badTime.text, /ISO 8601/);
    assert.equal((await call("memory_note", { subject: "a", predicate: "b", object: "c", layer: "L2" })).error, true, "an L2 note is text");
    // Outside a chat there is no context to restore into: a clear error, nothing moved.
    const restore = await call("memory_recall", { query: "boiler", restore: true });
    assert.equal(restore.error, true);
    assert.match(restore.text, /comes from no chat/);
  });

  test("open with maxChars and without history; stats and a deep doctor", async () => {
    const long = await call("memory_note", { subject: "the garden plan", predicate: "is", object: `beds of ${"herbs and beans, ".repeat(80)}` });
    await call("memory_note", { subject: "the garden plan", predicate: "is", object: "a single bed of roses", kind: "correction" });
    const full = await call("memory_open", { id: long.data.id });
    assert.ok(full.data.record.history.length >= 1, "a revision history by default");
    const cut = await call("memory_open", { id: long.data.id, maxChars: 10, history: false });
    assert.equal(cut.error, true, "maxChars below 40 is refused");
    const shown = await call("memory_open", { id: long.data.id, maxChars: 60, history: false });
    assert.equal(shown.data.record.history, undefined);
    const oldest = full.data.record.history.at(-1).snapshot;
    assert.ok(oldest, "the first version is in the history");
    const l2 = await call("memory_note", { text: `a long diary entry: ${"walked the dog by the river, ".repeat(40)}`, layer: "L2" });
    const event = await call("memory_open", { id: l2.data.id, maxChars: 60 });
    assert.equal(event.data.record.text.length, 60);
    assert.equal(event.data.truncated, true);

    const stats = (await call("memory_stats", {})).data;
    assert.equal(stats.storage.path, join(dir.path, "homed.db"));
    assert.ok(stats.vectors.events.some((l: any) => l.layer === "L2" && l.total >= 2));
    assert.equal(typeof stats.distillation.due, "number");
    assert.equal(typeof stats.distillation.distilled, "number");
    assert.equal(stats.thresholds.injection.restore.maxRank, 1);
    assert.equal(stats.thresholds.cooling.maxAccesses, 2);
    assert.equal(stats.thresholds.rrfK, 60);

    const shallow = (await call("memory_doctor", {})).data;
    assert.deepEqual(
      shallow.checks.map((c: any) => c.check),
      ["fact evidence", "recall probe", "one holder per block"],
    );
    const deep = (await call("memory_doctor", { deep: true })).data;
    assert.deepEqual(
      deep.checks.map((c: any) => c.check),
      ["fact evidence", "recall probe", "one holder per block", "vectors", "duplicates", "audit ids", "thresholds"],
    );
    assert.equal(deep.ok, true, JSON.stringify(deep.checks));
  });
});

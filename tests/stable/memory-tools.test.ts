import { describe, test, afterEach } from "node:test";
import assert from "node:assert/strict";
import { Client as McpClient } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { createLogger } from "../../src/log/index.ts";
import { createApp } from "../../src/server/index.ts";
import { kernelHarness, type Harness } from "../kernel/support.ts";
import { run, SOURCE_HOMED } from "../support/process.ts";
import { testDir } from "../support/temp-dir.ts";

const TOKEN = "t".repeat(40);
const headers = { authorization: `Bearer ${TOKEN}`, "content-type": "application/json" };

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

const appFor = (harness: Harness) =>
  createApp({ version: "0", store: harness.store, log: createLogger({ level: "error", stderr: () => {} }), kernel: harness.kernel, adminToken: TOKEN, adminTokenPath: "/dev/null" });

describe("memory tools", () => {
  test("over the API: note, recall, open, forget; clear errors for bad input", async () => {
    h = await kernelHarness([]);
    const app = appFor(h);
    const call = (name: string, body: unknown) => app.request(`/api/memory/tools/${name}`, { method: "POST", headers, body: JSON.stringify(body) });
    const noted = (await (await call("memory_note", { subject: "Mia", predicate: "parks at", object: "level 3, spot 42" })).json()) as { id: string; action: string };
    assert.equal(noted.action, "created");
    const recalled = (await (await call("recall", { query: "where does Mia park" })).json()) as { results: { id: string; evidence: string }[] };
    assert.equal(recalled.results[0]!.id, noted.id);
    assert.equal(recalled.results[0]!.evidence, "written by hand");
    const opened = (await (await call("memory_open", { id: noted.id.slice(-8) })).json()) as { record: { object: string; check: string } };
    assert.equal(opened.record.object, "level 3, spot 42");
    assert.equal(opened.record.check, "no_excerpt");
    assert.equal((await call("memory_forget", { id: noted.id })).status, 200);
    const gone = await call("memory_open", { id: noted.id });
    assert.equal(gone.status, 404);
    assert.equal(((await gone.json()) as { error: string }).error, "not_found");
    const bad = await call("memory_recall", { query: "" });
    assert.equal(bad.status, 400);
    assert.equal(((await bad.json()) as { error: string }).error, "invalid_arguments");
    assert.equal((await call("memory_teleport", {})).status, 404);
    const listed = (await (await app.request("/api/memory/tools", { headers })).json()) as { tools: { name: string }[] };
    assert.deepEqual(
      listed.tools.map((t) => t.name),
      ["memory_recall", "memory_open", "memory_note", "memory_list", "memory_forget", "memory_injections", "memory_stats", "memory_doctor"],
    );
  });

  test("callable by the model, within the session's scope", async () => {
    h = await kernelHarness([
      { toolCalls: [{ id: "c1", name: "memory_note", arguments: JSON.stringify({ subject: "Ana", predicate: "birthday is", object: "May 3", scope: "partner:ana" }) }] },
      { toolCalls: [{ id: "c2", name: "memory_recall", arguments: JSON.stringify({ query: "Ana birthday" }) }] },
      { content: "Noted." },
    ]);
    const session = await h.kernel.sessions.open("test", "ana");
    await h.kernel.turn({ session, input: "remember my birthday is May 3" });
    const toolResults = h.provider.requests[2]!.body.messages.filter((m: any) => m.role === "tool").map((m: any) => JSON.parse(m.content));
    assert.equal(toolResults[0].action, "created");
    assert.match(toolResults[1].results[0].text, /Ana birthday is May 3/);
    const offered = h.provider.requests[0]!.body.tools.map((t: { function: { name: string } }) => t.function.name);
    assert.ok(offered.includes("memory_recall") && offered.includes("memory_doctor"), "the memory tools are offered to the model");
    // The note was written private to partner "ana" (DESIGN §3 Scopes: a plain conversation key
    // no longer hides a memory from the user's other chats; a private scope does).
    const elsewhere = await h.kernel.tools.call("memory_recall", JSON.stringify({ query: "Ana birthday" }), new AbortController().signal, { sessionId: "x", partner: "someone-else" });
    assert.deepEqual(JSON.parse(elsewhere).results, []);
  });

  test("memory doctor really fetches evidence", async () => {
    h = await kernelHarness([]);
    const app = appFor(h);
    await app.request("/api/memory/tools/memory_note", { method: "POST", headers, body: JSON.stringify({ text: "always answer briefly" }) });
    const report = (await (await app.request("/api/memory/tools/memory_doctor", { method: "POST", headers, body: "{}" })).json()) as {
      ok: boolean;
      checks: { check: string; ok: boolean; detail: string }[];
    };
    assert.equal(report.ok, true);
    assert.deepEqual(
      report.checks.map((c) => c.check),
      ["fact evidence", "recall probe", "one holder per block"],
    );
    assert.match(report.checks[1]!.detail, /not checked: cold context is empty/);
  });

  test("from the CLI: homed memory note / recall / forget", async () => {
    const data = testDir("homed-memcli-");
    const noted = await run([...SOURCE_HOMED, "memory", "note", "the wifi password is on the fridge", "-data", data]);
    assert.equal(noted.code, 0, noted.stderr);
    const id = JSON.parse(noted.stdout).id as string;
    const recalled = await run([...SOURCE_HOMED, "memory", "recall", "wifi password", "-data", data]);
    assert.equal(JSON.parse(recalled.stdout).results[0].id, id);
    const forgot = await run([...SOURCE_HOMED, "memory", "forget", id.replace(/[^a-zA-Z0-9]/g, "").slice(-8), "-data", data]);
    assert.deepEqual(JSON.parse(forgot.stdout), { forgotten: { kind: "fact", id } });
    const bad = await run([...SOURCE_HOMED, "memory", "stats", "extra", "-data", data]);
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /memory_stats takes no plain argument/);
  });

  test("homed mcp works with the official MCP client", async () => {
    const data = testDir("homed-mcp-");
    const client = new McpClient({ name: "test-ide", version: "1.0.0" });
    await client.connect(new StdioClientTransport({ command: SOURCE_HOMED[0]!, args: [...SOURCE_HOMED.slice(1), "mcp", "-data", data], stderr: "ignore" }));
    try {
      const { tools } = await client.listTools();
      assert.equal(tools.length, 8);
      await client.callTool({ name: "memory_note", arguments: { subject: "repo", predicate: "uses", object: "tabs for indentation", kind: "convention" } });
      const result = (await client.callTool({ name: "memory_recall", arguments: { query: "indentation" } })) as { content: { text: string }[] };
      assert.match(result.content[0]!.text, /repo uses tabs for indentation/);
      const failed = (await client.callTool({ name: "memory_open", arguments: { id: "zzzzzzzz" } })) as { isError?: boolean; content: { text: string }[] };
      assert.equal(failed.isError, true);
      assert.match(failed.content[0]!.text, /No memory with id ending in zzzzzzzz/);
      // The same server as the daemon's /mcp: memories as resources and the recall prompt.
      const { resources } = await client.listResources();
      const fact = resources.find((r) => r.description?.includes("tabs for indentation"));
      assert.ok(fact, JSON.stringify(resources));
      assert.match(((await client.readResource({ uri: fact.uri })).contents[0] as { text: string }).text, /tabs for indentation/);
      const prompt = await client.getPrompt({ name: "recall", arguments: { query: "indentation" } });
      assert.match((prompt.messages[0]!.content as { text: string }).text, /repo uses tabs for indentation/);
    } finally {
      await client.close();
    }
  });
});

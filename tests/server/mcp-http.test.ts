/**
 * MCP over Streamable HTTP at /mcp, driven by the official MCP SDK's client and its
 * StreamableHTTPClientTransport, and by the MCP Inspector's CLI, against a real daemon: the eight memory tools, memories as
 * resources, the recall prompt, and the key's scope.
 */
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { dirname, join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { startApiDaemon, type ApiDaemon } from "../support/api-daemon.ts";
import { ROOT, run } from "../support/process.ts";
import { tempDir, type TempDir } from "../support/temp-dir.ts";

/** The MCP Inspector's command-line client (the light v1 CLI package; v2 brings a web UI stack). */
const INSPECTOR_CLI = join(ROOT, "node_modules/@modelcontextprotocol/inspector-cli/build/index.js");

describe("MCP over HTTP at /mcp", () => {
  let dir: TempDir;
  let daemon: ApiDaemon;
  const clients: Client[] = [];
  const makeKey = async (name: string, scopes: string[]) =>
    ((await (await fetch(`${daemon.url}/api/keys`, { method: "POST", headers: daemon.headers, body: JSON.stringify({ name, scopes }) })).json()) as { key: string }).key;
  const connect = async (key: string) => {
    const client = new Client({ name: "homed-test", version: "0.0.0" });
    const transport = new StreamableHTTPClientTransport(new URL(`${daemon.url}/mcp`), { requestInit: { headers: { authorization: `Bearer ${key}` } } });
    await client.connect(transport);
    clients.push(client);
    return client;
  };

  before(async () => {
    dir = tempDir("homed-mcp-http-");
    daemon = await startApiDaemon(dir.path);
  });
  after(async () => {
    for (const client of clients) await client.close();
    await daemon?.stop();
    dir?.remove();
  });

  test("tools: the eight memory tools; a note is recalled; bad arguments are an isError result", async () => {
    const client = await connect(await makeKey("ide", ["mcp"]));
    assert.equal(client.getServerVersion()?.name, "homed");
    const { tools } = await client.listTools();
    assert.deepEqual(
      tools.map((t) => t.name),
      ["memory_recall", "memory_open", "memory_note", "memory_list", "memory_forget", "memory_injections", "memory_stats", "memory_doctor"],
    );
    const noted = await client.callTool({ name: "memory_note", arguments: { text: "the spare bike key hangs behind the fuse box" } });
    assert.notEqual(noted.isError, true, JSON.stringify(noted));
    const found = await client.callTool({ name: "memory_recall", arguments: { query: "where is the spare bike key" } });
    assert.match(JSON.stringify(found.structuredContent), /fuse box/);
    const bad = await client.callTool({ name: "memory_recall", arguments: { k: "many" } });
    assert.equal(bad.isError, true);
    assert.match(JSON.stringify(bad.content), /invalid_arguments/);
  });

  test("resources: memories listed as homed://memory/<id> and read; the recall prompt", async () => {
    const client = await connect(daemon.headers.authorization!.slice("Bearer ".length));
    await client.callTool({ name: "memory_note", arguments: { text: "the boat is moored at pier seven" } });
    const { resources } = await client.listResources();
    const boat = resources.find((r) => r.description?.includes("pier seven"));
    assert.ok(boat, JSON.stringify(resources));
    assert.match(boat.uri, /^homed:\/\/memory\/.+/);
    const read = await client.readResource({ uri: boat.uri });
    assert.match((read.contents[0] as { text: string }).text, /pier seven/);
    await assert.rejects(client.readResource({ uri: "homed://memory/nope-nope" }), /No resource homed:\/\/memory\/nope-nope/);

    const { prompts } = await client.listPrompts();
    assert.deepEqual(
      prompts.map((p) => p.name),
      ["recall"],
    );
    const prompt = await client.getPrompt({ name: "recall", arguments: { query: "where is the boat moored" } });
    assert.match((prompt.messages[0]!.content as { text: string }).text, /pier seven/);
  });

  test("the MCP Inspector's CLI lists the tools, calls one, lists resources and gets the prompt", async () => {
    const key = await makeKey("inspector", ["mcp"]);
    const inspect = async (...args: string[]) => {
      // Run from its own folder: it finds its package.json by a path relative to the working directory.
      const done = await run([process.execPath, INSPECTOR_CLI, `${daemon.url}/mcp`, "--transport", "http", "--header", `Authorization: Bearer ${key}`, ...args], { cwd: dirname(INSPECTOR_CLI) });
      assert.equal(done.code, 0, done.stderr);
      return JSON.parse(done.stdout);
    };
    const listed = await inspect("--method", "tools/list");
    assert.equal(listed.tools.length, 8);
    const noted = await inspect("--method", "tools/call", "--tool-name", "memory_note", "--tool-arg", "text=the inspector was here");
    assert.notEqual(noted.isError, true, JSON.stringify(noted));
    const resources = await inspect("--method", "resources/list");
    assert.ok(resources.resources.some((r: { description: string }) => r.description.includes("the inspector was here")));
    const prompt = await inspect("--method", "prompts/get", "--prompt-name", "recall", "--prompt-args", "query=was the inspector here");
    assert.match(prompt.messages[0].content.text, /the inspector was here/);
  });

  test("a key without the mcp scope is refused at /mcp; GET is 405 (no server stream)", async () => {
    const v1Only = await makeKey("chat-app", ["v1"]);
    const refused = await fetch(`${daemon.url}/mcp`, {
      method: "POST",
      headers: { authorization: `Bearer ${v1Only}`, "content-type": "application/json" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "ping" }),
    });
    assert.equal(refused.status, 403);
    assert.match(((await refused.json()) as { message: string }).message, /opens \/v1 only; \/mcp needs a key with that scope/);
    await assert.rejects(connect(v1Only));
    const get = await fetch(`${daemon.url}/mcp`, { headers: daemon.headers });
    assert.equal(get.status, 405);
  });
});

/**
 * Remote MCP servers as plugins: a `plugin.json` with `url` and `headers` instead of `command`.
 * A real MCP server over Streamable HTTP on loopback (the official SDK's server) is loaded from
 * the plugins folder, its tool is offered to the model and called in a turn through a scripted
 * provider; its secret header reaches the server and nothing homed writes or shows. A server that
 * cannot be reached is a plugin that failed to start, with the reason, retried like a crashed one.
 */
import { after, describe, test } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { join } from "node:path";
import { startApiDaemon } from "../support/api-daemon.ts";
import { startHttpMcpServer } from "../support/http-mcp-server.ts";
import { until } from "../support/process.ts";
import { startScriptedProvider } from "../support/scripted-provider.ts";
import { testDir } from "../support/temp-dir.ts";

const SECRET = "remote-plugin-secret-7f3a9c";

function remotePlugin(data: string, name: string, manifest: object): void {
  mkdirSync(join(data, "plugins", name), { recursive: true });
  writeFileSync(join(data, "plugins", name, "plugin.json"), JSON.stringify(manifest));
  writeFileSync(join(data, "homed.json"), JSON.stringify({ plugins: { enabled: [] } }));
}

/** A loopback port nothing listens on (taken, then let go). */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

type Listed = { name: string; state: string; error: string | null; tools: string[]; restarts: number; logTail: string[] };

describe("remote MCP servers as plugins (Streamable HTTP)", () => {
  test("its tool is offered and called in a turn; the header reaches the server and no log, listing or file of homed; stopping homed ends the session", async () => {
    const server = await startHttpMcpServer({ token: SECRET });
    after(() => server.close());
    const provider = await startScriptedProvider([{ toolCalls: [{ id: "c1", name: "remote_echo", arguments: JSON.stringify({ message: "hi over http" }) }] }, { content: "done" }]);
    after(() => provider.close());
    const data = testDir("homed-remote-plugin-");
    remotePlugin(data, "remote", { url: server.url, headers: { authorization: `Bearer ${SECRET}` } });
    const daemon = await startApiDaemon(data, provider.url);
    await until(() => daemon.stderr().includes("plugins: remote running"), "the remote plugin to run");
    const listed = ((await (await fetch(`${daemon.url}/api/plugins`, { headers: daemon.headers })).json()) as { plugins: Listed[] }).plugins;
    assert.deepEqual(
      listed.map((p) => [p.name, p.state, p.tools]),
      [["remote", "running", ["remote_echo"]]],
    );

    await daemon.send(await daemon.openSession("p"), "call the remote tool");
    assert.ok(
      provider.requests[0]!.body.tools.some((t: { function: { name: string } }) => t.function.name === "remote_echo"),
      "the remote server's tool is offered to the model",
    );
    assert.deepEqual(server.calls, ["hi over http"], "the tool really ran on the remote server");
    const result = provider.requests[1]!.body.messages.find((m: { role: string }) => m.role === "tool");
    assert.match(result.content, /remote echo: hi over http/);
    assert.ok(
      server.seenHeaders.every((h) => h.authorization === `Bearer ${SECRET}`),
      "every request carried the configured header",
    );
    assert.ok(
      server.seenHeaders.some((h) => h["mcp-session-id"]),
      "the session id from initialize went with the later requests",
    );
    assert.equal(server.sessions(), 1);

    assert.equal((await daemon.stop()).code, 0);
    assert.equal(server.sessions(), 0, "stopping homed ended its session on the server (DELETE)");
    const logs = readdirSync(join(data, "logs")).map((f) => readFileSync(join(data, "logs", f), "utf8"));
    for (const said of [daemon.stderr(), JSON.stringify(listed), ...logs]) assert.ok(!said.includes(SECRET), "the header's secret was written or shown");
  });

  test("a server that cannot be reached: failed with the reason, retried like a crashed plugin, then restarts stop; the daemon runs on", async () => {
    const provider = await startScriptedProvider([{ content: "fine" }]);
    after(() => provider.close());
    const data = testDir("homed-remote-plugin-");
    const port = await closedPort();
    remotePlugin(data, "gone", { url: `http://127.0.0.1:${port}/mcp?key=${SECRET}`, timeoutMs: 2000 });
    const daemon = await startApiDaemon(data, provider.url);
    const status = async () => ((await (await fetch(`${daemon.url}/api/plugins`, { headers: daemon.headers })).json()) as { plugins: Listed[] }).plugins[0]!;
    let seen = await status();
    // 1 + 2 + 3 s of backoff between the four tries.
    for (const started = Date.now(); seen.state !== "failed" && Date.now() - started < 30_000; seen = await status()) await new Promise((r) => setTimeout(r, 100));
    assert.ok(seen.restarts >= 3, `restarted ${seen.restarts} times`);
    assert.match(seen.error ?? "", /crashed 4 times.*Cannot reach http:\/\/127\.0\.0\.1:\d+\/mcp/);
    assert.ok(!JSON.stringify(seen).includes(SECRET), "the URL's query (a key) is not shown");
    // The daemon answers turns meanwhile.
    assert.match(await daemon.send(await daemon.openSession("p"), "hello"), /event: done/);
    assert.equal((await daemon.stop()).code, 0);
    assert.ok(!daemon.stderr().includes(SECRET));
  });

  test("a server that dies while the plugin runs: the call fails with the reason, and the plugin leaves running to be restarted", async () => {
    const server = await startHttpMcpServer();
    const provider = await startScriptedProvider([{ toolCalls: [{ id: "c1", name: "remote_echo", arguments: JSON.stringify({ message: "anyone?" }) }] }, { content: "done" }]);
    after(() => provider.close());
    const data = testDir("homed-remote-plugin-");
    remotePlugin(data, "remote", { url: server.url });
    const daemon = await startApiDaemon(data, provider.url);
    await until(() => daemon.stderr().includes("plugins: remote running"), "the remote plugin to run");
    await server.close();
    await daemon.send(await daemon.openSession("p"), "call the remote tool");
    const result = provider.requests[1]!.body.messages.find((m: { role: string }) => m.role === "tool");
    assert.match(result.content, /Cannot reach http:\/\/127\.0\.0\.1:\d+\/mcp/);
    await until(() => /plugin remote: exited \(code null, signal null\); crash 1 within 5 minutes: restarting in 1 s/.test(daemon.stderr()), "the gone server counted as a crash");
    assert.equal((await daemon.stop()).code, 0);
  });

  test("plugin.json with both command and url, or neither, is refused with the reason; the daemon starts", async () => {
    const data = testDir("homed-remote-plugin-");
    remotePlugin(data, "both", { command: "node", url: "http://127.0.0.1:9/mcp" });
    remotePlugin(data, "neither", { args: [] });
    remotePlugin(data, "ftp", { url: "ftp://127.0.0.1/mcp" });
    const daemon = await startApiDaemon(data);
    await until(() => /plugins\/ftp\/plugin\.json/.test(daemon.stderr()), "the problems to be logged");
    assert.match(daemon.stderr(), /plugins\/both\/plugin\.json: give either "command" .* or "url" .*, not both/);
    assert.match(daemon.stderr(), /plugins\/neither\/plugin\.json: give "command"/);
    assert.match(daemon.stderr(), /plugins\/ftp\/plugin\.json: .*http:\/\/ or https:\/\//);
    assert.equal((await daemon.stop()).code, 0);
  });
});

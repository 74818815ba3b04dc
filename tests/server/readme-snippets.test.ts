/**
 * The README's snippets for OpenAI and MCP clients, run as written against a real daemon: each is
 * read out of README.md (so editing one re-tests it) and only the places that are the reader's
 * own are swapped — the address (`http://127.0.0.1:8080`), the data folder, the homed command and
 * the key. The `homed key` lines, the OpenAI SDK programs (chat and Responses, the AI SDK's and
 * the Agents SDK's), the MCP config of stdio and of HTTP
 * (connected with the official MCP SDK as Claude Desktop and Cursor connect) and the curl line.
 * Open WebUI and LibreChat run in Docker and are not run here; their requests (`GET /v1/models`,
 * streamed chat) are the SDK's, tested in openai-sdk.test.ts.
 */
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { startApiDaemon, type ApiDaemon } from "../support/api-daemon.ts";
import { evalCommand, ROOT, run, SOURCE_HOMED } from "../support/process.ts";
import { startScriptedProvider, type ScriptedProvider } from "../support/scripted-provider.ts";
import { tempDir, type TempDir } from "../support/temp-dir.ts";

const README = readFileSync(join(ROOT, "README.md"), "utf8");

/** The first ```lang block after `marker` in the README. */
function snippet(marker: string, lang: string): string {
  const at = README.indexOf(marker);
  assert.ok(at >= 0, `README has no '${marker}'`);
  const open = README.indexOf(`\`\`\`${lang}\n`, at);
  assert.ok(open >= 0, `no ${lang} block after '${marker}'`);
  const start = open + lang.length + 4;
  return README.slice(start, README.indexOf("\n```", start));
}

const EIGHT_TOOLS = ["memory_recall", "memory_open", "memory_note", "memory_list", "memory_forget", "memory_injections", "memory_stats", "memory_doctor"];

describe("README snippets for OpenAI and MCP clients", () => {
  let dir: TempDir;
  let provider: ScriptedProvider;
  let daemon: ApiDaemon;
  let key: string;
  const env = () => ({ ...process.env, HOMED_DATA: dir.path });
  /** The reader's own places in a snippet, made this test's. */
  const local = (text: string) => text.replaceAll("http://127.0.0.1:8080", daemon.url).replaceAll("~/homed-data", dir.path).replaceAll("/home/me/.local/share/homed", dir.path);

  before(async () => {
    dir = tempDir("homed-readme-");
    provider = await startScriptedProvider(() => ({ content: "the shed key is under the blue pot" }));
    daemon = await startApiDaemon(dir.path, provider.url);
  });
  after(async () => {
    await daemon?.stop();
    await provider?.close();
    dir?.remove();
  });

  test("homed key create / list / revoke, as the App keys block gives them", async () => {
    const lines = snippet("**App keys.**", "sh")
      .split("\n")
      .map((l) => l.replace(/\s+#.*$/, "").trim())
      .filter(Boolean);
    assert.deepEqual(
      lines.map((l) => l.split(" ").slice(0, 3).join(" ")),
      ["homed key create", "homed key list", "homed key revoke"],
    );
    const homed = (line: string) => run([...SOURCE_HOMED, ...line.split(" ").slice(1)], { env: env() });
    const made = await homed(lines[0]!);
    assert.equal(made.code, 0, made.stderr);
    assert.match(made.stdout, /^hk-\S+\n$/);
    const listed = await homed(lines[1]!);
    assert.match(listed.stdout, /^webui\tpartner=alice\tscopes=v1\tcreated=\S+ \S+\tlast-used=never\n$/);
    assert.equal((await homed(lines[2]!)).code, 0);
    assert.equal((await homed(lines[1]!)).stdout, "");
  });

  test("the OpenAI SDK program prints the answer and its usage", async () => {
    const made = await run([...SOURCE_HOMED, "key", "create", "sdk-app"], { env: env() });
    key = made.stdout.trim();
    const program = local(snippet("The OpenAI SDK\n(JavaScript", "ts"));
    assert.match(program, /process\.env\.HOMED_KEY/);
    // Run from the repository, where `openai` is installed, as a reader runs it from their project.
    const ran = await run(evalCommand(program), { cwd: ROOT, env: { ...process.env, HOMED_KEY: key } });
    assert.equal(ran.code, 0, ran.stderr);
    assert.match(ran.stdout, /^the shed key is under the blue pot \{[\s\S]*prompt_tokens: 10,[\s\S]*total_tokens: 15/);
    const sessions = (await (await fetch(`${daemon.url}/api/sessions`, { headers: daemon.headers })).json()) as { sessions: { partner: string }[] };
    assert.ok(
      sessions.sessions.some((s) => s.partner === "sdk-app/alice"),
      "the snippet's user narrows the key's partner (never replaces it)",
    );
  });

  test("the Responses API programs (openai SDK, AI SDK, Agents SDK) print the answer", async () => {
    const made = await run([...SOURCE_HOMED, "key", "create", "responses-app"], { env: env() });
    const responsesKey = made.stdout.trim();
    const programs = [
      ["The Responses API with the same SDK", /^the shed key is under the blue pot \{[\s\S]*input_tokens: 10,[\s\S]*total_tokens: 15/],
      ["The AI SDK's default provider", /^the shed key is under the blue pot 15\n$/],
      ["The OpenAI Agents SDK", /^the shed key is under the blue pot\n$/],
    ] as const;
    for (const [marker, printed] of programs) {
      const ran = await run(evalCommand(local(snippet(marker, "ts"))), { cwd: ROOT, env: { ...process.env, HOMED_KEY: responsesKey } });
      assert.equal(ran.code, 0, `${marker}: ${ran.stderr}`);
      assert.match(ran.stdout, printed, marker);
    }
  });

  test("MCP over stdio: the mcpServers entry starts homed mcp beside the running daemon; the eight tools", async () => {
    const config = JSON.parse(local(snippet("**MCP clients.** Over stdio", "json"))) as { mcpServers: { homed: { command: string; args: string[] } } };
    const { command, args } = config.mcpServers.homed;
    assert.equal(command, "/usr/local/bin/homed");
    const client = new Client({ name: "claude-desktop-like", version: "0.0.0" });
    await client.connect(new StdioClientTransport({ command: SOURCE_HOMED[0]!, args: [...SOURCE_HOMED.slice(1), ...args], stderr: "ignore" }));
    try {
      assert.deepEqual(
        (await client.listTools()).tools.map((t) => t.name),
        EIGHT_TOOLS,
      );
      const noted = await client.callTool({ name: "memory_note", arguments: { text: "the ladder is in the garage" } });
      assert.notEqual(noted.isError, true, JSON.stringify(noted));
    } finally {
      await client.close();
    }
  });

  test("MCP over HTTP: the url and headers entry, with a key from the command it names", async () => {
    const command = /Over HTTP, to a running daemon, with a key from `homed ([^`]+)`/.exec(README)?.[1];
    assert.ok(command, "the README names the command that makes the key");
    const made = await run([...SOURCE_HOMED, ...command.split(" ")], { env: env() });
    assert.equal(made.code, 0, made.stderr);
    const ideKey = made.stdout.trim();
    const config = JSON.parse(local(snippet("Over HTTP, to a running daemon", "json")).replace("hk-…", ideKey)) as { mcpServers: { homed: { url: string; headers: Record<string, string> } } };
    const { url, headers } = config.mcpServers.homed;
    const client = new Client({ name: "cursor-like", version: "0.0.0" });
    await client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers } }));
    try {
      assert.deepEqual(
        (await client.listTools()).tools.map((t) => t.name),
        EIGHT_TOOLS,
      );
      const found = await client.callTool({ name: "memory_recall", arguments: { query: "where is the ladder" } });
      assert.match(JSON.stringify(found.structuredContent), /garage/, "the note made over stdio is recalled over HTTP");
    } finally {
      await client.close();
    }
  });

  test("the curl line calls memory_recall over HTTP with the admin token", async () => {
    const block = snippet("The same definitions are served five ways", "sh");
    const curl = block
      .split("\n")
      .filter((l, i, all) => l.startsWith("curl") || all[i - 1]?.trimEnd().endsWith("\\"))
      .join("\n");
    assert.match(curl, /^curl /);
    const ran = await run(["bash", "-c", local(curl.replace(/\s+# HTTP$/m, ""))], { env: env() });
    assert.equal(ran.code, 0, ran.stderr);
    const answer = JSON.parse(ran.stdout) as { query: string; results: unknown[] };
    assert.equal(answer.query, "parking", ran.stdout);
    assert.ok(Array.isArray(answer.results), ran.stdout);
  });
});

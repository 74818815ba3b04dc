/**
 * The documentation's snippets and commands, checked against the code. README.md and docs/*.md
 * are read as they are (so editing one re-tests it); a snippet is found by the phrase before it,
 * in whichever of those files holds it.
 *
 * Run as written against a real daemon, with only the reader's own places swapped — the address
 * (`http://127.0.0.1:8080`), the data folder, the homed command and the key: the `homed key`
 * lines, the OpenAI SDK programs (chat and Responses, the AI SDK's and the Agents SDK's), the MCP
 * config of stdio and of HTTP (connected with the official MCP SDK as Claude Desktop and Cursor
 * connect), the curl line, the A2A key, SDK program and curl lines (a daemon with the channel
 * enabled by the docs' homed.json), the history-import example and the plugin written with the SDK.
 * Open WebUI and LibreChat run in Docker and are not run here; their requests (`GET /v1/models`,
 * streamed chat) are the SDK's, tested in openai-sdk.test.ts.
 *
 * Checked without running, in every file: each `homed …` command line of a shell block names a
 * command and only flags homed accepts, each `make` target exists, each JSON block parses and a
 * homed.json example passes its sections' schemas, each relative link and #anchor resolves; and
 * docs/configuration.md names every flag, variable and homed.json section, with the code's defaults.
 */
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, readFileSync, readdirSync, writeFileSync } from "node:fs";
import { dirname, join, normalize } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { z } from "zod";
import { startApiDaemon, type ApiDaemon } from "../support/api-daemon.ts";
import { anchorsOf, DOC_FILES, docSnippet, docWith, fencedBlocks, linksOf, readDoc } from "../support/docs.ts";
import { evalCommand, ROOT, run, scriptCommand, SOURCE_HOMED } from "../support/process.ts";
import { startScriptedProvider, type ScriptedProvider } from "../support/scripted-provider.ts";
import { tempDir, type TempDir } from "../support/temp-dir.ts";
import { EXTRA_ENV, FLAGS, parseArgs } from "../../src/config/index.ts";
import { COMMANDS } from "../../src/cli/commands/index.ts";
import { allFlags } from "../../src/cli/help.ts";
import { CoolingConfigSchema, FusionConfigSchema, InjectionConfigSchema } from "../../src/memory/index.ts";
import { KernelConfigSchema, Outbound, ProactiveConfigSchema } from "../../src/kernel/index.ts";
import { ConnectionLimitsSchema, CorsConfigSchema, createApp } from "../../src/server/index.ts";
import { ModelsSectionSchema } from "../../src/embed/models-config.ts";
import { kernelHarness } from "../kernel/support.ts";
import { CHARTS, renderChart } from "../../scripts/gen-bench-plots.ts";
import { createLogger, LogConfigSchema } from "../../src/log/index.ts";
import { ChannelsConfigSchema, PluginsConfigSchema } from "../../src/daemon/index.ts";

const snippet = docSnippet;

const EIGHT_TOOLS = ["memory_recall", "memory_open", "memory_note", "memory_list", "memory_forget", "memory_injections", "memory_stats", "memory_doctor"];

describe("the docs' snippets for OpenAI and MCP clients, run", () => {
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
    const command = /Over HTTP, to a running daemon, with a key from `homed ([^`]+)`/.exec(docWith("Over HTTP, to a running daemon").text)?.[1];
    assert.ok(command, "the docs name the command that makes the key");
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

describe("the docs' A2A snippets, run against a daemon with the channel enabled as they say", () => {
  let dir: TempDir;
  let provider: ScriptedProvider;
  let daemon: ApiDaemon;
  let key: string;
  const local = (text: string) => text.replaceAll("http://127.0.0.1:8080", daemon.url);
  /** Every user message the model was sent, across its requests. */
  const userTexts = () => provider.requests.flatMap((r) => (r.body.messages as { role: string; content: unknown }[]).filter((m) => m.role === "user").map((m) => JSON.stringify(m.content)));

  before(async () => {
    dir = tempDir("homed-docs-a2a-");
    provider = await startScriptedProvider(() => ({ content: "the shed key is under the blue pot" }));
    const config = JSON.parse(snippet("Enable it in `<data>/homed.json`", "json")) as { channels: { a2a: Record<string, unknown> } };
    // publicUrl is the reader's own address behind a proxy: here the card names the address it is fetched from.
    delete config.channels.a2a.publicUrl;
    writeFileSync(join(dir.path, "homed.json"), JSON.stringify(config));
    daemon = await startApiDaemon(dir.path, provider.url);
  });
  after(async () => {
    await daemon?.stop();
    await provider?.close();
    dir?.remove();
  });

  test("the key line makes a key with the a2a scope; the SDK program's message reaches the model", async () => {
    const line = snippet("key with the `a2a` scope (keys never get it", "sh").replace(/\s+#.*$/, "");
    const made = await run([...SOURCE_HOMED, ...line.split(" ").slice(1)], { env: { ...process.env, HOMED_DATA: dir.path } });
    assert.equal(made.code, 0, made.stderr);
    key = made.stdout.trim();
    assert.match(key, /^hk-/);
    const ran = await run(evalCommand(local(snippet("From another\nagent, with that SDK", "ts"))), { cwd: ROOT, env: { ...process.env, HOMED_KEY: key } });
    assert.equal(ran.code, 0, ran.stderr);
    assert.ok(
      userTexts().some((t) => t.includes("What did I say about the shed key?")),
      "the SDK's message is a turn",
    );
  });

  test("the curl lines: a message answered, then its contextId continues the conversation", async () => {
    const curl = async (marker: string, env: Record<string, string>) => {
      const ran = await run(["bash", "-c", local(snippet(marker, "sh"))], { env: { ...process.env, HOMED_KEY: key, ...env } });
      assert.equal(ran.code, 0, ran.stderr);
      return JSON.parse(ran.stdout) as { result: { contextId: string; status: { state: string } } };
    };
    const first = await curl("or by hand (v0.3)", {});
    assert.equal(first.result.status.state, "completed", JSON.stringify(first));
    const next = await curl("To continue a conversation, send its id back", { CONTEXT_ID: first.result.contextId });
    assert.equal(next.result.contextId, first.result.contextId);
    const last = provider.requests.at(-1)!.body.messages as { role: string; content: unknown }[];
    assert.ok(
      last.some((m) => m.role === "user" && JSON.stringify(m.content).includes("hello")),
      "the continued conversation holds the first message",
    );
  });
});

describe("the docs' examples that need no daemon, run", () => {
  let dir: TempDir;
  before(() => {
    dir = tempDir("homed-docs-");
  });
  after(() => dir?.remove());

  test("the history-import example imports as the docs say: two messages added, then none again", async () => {
    const lines = snippet("reads conversation history as\nJSON Lines", "json");
    const file = join(dir.path, "history.jsonl");
    writeFileSync(file, `${lines}\n`);
    const env = { ...process.env, HOMED_DATA: join(dir.path, "data") };
    const first = await run([...SOURCE_HOMED, "import", file], { env });
    assert.equal(first.code, 0, first.stderr);
    assert.match(first.stdout + first.stderr, /2 added, 0 already present/);
    const again = await run([...SOURCE_HOMED, "import", file], { env });
    assert.match(again.stdout + again.stderr, /0 added, 2 already present/, "re-importing adds nothing");
  });

  test("the plugin written with the SDK serves its tool over MCP, as homed starts it", async () => {
    const source = snippet("a plugin written with it, as `greeter.ts`", "ts");
    // Beside a checkout, as the docs say: the checkout is this repository.
    const file = join(dir.path, "greeter.ts");
    writeFileSync(file, source.replace("./homed/plugins/sdk/index.ts", join(ROOT, "plugins/sdk/index.ts")));
    const spec = JSON.parse(snippet("and `<data>/plugins/greeter/plugin.json`", "json")) as { command: string; args: string[] };
    assert.deepEqual(spec, { command: "bun", args: ["/home/me/greeter.ts"] });
    const client = new Client({ name: "homed-like", version: "0.0.0" });
    try {
      const [command, ...args] = scriptCommand(file);
      await client.connect(new StdioClientTransport({ command: command!, args, stderr: "ignore" }));
      assert.deepEqual(
        (await client.listTools()).tools.map((t) => t.name),
        ["greet"],
      );
      const greeted = await client.callTool({ name: "greet", arguments: { name: "Mia" } });
      assert.match(JSON.stringify(greeted), /Hello, Mia!/);
    } finally {
      await client.close();
    }
  });
});

/** homed.json's sections and the schemas the daemon reads them with (`embedder` is written by the console, read by src/embed). */
const SECTIONS: Record<string, z.ZodType> = {
  kernel: KernelConfigSchema,
  injection: InjectionConfigSchema,
  cooling: CoolingConfigSchema,
  fusion: FusionConfigSchema,
  plugins: PluginsConfigSchema,
  channels: ChannelsConfigSchema,
  connections: ConnectionLimitsSchema,
  log: LogConfigSchema,
  cors: CorsConfigSchema,
  models: ModelsSectionSchema,
  proactive: ProactiveConfigSchema,
};

/** Files of src/ (recursively). */
const sourceFiles = (dir: string): string[] =>
  readdirSync(dir, { recursive: true, encoding: "utf8" })
    .filter((f) => f.endsWith(".ts"))
    .map((f) => join(dir, f));

/** A shell line's words, quotes removed (enough for the docs' command lines). */
const words = (line: string): string[] => [...line.matchAll(/'([^']*)'|"((?:[^"\\]|\\.)*)"|(\S+)/g)].map((m) => m[1] ?? m[2] ?? m[3]!);

/** The `homed …` command of a shell line (after `sudo -u homed`, `./`, a path, or VAR=value), up to a comment, pipe or redirect; null when the line runs something else. */
function homedCommand(line: string): string[] | null {
  const cut = line.replace(/\s+#.*$/, "").split(/\s(?:\||>|&&|;|\\$)/)[0]!;
  const argv = words(cut.trim());
  while (argv.length && (/^[A-Z_]+=/.test(argv[0]!) || argv[0] === "sudo")) argv.splice(0, argv[0] === "sudo" && argv[1] === "-u" ? 3 : 1);
  if (!argv.length || !/^(\.\/|\/usr\/(local\/)?bin\/)?homed$/.test(argv[0]!)) return null;
  return argv.slice(1);
}

describe("the docs, checked against the code", () => {
  const blocks = DOC_FILES.flatMap((file) => fencedBlocks(file));

  test("every `homed …` command of the docs (shell lines and inline code) names a command and only flags homed accepts", () => {
    const names = new Set(COMMANDS.map((c) => c.name));
    const specs = allFlags(COMMANDS);
    // Inline code that starts with "homed" but is a message homed writes, not a command.
    const PROSE = new Set(["homed could not answer (<code>)."]);
    const commands: { where: string; text: string; argv: string[] }[] = [];
    for (const block of blocks.filter((b) => b.lang === "sh")) {
      for (const line of block.body.split("\n")) {
        const argv = homedCommand(line);
        if (argv) commands.push({ where: `${block.file}:${block.line}`, text: line, argv });
      }
    }
    for (const file of DOC_FILES) {
      for (const m of readDoc(file).matchAll(/`((?:\.\/)?homed [a-z][^`]*)`/g)) {
        if (!PROSE.has(m[1]!)) commands.push({ where: file, text: m[1]!, argv: m[1]!.split(/\s+/).slice(1) });
      }
    }
    const wrong: string[] = [];
    for (const { where, text, argv } of commands) {
      try {
        const command = parseArgs(argv, specs).positionals[0];
        if (command !== undefined && !names.has(command)) wrong.push(`${where}: no command '${command}': ${text}`);
      } catch (error) {
        wrong.push(`${where}: ${(error as Error).message}: ${text}`);
      }
    }
    assert.deepEqual(wrong, []);
    assert.ok(commands.length >= 80, `only ${commands.length} homed commands found: is the extraction still right?`);
  });

  test("every `make` target a shell block runs exists in the Makefile", () => {
    const makefile = readFileSync(join(ROOT, "Makefile"), "utf8");
    const targets = new Set([...makefile.matchAll(/^([a-z][\w-]*):/gm)].map((m) => m[1]!));
    const missing = blocks
      .filter((b) => b.lang === "sh")
      .flatMap((b) => b.body.split("\n").map((line) => ({ b, line })))
      .flatMap(({ b, line }) => [...line.replace(/\s+#.*$/, "").matchAll(/(?:^|&&\s*)make\s+([a-z][\w-]*)/g)].map((m) => ({ b, target: m[1]! })))
      .filter(({ target }) => !targets.has(target))
      .map(({ b, target }) => `${b.file}:${b.line}: make ${target}`);
    assert.deepEqual(missing, []);
  });

  test("every JSON block parses (an object, or JSON Lines), and a homed.json example passes its sections' schemas", () => {
    const wrong: string[] = [];
    let examples = 0;
    for (const block of blocks.filter((b) => b.lang === "json")) {
      let values: unknown[];
      try {
        values = [JSON.parse(block.body)];
      } catch {
        try {
          values = block.body.split("\n").map((l) => JSON.parse(l));
        } catch (error) {
          wrong.push(`${block.file}:${block.line}: not JSON: ${(error as Error).message}`);
          continue;
        }
      }
      for (const value of values) {
        const keys = Object.keys(value as object);
        if (!keys.length || !keys.every((k) => k in SECTIONS)) continue;
        examples++;
        for (const key of keys) {
          const parsed = SECTIONS[key]!.safeParse((value as Record<string, unknown>)[key]);
          if (!parsed.success) wrong.push(`${block.file}:${block.line}: ${key}: ${parsed.error.issues[0]?.message}`);
        }
      }
    }
    assert.deepEqual(wrong, []);
    assert.ok(examples >= Object.keys(SECTIONS).length, `only ${examples} homed.json examples found`);
  });

  test("every relative link and #anchor of README.md and docs/*.md resolves", () => {
    // Made by another part of the work (the console's screenshots); checked once they exist.
    const generated = new Set(["docs/screenshots/chat-en.png", "docs/screenshots/chat-zh-CN.png"]);
    const broken: string[] = [];
    for (const file of DOC_FILES) {
      for (const { target, line } of linksOf(readDoc(file))) {
        if (/^[a-z]+:/.test(target)) continue;
        const [path, anchor] = target.split("#") as [string, string | undefined];
        const resolved = path ? normalize(join(dirname(file), path)) : file;
        if (!existsSync(join(ROOT, resolved))) {
          if (!generated.has(resolved)) broken.push(`${file}:${line}: no file ${resolved}`);
          continue;
        }
        if (anchor !== undefined && resolved.endsWith(".md") && !anchorsOf(readFileSync(join(ROOT, resolved), "utf8")).has(anchor))
          broken.push(`${file}:${line}: no heading #${anchor} in ${resolved}`);
      }
    }
    assert.deepEqual(broken, []);
  });

  test("every file of the repository the docs name in code (`src/…`, `tests/…`, `bench/…`…) exists", () => {
    const missing: string[] = [];
    let named = 0;
    for (const file of DOC_FILES) {
      readDoc(file)
        .split("\n")
        .forEach((line, i) => {
          for (const m of line.matchAll(/`((?:src|tests|scripts|bench|web|plugins|packaging)\/[\w./*-]*[\w*/])`/g)) {
            // A placeholder in capitals (`web/page-NAME.tsx`) stands for any name.
            const path = m[1]!.replace(/(?<=[-/])[A-Z]{3,}(?=\.)/g, "*");
            named++;
            const pattern = new RegExp(`^${path.replace(/[.+?^${}()|[\]\\]/g, "\\$&").replaceAll("*", "[^/]*")}$`);
            const folder = dirname(path.replace(/\*.*$/, "x"));
            const exists = path.includes("*") ? existsSync(join(ROOT, folder)) && readdirSync(join(ROOT, folder)).some((f) => pattern.test(`${folder}/${f}`)) : existsSync(join(ROOT, path));
            if (!exists) missing.push(`${file}:${i + 1}: ${path}`);
          }
        });
    }
    assert.deepEqual(missing, []);
    assert.ok(named >= 100, `only ${named} paths found: is the pattern still right?`);
  });

  test("docs/http-api.md lists every route the server registers", async () => {
    const harness = await kernelHarness([]);
    const dir = tempDir("homed-routes-");
    try {
      // Every optional part switched on (A2A, plugins, doctor, the embedder's setup, models), so every route is registered.
      const app = createApp({
        version: "0.0.0-test",
        store: harness.store,
        log: createLogger({ level: "error", stderr: () => {} }),
        kernel: harness.kernel,
        adminToken: "t".repeat(40),
        a2a: { enabled: true, name: "homed", description: "test" },
        plugins: {} as never,
        doctor: {} as never,
        embedderSetup: { dataDir: dir.path, source: "models" },
        models: { dataDir: dir.path, modelsDir: dir.path },
        proactive: { outbound: new Outbound(), mutes: {} as never },
      });
      const doc = readDoc("docs/http-api.md");
      const documented = new Set(
        [...doc.matchAll(/`((?:GET|POST|PUT|PATCH|DELETE)(?:\/(?:GET|POST|PUT|PATCH|DELETE))*) (\/[^`\s?]*)/g)].flatMap((m) => m[1]!.split("/").map((method) => `${method} ${m[2]}`)),
      );
      const served = [...new Set(app.routes.filter((r) => r.method !== "ALL").map((r) => `${r.method} ${r.path.replace(/\{[^}]*\}/g, "")}`))];
      assert.ok(served.length >= 50, `only ${served.length} routes found`);
      assert.deepEqual(
        served.filter((route) => !documented.has(route)),
        [],
      );
    } finally {
      await harness.close();
      dir.remove();
    }
  });

  test("the charts of docs/benchmarks.md are drawn from its tables as they are now (bun scripts/gen-bench-plots.ts)", () => {
    for (const chart of CHARTS) assert.ok(readFileSync(join(ROOT, chart.file), "utf8") === renderChart(chart), `${chart.file} is stale: run bun scripts/gen-bench-plots.ts`);
  });

  test("docs/configuration.md names every flag and environment variable homed reads", () => {
    const doc = readDoc("docs/configuration.md");
    const flags = allFlags(COMMANDS).map((f) => `\`-${f.name}${f.value ? ` ${f.value}` : ""}\``);
    const variables = [...FLAGS.flatMap((f) => (f.env ? [f.env] : [])), ...COMMANDS.flatMap((c) => c.flags.flatMap((f) => (f.env ? [f.env] : []))), ...EXTRA_ENV.map((e) => e.name)];
    assert.deepEqual(
      flags.filter((f) => !doc.includes(f)),
      [],
    );
    assert.deepEqual(
      variables.filter((v) => !doc.includes(`\`${v}\``)),
      [],
    );
  });

  test("docs/configuration.md has every homed.json section the code reads, each with the code's defaults", () => {
    const doc = readDoc("docs/configuration.md");
    const read = new Set(sourceFiles(join(ROOT, "src")).flatMap((f) => [...readFileSync(f, "utf8").matchAll(/configSection\(\w+, "(\w+)"/g)].map((m) => m[1]!)));
    assert.deepEqual([...read].sort(), Object.keys(SECTIONS).sort(), "a section the daemon reads is missing from this test's table");
    for (const name of [...read, "embedder"]) assert.ok(doc.includes(`### \`${name}\``), `no section '${name}' in docs/configuration.md`);
    for (const [name, schema] of Object.entries(SECTIONS)) {
      const shown = JSON.parse(docSnippet(`### \`${name}\``, "json")) as Record<string, unknown>;
      assert.deepEqual(shown[name], schema.parse({}), `the defaults docs/configuration.md shows for '${name}'`);
    }
  });
});

/**
 * The built-in plugins, each run as `homed plugin run <name>` (from source) under the host,
 * exactly as the daemon runs them: files cannot escape its root, shell has a timeout and an
 * output cap, notes persist across a restart.
 */
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync, existsSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { BUILTIN_PLUGINS, builtinSpec } from "../../plugins/index.ts";
import { createPluginHost, startupDependencies, type CallToolResult, type PluginHost } from "../../src/plugins/index.ts";
import { run, scriptCommand, SOURCE_HOMED } from "../support/process.ts";
import { gone } from "./support.ts";
import { tempDir } from "../support/temp-dir.ts";

const body = (result: CallToolResult) => JSON.parse((result.content[0] as unknown as { text: string }).text);
const text = (result: CallToolResult) => (result.content[0] as unknown as { text: string }).text;

describe("built-in plugins", () => {
  const dir = tempDir("homed-builtins-").path;
  const root = join(dir, "root");
  const outside = join(dir, "outside");
  let host: PluginHost;

  before(async () => {
    mkdirSync(join(root, "sub"), { recursive: true });
    mkdirSync(outside);
    // A sibling whose name starts with the root's: a prefix check without a separator would let it in.
    mkdirSync(`${root}-sibling`);
    writeFileSync(`${root}-sibling/secret.txt`, "sibling secret\n");
    writeFileSync(join(root, "hello.txt"), "hello inside\n");
    writeFileSync(join(outside, "secret.txt"), "outside secret\n");
    symlinkSync(join(outside, "secret.txt"), join(root, "link-to-secret"));
    symlinkSync(outside, join(root, "link-to-outside"));
    symlinkSync("hello.txt", join(root, "link-inside"));
    host = createPluginHost(
      [
        builtinSpec("files", SOURCE_HOMED, { root }),
        builtinSpec("shell", SOURCE_HOMED, { cwd: root, timeoutMs: 5000, maxOutputBytes: 1000 }),
        builtinSpec("notes", SOURCE_HOMED, { dir: join(dir, "notes") }),
      ],
      { graceMs: 1000 },
    );
    await host.start();
  });
  after(async () => {
    await host?.stopAll();
    rmSync(dir, { recursive: true, force: true });
  });
  const files = (tool: string, args: Record<string, unknown>) => host.callTool("files", tool, args);

  test("all three run, speak the 2026-07-28 protocol and declare what they provide", () => {
    for (const plugin of host.list()) {
      assert.equal(plugin.state, "running", `${plugin.name}: ${plugin.logTail.join("\n")}`);
      assert.equal(plugin.protocol, "discover 2026-07-28");
      assert.deepEqual(plugin.manifest?.provides, [plugin.name]);
    }
  });

  test("the built-ins' facilities resolve to a start order (no cycle, no missing provider)", () => {
    const deps = startupDependencies(Object.values(BUILTIN_PLUGINS).map((p) => ({ name: p.name, provides: p.provides ?? [], requires: p.requires ?? [] })));
    assert.deepEqual([...deps.keys()].sort(), Object.keys(BUILTIN_PLUGINS).sort());
    assert.ok(Object.keys(BUILTIN_PLUGINS).length >= 5);
  });

  test("files: read, write (with parents) and list inside the root; a link inside the root is followed", async () => {
    assert.equal(text(await files("files_read", { path: "hello.txt" })), "hello inside\n");
    assert.equal(text(await files("files_read", { path: "link-inside" })), "hello inside\n");
    const written = await files("files_write", { path: "a/b/new.txt", content: "新的", parents: true });
    assert.equal(written.isError, undefined);
    assert.equal(readFileSync(join(root, "a/b/new.txt"), "utf8"), "新的");
    const listing = body(await files("files_list", { path: "." }));
    assert.deepEqual(
      listing.entries.map((e: { name: string }) => e.name),
      ["a", "hello.txt", "link-inside", "link-to-outside", "link-to-secret", "sub"],
    );
  });

  test("files: .. cannot escape", async () => {
    for (const path of ["../outside/secret.txt", "sub/../../outside/secret.txt", "../root-sibling/secret.txt"]) {
      const result = await files("files_read", { path });
      assert.equal(result.isError, true, path);
      assert.equal(body(result).error, "outside_root");
    }
    const write = await files("files_write", { path: "../escaped.txt", content: "x" });
    assert.equal(body(write).error, "outside_root");
    assert.equal(existsSync(join(dir, "escaped.txt")), false);
  });

  test("files: absolute paths are refused", async () => {
    const result = await files("files_read", { path: join(outside, "secret.txt") });
    assert.equal(body(result).error, "outside_root");
    assert.equal(body(await files("files_list", { path: "/" })).error, "outside_root");
  });

  test("files: symlinks cannot lead out — not to read, not through a linked folder, not to write", async () => {
    assert.equal(body(await files("files_read", { path: "link-to-secret" })).error, "outside_root");
    assert.equal(body(await files("files_read", { path: "link-to-outside/secret.txt" })).error, "outside_root");
    assert.equal(body(await files("files_list", { path: "link-to-outside" })).error, "outside_root");
    assert.equal(body(await files("files_write", { path: "link-to-outside/planted.txt", content: "x" })).error, "outside_root");
    assert.equal(body(await files("files_write", { path: "link-to-secret", content: "overwritten" })).error, "outside_root");
    assert.equal(readFileSync(join(outside, "secret.txt"), "utf8"), "outside secret\n");
    assert.equal(existsSync(join(outside, "planted.txt")), false);
  });

  test("files: bad arguments are a tool error the model can read, not a protocol failure", async () => {
    const result = await files("files_read", { path: 42 });
    assert.equal(result.isError, true);
    assert.equal(body(result).error, "invalid_arguments");
  });

  test("shell: exit code and output come back", async () => {
    const result = body(await host.callTool("shell", "shell_run", { command: "echo out; echo err >&2; pwd; exit 7" }));
    assert.equal(result.exitCode, 7);
    assert.equal(result.stdout, `out\n${root}\n`);
    assert.equal(result.stderr, "err\n");
    assert.equal(result.timedOut, false);
  });

  test("shell: a command past its timeout is killed with everything it started", async () => {
    const result = body(await host.callTool("shell", "shell_run", { command: "sleep 30 & echo $!; sleep 30", timeoutMs: 300 }));
    assert.equal(result.timedOut, true);
    assert.equal(result.exitCode, null);
    const background = Number(result.stdout.trim());
    assert.ok(background > 0);
    assert.ok(await gone(background), "the background job outlived the timeout");
  });

  test("shell: output past the cap is cut and marked", async () => {
    const result = body(await host.callTool("shell", "shell_run", { command: "yes | head -c 100000" }));
    assert.equal(result.truncated, true);
    assert.equal(result.stdout.length, 1000);
    assert.equal(result.exitCode, 0);
  });

  test("shell: a timeout above the configured one is refused", async () => {
    assert.equal(body(await host.callTool("shell", "shell_run", { command: "true", timeoutMs: 60_000 })).error, "invalid_arguments");
  });

  test("notes: add, find, update, delete, and they survive a restart of the plugin", async () => {
    const call = async (tool: string, args: Record<string, unknown>) => body(await host.callTool("notes", tool, args));
    const a = (await call("notes_add", { text: "Buy oat milk", tags: ["shopping"] })).note;
    await call("notes_add", { text: "Call the plumber on Monday", tags: ["home"] });
    assert.deepEqual(
      (await call("notes_list", { tag: "shopping" })).notes.map((n: { id: string }) => n.id),
      [a.id],
    );
    assert.equal((await call("notes_list", { query: "PLUMBER monday" })).total, 1);
    assert.equal((await call("notes_update", { id: a.id, text: "Buy oat milk and bread" })).note.text, "Buy oat milk and bread");
    await host.restart("notes");
    const after = await call("notes_list", {});
    assert.equal(after.total, 2);
    assert.equal(after.notes[1].text, "Buy oat milk and bread");
    assert.deepEqual(await call("notes_delete", { id: a.id }), { deleted: a.id });
    const gone = await call("notes_delete", { id: a.id });
    assert.equal(gone.error, "note_not_found");
    assert.ok(gone.next_action);
  });
});

describe("self command", () => {
  test("from source, homed runs itself as its runtime + the entry script (bun FILE, deno run ... FILE)", async () => {
    const script = join(import.meta.dirname, "fixtures", "print-self.ts");
    const { stdout } = await run(scriptCommand(script));
    assert.deepEqual(JSON.parse(stdout), scriptCommand(script));
  });
});

describe("homed plugin run with bad settings", () => {
  const start = (name: string, config: string) => run([...SOURCE_HOMED, "plugin", "run", name], { env: { ...process.env, HOMED_PLUGIN_CONFIG: config } });
  const cases: [name: string, config: string, reason: RegExp][] = [
    ["files", "{not json", /HOMED_PLUGIN_CONFIG is not JSON/],
    // Two wrong fields: both are named, still on one line.
    ["files", JSON.stringify({ root: 5, maxReadBytes: -1 }), /bad config: root: .*; maxReadBytes: /],
    // Settings that parse but cannot be used: the plugin's own start-up fails.
    ["files", JSON.stringify({ root: join(tmpdir(), "homed-no-such-root", "x") }), /no such file or directory/],
    ["shell", JSON.stringify({ cwd: ["/tmp"] }), /bad config: cwd: /],
  ];
  for (const [name, config, reason] of cases) {
    test(`${name} with ${config} says why in one "Cannot …" line and exits non-zero`, async () => {
      const { code, stderr } = await start(name, config);
      assert.notEqual(code, 0);
      const lines = stderr.trimEnd().split("\n");
      assert.equal(lines.length, 1, `one line, not a stack:\n${stderr}`);
      assert.match(lines[0]!, new RegExp(`^homed: Cannot start plugin ${name}: `));
      assert.match(lines[0]!, reason);
    });
  }
});

/**
 * Real MCP servers from npm, unchanged, as plugins: their tools are listed and callable.
 * They are Node programs, run with `node` (present wherever npm installed them).
 */
import { after, describe, test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { LogRing, PluginChild, PluginSpecSchema } from "../../src/plugins/index.ts";
import { ROOT } from "../support/process.ts";
import { tempDir } from "../support/temp-dir.ts";

const NODE_BIN = "node";
const server = (name: string) => join(ROOT, "node_modules/@modelcontextprotocol", name, "dist/index.js");

describe("real MCP servers as plugins", () => {
  const children: PluginChild[] = [];
  const dir = tempDir("homed-mcp-").path;
  after(async () => {
    await Promise.all(children.map((c) => c.stop(500)));
    rmSync(dir, { recursive: true, force: true });
  });
  const launch = (name: string, args: string[]) => {
    const child = PluginChild.spawn(PluginSpecSchema.parse({ name, command: NODE_BIN, args, timeoutMs: 15_000 }), { log: new LogRing() });
    children.push(child);
    return child;
  };

  test("server-everything: handshake, tools listed, echo called, no homed manifest", async () => {
    const child = launch("everything", [server("server-everything"), "stdio"]);
    await child.connect();
    assert.equal(child.client.info?.protocol, "initialize");
    assert.equal(child.client.info?.protocolVersion, "2025-11-25");
    const tools = await child.client.listTools();
    assert.ok(
      tools.some((t) => t.name === "echo"),
      `tools: ${tools.map((t) => t.name).join(",")}`,
    );
    const result = await child.client.callTool("echo", { message: "hello 你好" });
    assert.match(JSON.stringify(result.content), /hello 你好/);
    assert.equal(await child.client.manifest(), null);
  });

  test("server-filesystem: lists a directory and reads a file inside its root", async () => {
    writeFileSync(join(dir, "note.txt"), "remember the milk\n");
    const child = launch("filesystem", [server("server-filesystem"), dir]);
    await child.connect();
    const tools = await child.client.listTools();
    const names = tools.map((t) => t.name);
    assert.ok(names.includes("read_text_file") || names.includes("read_file"), names.join(","));
    const read = names.includes("read_text_file") ? "read_text_file" : "read_file";
    const result = await child.client.callTool(read, { path: join(dir, "note.txt") });
    assert.match(JSON.stringify(result.content), /remember the milk/);
    const listing = await child.client.callTool("list_directory", { path: dir });
    assert.match(JSON.stringify(listing.content), /note\.txt/);
    assert.equal(readFileSync(join(dir, "note.txt"), "utf8"), "remember the milk\n");
  });
});

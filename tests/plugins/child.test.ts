/** Real plugin processes that misbehave: the kernel side stays up and says why. */
import { after, describe, test } from "node:test";
import assert from "node:assert/strict";
import { join } from "node:path";
import { FIXTURES, gone, isRunning } from "./support.ts";
import { ErrorCode, LogRing, PluginChild, PluginSpecSchema, type RpcError } from "../../src/plugins/index.ts";
import { scriptSpec } from "../support/process.ts";

describe("plugin child process", () => {
  const children: PluginChild[] = [];
  after(async () => {
    // Bounded: should stop itself be broken, the kill below still runs and leaves no process behind.
    await Promise.race([Promise.all(children.map((c) => c.stop(200))), new Promise((r) => setTimeout(r, 2000))]);
    for (const c of children) if (c.pid && isRunning(c.pid)) process.kill(-c.pid, "SIGKILL");
  });
  const launch = (script: string, args: string[] = [], options: { timeoutMs?: number; maxFrameBytes?: number } = {}) => {
    const log = new LogRing(100);
    const spec = PluginSpecSchema.parse({ name: "t", ...scriptSpec(join(FIXTURES, script), ...args), timeoutMs: options.timeoutMs ?? 10_000 });
    const child = PluginChild.spawn(spec, { log, ...(options.maxFrameBytes ? { maxFrameBytes: options.maxFrameBytes } : {}) });
    children.push(child);
    return { child, log };
  };

  test("a 2026-07-28 server is reached through server/discover with the version in _meta", async () => {
    const { child } = launch("modern-server.ts");
    await child.connect();
    assert.equal(child.client.info?.protocol, "discover");
    assert.equal(child.client.info?.serverInfo?.name, "modern");
    assert.deepEqual(
      (await child.client.listTools()).map((t) => t.name),
      ["shout"],
    );
    assert.deepEqual((await child.client.callTool("shout", { text: "hi" })).content, [{ type: "text", text: "HI" }]);
  });

  test("a plugin that hangs runs into the call's deadline and still answers other calls", async () => {
    const { child } = launch("misbehave.ts", ["hang"], { timeoutMs: 200 });
    await child.connect();
    await assert.rejects(child.client.callTool("ping", {}), (e: RpcError) => e.code === ErrorCode.RequestTimeout);
    assert.equal((await child.client.listTools())[0]?.name, "ping");
  });

  test("garbage and oversized lines on stdout are dropped with a logged reason; valid answers get through", async () => {
    const { child, log } = launch("misbehave.ts", ["garbage"], { maxFrameBytes: 100_000 });
    await child.connect();
    const result = await child.client.callTool("ping", {});
    assert.match(JSON.stringify(result.content), /pong/);
    const notes = log.tail().join("\n");
    assert.match(notes, /not JSON/);
    assert.match(notes, /longer than 100000 bytes/);
    assert.match(notes, /-32601|method: /i);
  });

  test("a stderr flood lands in a bounded log ring and the plugin keeps working", async () => {
    const { child, log } = launch("misbehave.ts", ["flood"]);
    await child.connect();
    assert.match(JSON.stringify((await child.client.callTool("ping", {})).content), /pong/);
    assert.equal(log.tail().length, 100);
    assert.ok(log.droppedLines > 0);
  });

  test("a crash is an exit code, not an exception; open calls fail as closed", async () => {
    const { child } = launch("misbehave.ts", ["crash"]);
    const exit = await child.exited;
    assert.equal(exit.code, 3);
    await assert.rejects(child.client.listTools(), (e: RpcError) => e.code === ErrorCode.ConnectionClosed);
  });

  test("stop escalates to SIGKILL for a plugin that ignores stdin closing and SIGTERM", async () => {
    const { child, log } = launch("misbehave.ts", ["stubborn"]);
    await child.connect();
    const pid = child.pid!;
    const exit = await child.stop(150);
    assert.equal(exit.signal, "SIGKILL");
    assert.match(log.tail().join("\n"), /ignoring SIGTERM/);
    assert.ok(await gone(pid));
  });

  test("stopping a plugin also ends the processes it started", async () => {
    const { child, log } = launch("misbehave.ts", ["grandchild"]);
    await child.connect();
    const grandchild = Number(/grandchild (\d+)/.exec(log.tail().join("\n"))?.[1]);
    assert.ok(grandchild > 0 && isRunning(grandchild));
    await child.stop(500);
    assert.ok(await gone(grandchild), "grandchild outlived its plugin");
  });

  test("the child sees only allow-listed variables (common ones and those it names) plus its own, never the kernel's secrets", async () => {
    const log = new LogRing();
    const spec = PluginSpecSchema.parse({ name: "env", ...scriptSpec(join(FIXTURES, "misbehave.ts"), "env"), env: { PLUGIN_OWN: "1" }, inheritEnv: ["GITHUB_TOKEN"] });
    const child = PluginChild.spawn(spec, { log, parentEnv: { ...process.env, HOMED_ADMIN_TOKEN: "secret", OPENAI_API_KEY: "sk-x", GITHUB_TOKEN: "gh", PATH: process.env.PATH } });
    children.push(child);
    await child.connect();
    const names = (/env (\S*)/.exec(log.tail().join("\n"))?.[1] ?? "").split(",");
    assert.ok(names.includes("PLUGIN_OWN") && names.includes("PATH") && names.includes("GITHUB_TOKEN"), names.join(","));
    assert.ok(!names.includes("HOMED_ADMIN_TOKEN") && !names.includes("OPENAI_API_KEY"), names.join(","));
  });

  test("a command that does not exist is a failed start, not a thrown error", async () => {
    const spec = PluginSpecSchema.parse({ name: "ghost", command: "/nonexistent/homed-plugin" });
    const log = new LogRing();
    const child = PluginChild.spawn(spec, { log });
    const exit = await child.exited;
    assert.equal(exit.code, null);
    assert.match(log.tail().join("\n"), /Cannot start/);
  });
});

/** `homed chat` against a real daemon and a scripted provider: streaming, commands, Ctrl-C. */
import { describe, test, after } from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { SOURCE_HOMED, startDaemon, until, type Daemon } from "../support/process.ts";
import { startScriptedProvider, type ScriptedProvider } from "../support/scripted-provider.ts";
import { tempDir, testDir } from "../support/temp-dir.ts";

/** A daemon on a fresh data folder (with `config` as its homed.json); `remove` deletes the folder (after the daemon stops). */
async function daemonWith(provider: ScriptedProvider, config?: object): Promise<{ daemon: Daemon; data: string; remove(): void }> {
  const scratch = tempDir("homed-chat-");
  const data = join(scratch.path, "data");
  if (config) {
    mkdirSync(data, { recursive: true });
    writeFileSync(join(data, "homed.json"), JSON.stringify(config));
  }
  const daemon = await startDaemon([...SOURCE_HOMED, "-data", data, "-addr", "127.0.0.1:0"], {
    env: { ...process.env, HOMED_BASE_URL: provider.url, HOMED_MODEL: "scripted" },
  });
  return { daemon, data, remove: scratch.remove };
}

function chat(daemon: Daemon, data: string) {
  const child = spawn(SOURCE_HOMED[0]!, [...SOURCE_HOMED.slice(1), "chat", "-addr", `127.0.0.1:${daemon.port}`, "-data", data, "-partner", "tester"], { stdio: ["pipe", "pipe", "pipe"] });
  let out = "";
  let err = "";
  child.stdout.on("data", (d) => (out += d));
  child.stderr.on("data", (d) => (err += d));
  const exited = new Promise<number | null>((resolve) => child.on("exit", resolve));
  return { child, out: () => out, err: () => err, exited };
}

describe("homed chat", () => {
  test("streams answers, shows tool calls and recall, lists sessions, quits", async () => {
    const provider = await startScriptedProvider([{ toolCalls: [{ id: "c1", name: "nothing_here", arguments: "{}" }] }, { content: "The answer is 42." }]);
    const { daemon, data, remove } = await daemonWith(provider);
    after(async () => {
      await daemon.stop();
      await provider.close();
      remove();
    });
    const c = chat(daemon, data);
    c.child.stdin.write("what is the answer?\n/sessions\n/quit\n");
    assert.equal(await c.exited, 0, c.err());
    assert.match(c.out(), /session [0-9a-f]{8} \(tester\)/);
    assert.match(c.out(), /· recalled · L2×0 L3×0 · 0 chars · searched user, partner:tester\n/);
    assert.match(c.out(), /→ nothing_here/);
    assert.match(c.out(), /← nothing_here: \{"error":"unknown_tool"/);
    assert.match(c.out(), /The answer is 42\./);
    assert.match(c.out(), /\* [0-9a-f]{8} {2}terminal\/tester/);
  });

  test("Ctrl-C cancels the turn in progress, not the program", async () => {
    const provider = await startScriptedProvider([{ hang: true }, { content: "still here" }]);
    const { daemon, data, remove } = await daemonWith(provider);
    after(async () => {
      await daemon.stop();
      await provider.close();
      remove();
    });
    const c = chat(daemon, data);
    c.child.stdin.write("this will hang\n");
    await until(() => provider.requests.length === 1, "the turn to reach the model");
    // process.kill, not child.kill: Deno's child_process treats a child it signalled as ended.
    process.kill(c.child.pid!, "SIGINT");
    await until(() => c.out().includes("(cancelled)"), "the cancellation to be reported");
    c.child.stdin.write("hello again\n/quit\n");
    assert.equal(await c.exited, 0, c.err());
    assert.match(c.out(), /still here/);
  });

  test("a daemon that is not running gets one clear error", async () => {
    const data = testDir("homed-chat-");
    const { writeFileSync } = await import("node:fs");
    writeFileSync(join(data, "admin.token"), "x".repeat(40));
    const child = spawn(SOURCE_HOMED[0]!, [...SOURCE_HOMED.slice(1), "chat", "-addr", "127.0.0.1:1", "-data", data], { stdio: ["pipe", "pipe", "pipe"] });
    let err = "";
    child.stderr.on("data", (d) => (err += d));
    child.stdin.end();
    const code = await new Promise((resolve) => child.on("exit", resolve));
    assert.equal(code, 1);
    assert.match(err, /^homed: Cannot reach homed at http:\/\/127\.0\.0\.1:1/);
  });

  test("while attached, the answer of a turn woken in its session (a reminder due) is printed", async () => {
    const start = new Date(Date.now() + 2000).toISOString().replace(/\.\d+Z$/, "Z");
    const provider = await startScriptedProvider((request, n) => {
      const messages = request.body.messages;
      const said = String(messages.findLast((m: { role: string }) => m.role === "user")?.content ?? "");
      if (messages.at(-1).role === "tool") return { content: "Reminder set." };
      if (said.startsWith("[homed: woken")) return { content: "Time to stretch!" };
      if (said.startsWith("remind")) return { toolCalls: [{ id: `c${n}`, name: "calendar_create", arguments: JSON.stringify({ summary: "stretch", start, remindMinutesBefore: 0 }) }] };
      return { content: "ok" };
    });
    const { daemon, data, remove } = await daemonWith(provider, { plugins: { enabled: ["calendar"] } });
    after(async () => {
      await daemon.stop();
      await provider.close();
      remove();
    });
    await until(() => daemon.stderr().includes("calendar running"), "the calendar plugin");
    const c = chat(daemon, data);
    c.child.stdin.write("remind me to stretch\n");
    await until(() => c.out().includes("Reminder set."), "the answer");
    await until(() => c.out().includes("Time to stretch!"), "the woken answer", 20_000);
    assert.match(c.out(), /· reminder \(calendar\) ·\nTime to stretch!\n/);
    c.child.stdin.write("/quit\n");
    assert.equal(await c.exited, 0, c.err());
  });
});

/**
 * `homed acp` against the official `@agentclientprotocol/sdk` client side, as an editor runs it:
 * a real `homed acp` child process speaking ACP on stdio, relaying to a real daemon (from source,
 * the real shell plugin enabled) whose model is a scripted provider. What the editor sees:
 * initialize, session/new, session/prompt with streamed session/update, tool calls and their
 * results, a permission request before a shell command (allowed or refused), session/cancel, and
 * errors as JSON-RPC errors.
 */
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { spawn, type ChildProcess } from "node:child_process";
import { Readable, Writable } from "node:stream";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { client as acpClient, ndJsonStream, type ClientConnection, type McpServer, type RequestPermissionRequest, type SessionNotification } from "@agentclientprotocol/sdk";
import { startApiDaemon, type ApiDaemon } from "../support/api-daemon.ts";
import { startHttpMcpServer } from "../support/http-mcp-server.ts";
import { processesWhose, ROOT, SOURCE_HOMED, until } from "../support/process.ts";
import { readSse } from "../../src/cli/sse.ts";
import { existsSync } from "node:fs";
import { startScriptedProvider, type ReceivedRequest, type ScriptedProvider, type Step } from "../support/scripted-provider.ts";
import { tempDir, type TempDir } from "../support/temp-dir.ts";
import { sineWav } from "../support/wav.ts";

/** The newest user message's text (a voice message's is a text part beside its audio block). */
const lastUser = (r: ReceivedRequest) => {
  const content = [...r.body.messages].reverse().find((m: any) => m.role === "user")?.content ?? "";
  return Array.isArray(content) ? content.map((p: any) => p.text ?? "").join("\n") : String(content);
};
/** The result of call `id` in this turn (after the newest user message): editors share one session per partner. */
const toolResult = (r: ReceivedRequest, id: string): string | undefined => {
  const turnStart = r.body.messages.findLastIndex((m: any) => m.role === "user");
  return r.body.messages.slice(turnStart).find((m: any) => m.role === "tool" && m.tool_call_id === id)?.content;
};
const shown = (r: ReceivedRequest) => r.body.messages.map((m: any) => (typeof m.content === "string" ? m.content : JSON.stringify(m.content))).join("\n");

/**
 * "RUN …" calls shell_run (echo acp-ran), "STATS" calls memory_stats, "SLOW" answers late; once a
 * call's result is in, the answer quotes it. Anything else: "echo: <input>".
 */
/** A "SLOW" answer's first words come this long after the model is asked (and each piece as long after the last). */
const SLOW_DELAY_MS = 3000;
/** What the daemon's transcription endpoint hears in any recording. */
const VOICE_SAID = "rename the parser module to lexer";
const script = (r: ReceivedRequest): Step => {
  const input = lastUser(r);
  if (input.startsWith("RUN")) {
    const result = toolResult(r, "call-sh");
    return result === undefined ? { toolCalls: [{ id: "call-sh", name: "shell_run", arguments: JSON.stringify({ command: "echo acp-ran" }) }] } : { content: `shell said: ${result}` };
  }
  if (input.startsWith("STATS")) {
    const result = toolResult(r, "call-st");
    return result === undefined ? { toolCalls: [{ id: "call-st", name: "memory_stats", arguments: "{}" }] } : { content: "stats read" };
  }
  if (input.startsWith("SLOW")) return { content: "too late", delayMs: SLOW_DELAY_MS };
  // "MCP <tool> <message>": calls the session's MCP tool (everything__echo, remote__remote_echo) with the message, then quotes its result.
  if (input.startsWith("MCP ")) {
    const [, tool, ...message] = input.split(" ");
    const result = toolResult(r, "call-mcp");
    return result === undefined ? { toolCalls: [{ id: "call-mcp", name: tool!, arguments: JSON.stringify({ message: message.join(" ") }) }] } : { content: `mcp said: ${result}` };
  }
  if (input.startsWith("TOUCH "))
    return toolResult(r, "call-t") === undefined ? { toolCalls: [{ id: "call-t", name: "shell_run", arguments: JSON.stringify({ command: `touch ${input.slice(6)}` }) }] } : { content: "touched" };
  return { content: `echo: ${input}`, delayMs: 5 };
};

/** Live processes whose environment holds `marker` (the editor's MCP servers of one test). */
const processesMarked = (marker: string) => processesWhose("environ", marker);

type Editor = { connection: ClientConnection; updates: SessionNotification[]; asked: RequestPermissionRequest[]; child: ChildProcess; stderr: () => string };

describe("homed acp: the official ACP client side against homed", () => {
  let dir: TempDir;
  let provider: ScriptedProvider;
  let daemon: ApiDaemon;
  /** What the editor answers to a permission request. */
  let permission: "allow" | "reject" = "allow";
  const editors: Editor[] = [];

  /** Runs `homed acp` as an editor does and connects the SDK's client app to its stdio. */
  function startEditor(addr = `127.0.0.1:${daemon.port}`): Editor {
    const child = spawn(SOURCE_HOMED[0]!, [...SOURCE_HOMED.slice(1), "acp", "-addr", addr, "-data", dir.path, "-partner", "alice"], { stdio: ["pipe", "pipe", "pipe"] });
    let stderr = "";
    child.stderr!.on("data", (d) => (stderr += d));
    const updates: SessionNotification[] = [];
    const asked: RequestPermissionRequest[] = [];
    const app = acpClient({ name: "test-editor" })
      .onNotification("session/update", ({ params }) => void updates.push(params))
      .onRequest("session/request_permission", ({ params }) => {
        asked.push(params);
        return { outcome: { outcome: "selected", optionId: permission } };
      });
    const stream = ndJsonStream(Writable.toWeb(child.stdin!) as WritableStream<Uint8Array>, Readable.toWeb(child.stdout!) as unknown as ReadableStream<Uint8Array>);
    const editor = { connection: app.connect(stream), updates, asked, child, stderr: () => stderr };
    editors.push(editor);
    return editor;
  }

  async function newSession(editor: Editor): Promise<string> {
    const init = await editor.connection.agent.request("initialize", { protocolVersion: 1, clientCapabilities: {} });
    assert.equal(init.protocolVersion, 1);
    return (await editor.connection.agent.request("session/new", { cwd: dir.path, mcpServers: [] })).sessionId;
  }

  const messageText = (updates: SessionNotification[]) =>
    updates.map((u) => (u.update.sessionUpdate === "agent_message_chunk" && u.update.content.type === "text" ? u.update.content.text : "")).join("");

  before(async () => {
    dir = tempDir("homed-acp-");
    writeFileSync(join(dir.path, "homed.json"), JSON.stringify({ plugins: { enabled: ["shell"] } }));
    provider = await startScriptedProvider(script, { transcribe: () => VOICE_SAID });
    daemon = await startApiDaemon(dir.path, provider.url, undefined, { HOMED_TRANSCRIPTION_MODEL: "whisper-scripted" });
  });
  after(async () => {
    for (const e of editors) e.child.kill();
    await daemon?.stop();
    await provider?.close();
    dir?.remove();
  });

  test("initialize and session/new; a prompt streams the answer as agent_message_chunk updates and ends end_turn; the turn is (acp, alice)'s", async () => {
    const editor = startEditor();
    const init = await editor.connection.agent.request("initialize", { protocolVersion: 1, clientCapabilities: {} });
    assert.equal(init.agentInfo?.name, "homed");
    assert.equal(init.agentCapabilities?.promptCapabilities?.image, false);
    const { sessionId } = await editor.connection.agent.request("session/new", { cwd: dir.path, mcpServers: [] });
    const done = await editor.connection.agent.request("session/prompt", { sessionId, prompt: [{ type: "text", text: "my bike lock code is 3141" }] });
    assert.equal(done.stopReason, "end_turn");
    assert.ok(editor.updates.filter((u) => u.update.sessionUpdate === "agent_message_chunk").length > 1, "the answer came in one piece");
    assert.equal(messageText(editor.updates), "echo: my bike lock code is 3141");
    const sessions = (await (await fetch(`${daemon.url}/api/sessions`, { headers: daemon.headers })).json()) as { sessions: { channel: string; partner: string }[] };
    assert.ok(sessions.sessions.some((s) => s.channel === "acp" && s.partner === "alice"));
    // The next prompt is a turn of the same conversation: the model sees the first.
    await editor.connection.agent.request("session/prompt", { sessionId, prompt: [{ type: "text", text: "what is my lock code?" }] });
    assert.match(shown(provider.requests.filter((r) => lastUser(r) === "what is my lock code?").at(-1)!), /3141/);
  });

  test("an audio block is a voice message: promptCapabilities.audio, heard through the daemon's transcription endpoint, answered from its transcript", async () => {
    const editor = startEditor();
    const init = await editor.connection.agent.request("initialize", { protocolVersion: 1, clientCapabilities: {} });
    assert.equal(init.agentCapabilities?.promptCapabilities?.audio, true);
    const { sessionId } = await editor.connection.agent.request("session/new", { cwd: dir.path, mcpServers: [] });
    const wav = sineWav();
    const uploads = provider.transcriptions.length;
    const done = await editor.connection.agent.request("session/prompt", { sessionId, prompt: [{ type: "audio", data: wav.toString("base64"), mimeType: "audio/wav" }] });
    assert.equal(done.stopReason, "end_turn");
    assert.equal(messageText(editor.updates), `echo: [Voice message, transcribed] ${VOICE_SAID}`);
    assert.ok(Buffer.from(provider.transcriptions[uploads]!.bytes).equals(wav));
    // Over the bound: refused by homed acp itself, before the daemon reads it.
    const big = Buffer.alloc(8 * 1024 * 1024 + 3).toString("base64");
    await assert.rejects(
      editor.connection.agent.request("session/prompt", { sessionId, prompt: [{ type: "audio", data: big, mimeType: "audio/wav" }] }),
      (e: any) => e.code === -32602 && /over 8 MiB/.test(e.message),
    );
  });

  test("a shell command asks the editor first; allowed, it runs: tool_call, then tool_call_update completed with its output", async () => {
    permission = "allow";
    const editor = startEditor();
    const sessionId = await newSession(editor);
    const done = await editor.connection.agent.request("session/prompt", { sessionId, prompt: [{ type: "text", text: "RUN it" }] });
    assert.equal(done.stopReason, "end_turn");
    assert.equal(editor.asked.length, 1);
    assert.equal(editor.asked[0]!.toolCall.toolCallId, "call-sh");
    assert.deepEqual(editor.asked[0]!.toolCall.rawInput, { command: "echo acp-ran" });
    const kinds = editor.updates.map((u) => u.update.sessionUpdate);
    assert.ok(kinds.indexOf("tool_call") < kinds.indexOf("tool_call_update"));
    const result = editor.updates.find((u) => u.update.sessionUpdate === "tool_call_update")!.update as any;
    assert.equal(result.status, "completed");
    assert.match(JSON.stringify(result.content), /acp-ran/);
    assert.match(messageText(editor.updates), /shell said: .*acp-ran/);
  });

  test("refused in the editor, the command never runs: tool_call_update failed, its result the refusal", async () => {
    permission = "reject";
    const editor = startEditor();
    const sessionId = await newSession(editor);
    await editor.connection.agent.request("session/prompt", { sessionId, prompt: [{ type: "text", text: "RUN again" }] });
    assert.equal(editor.asked.length, 1);
    const result = editor.updates.find((u) => u.update.sessionUpdate === "tool_call_update")!.update as any;
    assert.equal(result.status, "failed");
    // The denial is the call's result (what the model reads next turn); the command's output is nowhere.
    assert.deepEqual(JSON.parse(result.content[0].content.text), { error: "denied", message: "The user did not allow shell_run: refused in the editor" });
  });

  test("a tool that does not touch the machine runs without asking", async () => {
    const editor = startEditor();
    const sessionId = await newSession(editor);
    await editor.connection.agent.request("session/prompt", { sessionId, prompt: [{ type: "text", text: "STATS please" }] });
    assert.equal(editor.asked.length, 0);
    const call = editor.updates.find((u) => u.update.sessionUpdate === "tool_call")!.update as any;
    assert.deepEqual([call.toolCallId, call.title], ["call-st", "memory_stats"]);
    assert.equal((editor.updates.find((u) => u.update.sessionUpdate === "tool_call_update")!.update as any).status, "completed");
  });

  test("session/cancel ends the prompt as cancelled, well before the model would have answered", async () => {
    const editor = startEditor();
    const sessionId = await newSession(editor);
    const prompt = editor.connection.agent.request("session/prompt", { sessionId, prompt: [{ type: "text", text: "SLOW one" }] });
    // Cancel once the daemon has the turn (the model was asked).
    await until(() => provider.requests.some((r) => lastUser(r) === "SLOW one"), "the model to be asked");
    const asked = performance.now();
    await editor.connection.agent.notify("session/cancel", { sessionId });
    assert.equal((await prompt).stopReason, "cancelled");
    // Timed from the model being asked, not from the prompt: a loaded machine stretches the turn's
    // start (it took ~1 s under Deno at load average ~20), which says nothing about the cancel.
    const ms = performance.now() - asked;
    assert.ok(ms < SLOW_DELAY_MS, `cancel waited for the model: ${Math.round(ms)} ms, and its first words were due after ${SLOW_DELAY_MS} ms`);
    assert.equal(messageText(editor.updates), "", "none of the slow answer reached the editor");
  });

  test("a cancel sent right behind the prompt, before the daemon's answer has begun, also ends it as cancelled; the session goes on", async () => {
    const editor = startEditor();
    const sessionId = await newSession(editor);
    const prompt = editor.connection.agent.request("session/prompt", { sessionId, prompt: [{ type: "text", text: "SLOW two" }] });
    await editor.connection.agent.notify("session/cancel", { sessionId });
    assert.equal((await prompt).stopReason, "cancelled");
    const next = await editor.connection.agent.request("session/prompt", { sessionId, prompt: [{ type: "text", text: "after the cancel" }] });
    assert.equal(next.stopReason, "end_turn");
  });

  test("a permission question whose asker goes away is a refusal: the command never runs", async () => {
    const marker = join(dir.path, "ran-unasked");
    const session = await daemon.openSession("gone-editor");
    const controller = new AbortController();
    const response = await fetch(`${daemon.url}/api/sessions/${session}/messages`, {
      method: "POST",
      headers: daemon.headers,
      body: JSON.stringify({ content: `TOUCH ${marker}`, ask: true }),
      signal: controller.signal,
    });
    for await (const message of readSse(response.body!)) if (message.event === "permission") break;
    controller.abort();
    await until(() => /turn cancelled after/.test(daemon.stderr().split(`session ${session}`).slice(1).join("")), "the turn's cancellation");
    // Long enough for a shell command the gate let through to have run.
    await new Promise((r) => setTimeout(r, 500));
    assert.equal(existsSync(marker), false);
  });

  describe("session/new mcpServers: run by homed acp for the session, their tools offered in its turns", () => {
    const EVERYTHING = join(ROOT, "node_modules/@modelcontextprotocol/server-everything/dist/index.js");
    /** A stdio server the editor configured, marked in its environment so its processes can be found. */
    const stdioServer = (marker: string): McpServer => ({ name: "everything", command: process.execPath, args: [EVERYTHING, "stdio"], env: [{ name: "ACP_TEST_MARKER", value: marker }] });
    const toolOffered = (name: string) => provider.requests.some((r) => (r.body.tools ?? []).some((t: any) => t.function.name === name));

    test("initialize advertises stdio and HTTP MCP servers (not SSE) and session/close", async () => {
      const editor = startEditor();
      const init = await editor.connection.agent.request("initialize", { protocolVersion: 1, clientCapabilities: {} });
      assert.deepEqual(init.agentCapabilities?.mcpCapabilities, { http: true, sse: false });
      assert.deepEqual(init.agentCapabilities?.sessionCapabilities?.close, {});
    });

    test("a stdio server: its tool really runs when the model calls it, the result reaches the model and the editor, and session/close ends its process", async () => {
      const marker = `acp-mcp-${crypto.randomUUID()}`;
      const editor = startEditor();
      await editor.connection.agent.request("initialize", { protocolVersion: 1, clientCapabilities: {} });
      const { sessionId } = await editor.connection.agent.request("session/new", { cwd: dir.path, mcpServers: [stdioServer(marker)] });
      assert.equal(processesMarked(marker).length, 1, "the server runs while the session is open");
      const done = await editor.connection.agent.request("session/prompt", { sessionId, prompt: [{ type: "text", text: "MCP everything__echo hello from the model" }] });
      assert.equal(done.stopReason, "end_turn");
      assert.ok(toolOffered("everything__echo"), "the server's tools are offered to the model");
      const answered = provider.requests.filter((r) => lastUser(r) === "MCP everything__echo hello from the model").at(-1)!;
      assert.equal(toolResult(answered, "call-mcp"), "Echo: hello from the model", "the tool ran on the server and its result reached the model");
      const call = editor.updates.find((u) => u.update.sessionUpdate === "tool_call")!.update as any;
      assert.deepEqual([call.toolCallId, call.title, call.rawInput], ["call-mcp", "everything__echo", { message: "hello from the model" }]);
      const result = editor.updates.find((u) => u.update.sessionUpdate === "tool_call_update")!.update as any;
      assert.equal(result.status, "completed");
      assert.equal(messageText(editor.updates), "mcp said: Echo: hello from the model");
      // The turn is stored whole in the daemon's session: the call and its result included.
      assert.equal(provider.sequenceErrors.length, 0);

      await editor.connection.agent.request("session/close", { sessionId });
      assert.deepEqual(processesMarked(marker), [], "session/close ended the server's process");
      await assert.rejects(editor.connection.agent.request("session/prompt", { sessionId, prompt: [{ type: "text", text: "hi" }] }), (e: any) =>
        new RegExp(sessionId).test(`${e.message} ${JSON.stringify(e.data)}`),
      );
    });

    test("the editor closing the connection ends homed acp and the servers of its sessions", async () => {
      const marker = `acp-mcp-${crypto.randomUUID()}`;
      const editor = startEditor();
      await editor.connection.agent.request("initialize", { protocolVersion: 1, clientCapabilities: {} });
      await editor.connection.agent.request("session/new", { cwd: dir.path, mcpServers: [stdioServer(marker)] });
      await editor.connection.agent.request("session/new", { cwd: dir.path, mcpServers: [stdioServer(marker)] });
      assert.equal(processesMarked(marker).length, 2);
      const exited = new Promise((resolve) => editor.child.once("exit", resolve));
      editor.child.stdin!.end();
      assert.equal(await exited, 0);
      assert.deepEqual(processesMarked(marker), [], "no server outlives homed acp");
    });

    test("SIGTERM to homed acp (the editor quitting) also ends the servers", async () => {
      const marker = `acp-mcp-${crypto.randomUUID()}`;
      const editor = startEditor();
      await editor.connection.agent.request("initialize", { protocolVersion: 1, clientCapabilities: {} });
      await editor.connection.agent.request("session/new", { cwd: dir.path, mcpServers: [stdioServer(marker)] });
      assert.equal(processesMarked(marker).length, 1);
      const exited = new Promise((resolve) => editor.child.once("exit", resolve));
      editor.child.kill("SIGTERM");
      await exited;
      // The servers are signalled before homed acp exits; their exit may take a moment more.
      await until(() => processesMarked(marker).length === 0, "no server to outlive homed acp", 5000);
    });

    test("an HTTP server (Streamable HTTP, the editor's headers): its tool runs; session/close ends its session on the server", async () => {
      const server = await startHttpMcpServer({ token: "editor-token-1" });
      try {
        const editor = startEditor();
        await editor.connection.agent.request("initialize", { protocolVersion: 1, clientCapabilities: {} });
        const { sessionId } = await editor.connection.agent.request("session/new", {
          cwd: dir.path,
          mcpServers: [{ type: "http", name: "remote", url: server.url, headers: [{ name: "authorization", value: "Bearer editor-token-1" }] }],
        });
        await editor.connection.agent.request("session/prompt", { sessionId, prompt: [{ type: "text", text: "MCP remote__remote_echo over http" }] });
        assert.deepEqual(server.calls, ["over http"]);
        const answered = provider.requests.filter((r) => lastUser(r) === "MCP remote__remote_echo over http").at(-1)!;
        assert.equal(toolResult(answered, "call-mcp"), "remote echo: over http");
        assert.equal(server.sessions(), 1);
        await editor.connection.agent.request("session/close", { sessionId });
        assert.equal(server.sessions(), 0);
      } finally {
        await server.close();
      }
    });

    test("refused with the reason: an SSE server, a server that cannot start; nothing is left running", async () => {
      const editor = startEditor();
      await editor.connection.agent.request("initialize", { protocolVersion: 1, clientCapabilities: {} });
      await assert.rejects(
        editor.connection.agent.request("session/new", { cwd: dir.path, mcpServers: [{ type: "sse", name: "old", url: "http://127.0.0.1:9/sse", headers: [] }] }),
        (e: any) => e.code === -32602 && /not SSE/.test(e.message),
      );
      const marker = `acp-mcp-${crypto.randomUUID()}`;
      await assert.rejects(
        editor.connection.agent.request("session/new", {
          cwd: dir.path,
          mcpServers: [stdioServer(marker), { name: "broken", command: join(dir.path, "no-such-program"), args: [], env: [] }],
        }),
        (e: any) => e.code === -32602 && /broken: /.test(e.message),
      );
      assert.deepEqual(processesMarked(marker), [], "the server that did start was stopped");
    });
  });

  test("errors are JSON-RPC errors: an image block (-32602), an unknown session, a daemon that is not running", async () => {
    const editor = startEditor();
    const sessionId = await newSession(editor);
    await assert.rejects(
      editor.connection.agent.request("session/prompt", { sessionId, prompt: [{ type: "image", data: "AAAA", mimeType: "image/png" }] }),
      (e: any) => e.code === -32602 && /text, resources and audio only/.test(e.message),
    );
    await assert.rejects(editor.connection.agent.request("session/prompt", { sessionId: "nope", prompt: [{ type: "text", text: "hi" }] }), (e: any) =>
      /nope/.test(`${e.message} ${JSON.stringify(e.data)}`),
    );
    // Nothing listens on port 9 on loopback: the daemon is "not running".
    const orphan = startEditor("127.0.0.1:9");
    await orphan.connection.agent.request("initialize", { protocolVersion: 1, clientCapabilities: {} });
    await assert.rejects(orphan.connection.agent.request("session/new", { cwd: dir.path, mcpServers: [] }), (e: any) => /Cannot reach homed at http:\/\/127\.0\.0\.1:9/.test(e.message));
  });
});

/**
 * The A2A channel against the official `@a2a-js/sdk` client: a real daemon from source (A2A
 * enabled in homed.json) on loopback, a scripted provider behind it. What another agent sees:
 * the card in both versions' shapes, v1.0 and v0.3 JSON-RPC, streaming, tasks/get and
 * tasks/cancel, errors in JSON-RPC's shape, auth by key — and that its turns are remembered
 * for its partner across channels, and for no one else.
 */
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { Role, TaskState, type Message, type Task } from "@a2a-js/sdk";
import { ClientFactory, createAuthenticatingFetchWithRetry, JsonRpcTransportFactory, type Client } from "@a2a-js/sdk/client";
import { parseLegacyAgentCard } from "@a2a-js/sdk/compat/v0_3/client";
import { createLogger } from "../../src/log/index.ts";
import { createApp } from "../../src/server/index.ts";
import { kernelHarness } from "../kernel/support.ts";
import { startApiDaemon, type ApiDaemon } from "../support/api-daemon.ts";
import { until } from "../support/process.ts";
import { startScriptedProvider, type ReceivedRequest, type ScriptedProvider, type Step } from "../support/scripted-provider.ts";
import { tempDir, type TempDir } from "../support/temp-dir.ts";

const lastUser = (r: ReceivedRequest) => String([...r.body.messages].reverse().find((m: any) => m.role === "user")?.content ?? "");
/** Everything the model was shown in one request, as one string. */
const shown = (r: ReceivedRequest) => r.body.messages.map((m: any) => (typeof m.content === "string" ? m.content : JSON.stringify(m.content))).join("\n");

/** A "SLOW" answer's first words come this long after the model is asked (and each piece as long after the last). */
const SLOW_DELAY_MS = 1500;
/** "SLOW…" answers late (a turn to cancel); everything else: "echo: <input>" in small pieces. */
const script = (r: ReceivedRequest): Step => (lastUser(r).startsWith("SLOW") ? { content: "too late", delayMs: SLOW_DELAY_MS } : { content: `echo: ${lastUser(r)}`, delayMs: 5 });

const userMessage = (text: string, parts?: Message["parts"], contextId = "") => ({
  message: {
    messageId: crypto.randomUUID(),
    role: Role.ROLE_USER,
    parts: parts ?? [{ content: { $case: "text" as const, value: text }, metadata: undefined, filename: "", mediaType: "text/plain" }],
    contextId,
    taskId: "",
    metadata: undefined,
    extensions: [],
    referenceTaskIds: [],
  },
  tenant: "",
  configuration: undefined,
  metadata: undefined,
});

const answerText = (task: Task) => task.status?.message?.parts.map((p) => (p.content?.$case === "text" ? p.content.value : "")).join("") ?? "";

describe("A2A: the official @a2a-js/sdk client against homed", () => {
  let dir: TempDir;
  let provider: ScriptedProvider;
  let daemon: ApiDaemon;
  /** App keys: alice and bob (a2a scope), and alice's v1-only key. */
  const keys: Record<string, string> = {};
  const authedFetch = (key: string): typeof fetch =>
    createAuthenticatingFetchWithRetry(fetch, { headers: async () => ({ authorization: `Bearer ${key}` }), shouldRetryWithHeaders: async () => undefined });
  const v1Client = (key: string): Promise<Client> => new ClientFactory({ transports: [new JsonRpcTransportFactory({ fetchImpl: authedFetch(key) })] }).createFromUrl(daemon.url);
  const rpc = (body: unknown, headers: Record<string, string> = {}) =>
    fetch(`${daemon.url}/a2a`, { method: "POST", headers: { "content-type": "application/json", authorization: `Bearer ${keys.alice}`, ...headers }, body: JSON.stringify(body) });

  before(async () => {
    dir = tempDir("homed-a2a-");
    writeFileSync(join(dir.path, "homed.json"), JSON.stringify({ channels: { a2a: { enabled: true, name: "homed-test" } } }));
    provider = await startScriptedProvider(script);
    daemon = await startApiDaemon(dir.path, provider.url);
    for (const [name, partner, scopes] of [
      ["alice-agent", "alice", ["a2a"]],
      ["bob-agent", "bob", ["a2a"]],
      ["alice-chat", "alice", ["v1"]],
    ] as const) {
      const made = await fetch(`${daemon.url}/api/keys`, { method: "POST", headers: daemon.headers, body: JSON.stringify({ name, partner, scopes }) });
      assert.equal(made.status, 201);
      keys[name === "alice-agent" ? "alice" : name === "bob-agent" ? "bob" : "aliceV1"] = ((await made.json()) as { key: string }).key;
    }
  });
  after(async () => {
    await daemon?.stop();
    await provider?.close();
    dir?.remove();
  });

  test("the card: v1.0 for a client that asks for 1.0, v0.3 otherwise; both name /a2a and bearer auth; no key needed to read it", async () => {
    const v1 = (await (await fetch(`${daemon.url}/.well-known/agent-card.json`, { headers: { "a2a-version": "1.0" } })).json()) as any;
    assert.equal(v1.name, "homed-test");
    assert.deepEqual(
      v1.supportedInterfaces.map((i: any) => [i.url, i.protocolBinding, i.protocolVersion]),
      [
        [`${daemon.url}/a2a`, "JSONRPC", "1.0"],
        [`${daemon.url}/a2a`, "JSONRPC", "0.3"],
      ],
    );
    assert.equal(v1.securitySchemes.bearer.httpAuthSecurityScheme.scheme, "Bearer");
    assert.equal(v1.capabilities.streaming, true);
    const v03 = (await (await fetch(`${daemon.url}/.well-known/agent-card.json`)).json()) as any;
    assert.deepEqual([v03.protocolVersion, v03.url, v03.preferredTransport], ["0.3.0", `${daemon.url}/a2a`, "JSONRPC"]);
    assert.deepEqual(v03.security, [{ bearer: [] }]);
    // The SDK's own v0.3 card parser takes it.
    assert.match(parseLegacyAgentCard(v03).supportedInterfaces[0]!.protocolVersion, /^0\.3/);
  });

  test("SendMessage (v1.0): a completed task whose status message is the model's answer; the turn is alice's", async () => {
    const client = await v1Client(keys.alice!);
    const task = (await client.sendMessage(userMessage("my locker code is 4711"))) as Task;
    assert.equal(task.status?.state, TaskState.TASK_STATE_COMPLETED);
    assert.equal(answerText(task), "echo: my locker code is 4711");
    const sessions = (await (await fetch(`${daemon.url}/api/sessions`, { headers: daemon.headers })).json()) as { sessions: { channel: string; partner: string }[] };
    assert.ok(sessions.sessions.some((s) => s.channel === "a2a" && s.partner === "alice"));
  });

  test("contextId: the same one continues a conversation, a new one (or none: the SDK makes one) starts another; the id is the key's partner's own", async () => {
    const asked = (question: string) => provider.requests.filter((r) => lastUser(r) === question).at(-1)!;
    const alice = await v1Client(keys.alice!);
    const first = crypto.randomUUID();
    const told = (await alice.sendMessage(userMessage("my bike lock code is 2718", undefined, first))) as Task;
    assert.equal(told.contextId, first);
    // The same contextId: the model is shown what was said in it.
    const again = (await alice.sendMessage(userMessage("what is my bike lock code? (same context)", undefined, first))) as Task;
    assert.equal(again.contextId, first);
    assert.match(shown(asked("what is my bike lock code? (same context)")), /my bike lock code is 2718/);
    // Another contextId of the same key: an independent conversation, none of the first's messages.
    await alice.sendMessage(userMessage("what is my bike lock code? (other context)", undefined, crypto.randomUUID()));
    assert.doesNotMatch(shown(asked("what is my bike lock code? (other context)")), /\b2718\b/);
    // No contextId: the SDK gives the task a fresh one, so it is independent too.
    const fresh = (await alice.sendMessage(userMessage("what is my bike lock code? (no context)"))) as Task;
    assert.ok(fresh.contextId && fresh.contextId !== first);
    assert.doesNotMatch(shown(asked("what is my bike lock code? (no context)")), /\b2718\b/);
    // bob's key sending alice's contextId gets a conversation of its own (bob's), never hers.
    await (await v1Client(keys.bob!)).sendMessage(userMessage("what is my bike lock code? (bob, alice's context)", undefined, first));
    assert.doesNotMatch(shown(asked("what is my bike lock code? (bob, alice's context)")), /\b2718\b/);
    const sessions = (await (await fetch(`${daemon.url}/api/sessions`, { headers: daemon.headers })).json()) as { sessions: { channel: string; partner: string; contextKey: string | null }[] };
    assert.deepEqual(
      sessions.sessions
        .filter((s) => s.contextKey === first)
        .map((s) => s.partner)
        .sort(),
      ["alice", "bob"],
    );
  });

  test("contextId over v0.3 (message/send by hand, as the docs' curl): the same one continues the conversation", async () => {
    const contextId = crypto.randomUUID();
    const send = async (text: string) =>
      (await (
        await rpc({
          jsonrpc: "2.0",
          id: text,
          method: "message/send",
          params: { message: { kind: "message", messageId: crypto.randomUUID(), role: "user", contextId, parts: [{ kind: "text", text }] } },
        })
      ).json()) as any;
    assert.equal((await send("the shed key is under the blue pot")).result.contextId, contextId);
    await send("where is the shed key? (v0.3)");
    assert.match(shown(provider.requests.filter((r) => lastUser(r) === "where is the shed key? (v0.3)").at(-1)!), /under the blue pot/);
  });

  test("a contextId longer than 256 characters is refused (rejected task), not cut", async () => {
    const task = (await (await v1Client(keys.alice!)).sendMessage(userMessage("hello", undefined, "c".repeat(257)))) as Task;
    assert.equal(task.status?.state, TaskState.TASK_STATE_REJECTED);
    assert.match(answerText(task), /contextId is longer than 256/);
  });

  test("SendStreamingMessage (v1.0): task, working, the answer in pieces as the model writes it, then completed", async () => {
    const client = await v1Client(keys.alice!);
    const kinds: string[] = [];
    let streamed = "";
    let last: TaskState | undefined;
    for await (const event of client.sendMessageStream(userMessage("stream this please"))) {
      const payload = event.payload!;
      kinds.push(payload.$case);
      if (payload.$case === "artifactUpdate") streamed += payload.value.artifact!.parts.map((p) => (p.content?.$case === "text" ? p.content.value : "")).join("");
      if (payload.$case === "statusUpdate") last = payload.value.status!.state;
    }
    assert.equal(kinds[0], "task");
    assert.ok(kinds.filter((k) => k === "artifactUpdate").length > 1, `the answer came in one piece: ${kinds.join(",")}`);
    assert.equal(streamed, "echo: stream this please");
    assert.equal(last, TaskState.TASK_STATE_COMPLETED);
  });

  test("GetTask finds alice's task for alice; bob's key gets TaskNotFound (-32001), as does an unknown id", async () => {
    const alice = await v1Client(keys.alice!);
    const task = (await alice.sendMessage(userMessage("remember the milk"))) as Task;
    const got = await alice.getTask({ id: task.id, tenant: "", historyLength: undefined });
    assert.equal(got.status?.state, TaskState.TASK_STATE_COMPLETED);
    const bob = await v1Client(keys.bob!);
    await assert.rejects(bob.getTask({ id: task.id, tenant: "", historyLength: undefined }), /not found/i);
    const raw = (await (await rpc({ jsonrpc: "2.0", id: 7, method: "tasks/get", params: { id: "no-such-task" } })).json()) as any;
    assert.equal(raw.id, 7);
    assert.equal(raw.error.code, -32001);
  });

  test("CancelTask stops a running turn: the task ends canceled, well before the model would have answered", async () => {
    const client = await v1Client(keys.alice!);
    let cancelling = 0;
    let cancelled: Task | undefined;
    let last: TaskState | undefined;
    let streamed = "";
    for await (const event of client.sendMessageStream(userMessage("SLOW answer"))) {
      const payload = event.payload!;
      if (payload.$case === "artifactUpdate") streamed += payload.value.artifact!.parts.map((p) => (p.content?.$case === "text" ? p.content.value : "")).join("");
      if (payload.$case === "statusUpdate") {
        last = payload.value.status!.state;
        if (last === TaskState.TASK_STATE_WORKING) {
          cancelling = performance.now();
          cancelled = await client.cancelTask({ id: payload.value.taskId, tenant: "", metadata: undefined });
        }
      }
    }
    // Timed from the cancel, not from the message: a loaded machine stretches the turn's start,
    // which says nothing about the cancel.
    const ms = performance.now() - cancelling;
    assert.equal(last, TaskState.TASK_STATE_CANCELED);
    assert.ok(cancelled);
    assert.ok(ms < SLOW_DELAY_MS, `the cancel waited for the model: ${Math.round(ms)} ms, and its first words were due ${SLOW_DELAY_MS} ms after it was asked`);
    assert.equal(streamed, "", "none of the slow answer was streamed");
    // The kernel's turn itself stopped (not only the task's state): its log line says why.
    await until(() => /turn cancelled after \d+ rounds \(cancelled by the A2A client\)/.test(daemon.stderr()), "the turn's cancellation in the log");
  });

  test("v0.3: the SDK's legacy transport (message/send, tasks/get) on the same endpoint", async () => {
    const card = parseLegacyAgentCard(await (await fetch(`${daemon.url}/.well-known/agent-card.json`)).json());
    const client = await new ClientFactory({ transports: [new JsonRpcTransportFactory({ fetchImpl: authedFetch(keys.alice!), legacyCompat: { enabled: true } })] }).createFromAgentCard(card);
    assert.equal(client.protocolVersion, "0.3");
    const task = (await client.sendMessage(userMessage("hello from v0.3"))) as Task;
    assert.equal(answerText(task), "echo: hello from v0.3");
    assert.equal((await client.getTask({ id: task.id, tenant: "", historyLength: undefined })).id, task.id);
    // On the wire it is v0.3's method name and shape.
    const raw = (await (
      await rpc({ jsonrpc: "2.0", id: "x", method: "message/send", params: { message: { kind: "message", messageId: "m1", role: "user", parts: [{ kind: "text", text: "raw v0.3" }] } } })
    ).json()) as any;
    assert.equal(raw.result.kind, "task");
    assert.equal(raw.result.status.state, "completed");
    assert.equal(raw.result.status.message.parts[0].text, "echo: raw v0.3");
  });

  test("refused: no key (401 + WWW-Authenticate), a key without the a2a scope (403), both as JSON-RPC errors; a file part is ContentTypeNotSupported", async () => {
    const none = await rpc({ jsonrpc: "2.0", id: 1, method: "tasks/get", params: { id: "x" } }, { authorization: "" });
    assert.equal(none.status, 401);
    assert.match(none.headers.get("www-authenticate") ?? "", /^Bearer/);
    assert.equal(((await none.json()) as any).error.code, -32600);
    const scoped = await rpc({ jsonrpc: "2.0", id: 1, method: "tasks/get", params: { id: "x" } }, { authorization: `Bearer ${keys.aliceV1}` });
    assert.equal(scoped.status, 403);
    assert.match(((await scoped.json()) as any).error.message, /a2a/);
    const client = await v1Client(keys.alice!);
    const file = (mediaType: string) => [{ content: { $case: "url" as const, value: "https://example.org/cat.png" }, metadata: undefined, filename: "cat.png", mediaType }];
    await assert.rejects(client.sendMessage(userMessage("", file("image/png"))), /image\/png.*not supported/);
    // A file part that names no media type is not refused by the SDK: homed rejects the task.
    const rejected = (await client.sendMessage(userMessage("", file("")))) as Task;
    assert.equal(rejected.status?.state, TaskState.TASK_STATE_REJECTED);
    assert.match(answerText(rejected), /text parts only/);
    const garbage = await rpc("{not json" as unknown as object);
    assert.equal(((await garbage.json()) as any).error.code !== undefined, true);
  });
});

test("A2A is off until homed.json enables it: no card, no /a2a", async () => {
  const h = await kernelHarness([]);
  try {
    const app = createApp({ version: "0.0.0-test", store: h.store, log: createLogger({ level: "error", stderr: () => {} }), kernel: h.kernel, adminToken: "t".repeat(40) });
    assert.equal((await app.request("/.well-known/agent-card.json")).status, 404);
    const rpc = await app.request("/a2a", { method: "POST", headers: { authorization: `Bearer ${"t".repeat(40)}`, "content-type": "application/json" }, body: "{}" });
    assert.equal(rpc.status, 404);
  } finally {
    await h.close();
  }
});

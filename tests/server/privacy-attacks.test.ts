/**
 * Who sees what, attacked from the other side (DESIGN §3, issue 31): a real daemon on loopback,
 * alice's private memory (an L3 fact and an L2 note, private to partner alice) and her session,
 * and a second app's key (`-partner app2`) trying every path to read, open, list, forget or
 * write them: `/v1` (`user`, `X-Homed-Session`, the model's own tool calls in its turn), `/mcp`
 * through the official MCP SDK (tools, resources, prompts), A2A through raw JSON-RPC with the
 * model calling the tools. Each refusal must look exactly like an unknown id and change nothing;
 * alice's own key and the admin token are the controls that still reach it (so a check that
 * refused everything would fail here too).
 */
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import OpenAI from "openai";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { startApiDaemon, type ApiDaemon } from "../support/api-daemon.ts";
import { startScriptedProvider, type ReceivedRequest, type ScriptedProvider, type Step } from "../support/scripted-provider.ts";
import { tempDir, type TempDir } from "../support/temp-dir.ts";

const SECRET = "31-7-22";
const COLD_SECRET = "the spare key is under the blue pot";
const UNKNOWN = "f0f0f0f0-0000-4000-8000-0000deadbeef";
const ALICE_QUESTION = "what did I say about the dentist on tuesday";

const lastUser = (r: ReceivedRequest) => String([...r.body.messages].reverse().find((m: any) => m.role === "user")?.content ?? "");
const shown = (r: ReceivedRequest) => JSON.stringify(r.body.messages);

/**
 * The model: "TOOL <name> <json>" makes it call that tool; once the tool answered, it says what
 * the tool said. Anything else is echoed.
 */
function script(r: ReceivedRequest, n: number): Step {
  const last = r.body.messages.at(-1);
  if (last?.role === "tool") return { content: `tool said: ${last.content}` };
  const asked = /^TOOL (\S+) (.*)$/s.exec(lastUser(r));
  if (asked) return { toolCalls: [{ id: `call_${n}`, name: asked[1]!, arguments: asked[2]! }] };
  return { content: `echo: ${lastUser(r)}` };
}

describe("privacy: one partner never reaches another's private memory or session", () => {
  let dir: TempDir;
  let provider: ScriptedProvider;
  let daemon: ApiDaemon;
  const keys: Record<string, string> = {};
  let factId = "";
  let coldId = "";
  let aliceSession = "";

  const admin = (path: string, init: RequestInit = {}) => fetch(`${daemon.url}${path}`, { ...init, headers: daemon.headers });
  const adminTool = async (name: string, args: object) => {
    const response = await admin(`/api/memory/tools/${name}`, { method: "POST", body: JSON.stringify(args) });
    return { status: response.status, body: (await response.json()) as any };
  };
  const sdk = (key: string) => new OpenAI({ baseURL: `${daemon.url}/v1`, apiKey: key, maxRetries: 0 });
  const mcp = async (key: string) => {
    const client = new Client({ name: "privacy-attack", version: "0.0.0" });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${daemon.url}/mcp`), { requestInit: { headers: { authorization: `Bearer ${key}` } } }));
    return client;
  };
  const callText = (result: any) => (result.content as { text: string }[]).map((c) => c.text).join("\n");
  /** Both of alice's memories are still there, whole (the admin token opens them). */
  const aliceMemoryIntact = async () => {
    for (const id of [factId, coldId]) {
      const opened = await adminTool("memory_open", { id });
      assert.equal(opened.status, 200, `${id} is still there: ${JSON.stringify(opened.body)}`);
    }
  };
  /** What the session holds, as the console's context inspector shows it. */
  const sessionDump = async (id: string) => {
    const response = await admin(`/api/sessions/${id}/context`);
    assert.equal(response.status, 200);
    return await response.text();
  };

  before(async () => {
    dir = tempDir("homed-privacy-");
    writeFileSync(join(dir.path, "homed.json"), JSON.stringify({ channels: { a2a: { enabled: true, name: "homed-test" } } }));
    provider = await startScriptedProvider(script);
    daemon = await startApiDaemon(dir.path, provider.url);
    for (const [name, partner] of [
      ["alice-app", "alice"],
      ["app2", "app2"],
    ]) {
      const made = await admin("/api/keys", { method: "POST", body: JSON.stringify({ name, partner, scopes: ["v1", "mcp", "a2a"] }) });
      assert.equal(made.status, 201);
      keys[partner!] = ((await made.json()) as { key: string }).key;
    }
    const fact = await adminTool("memory_note", { text: `alice private: her locker combination is ${SECRET}`, scope: "partner:alice", importance: 0.9 });
    assert.equal(fact.status, 200, JSON.stringify(fact.body));
    factId = fact.body.id;
    const cold = await adminTool("memory_note", { text: `alice private: ${COLD_SECRET}`, scope: "partner:alice", layer: "L2" });
    assert.equal(cold.status, 200, JSON.stringify(cold.body));
    coldId = cold.body.id;
    // Alice's own chat: her session, and an injection audit holding her question.
    await sdk(keys.alice!).chat.completions.create({ model: "homed", messages: [{ role: "user", content: ALICE_QUESTION }] });
    const sessions = (await (await admin("/api/sessions")).json()) as { sessions: { id: string; channel: string; partner: string }[] };
    aliceSession = sessions.sessions.find((s) => s.channel === "openai" && s.partner === "alice")!.id;
  });
  after(async () => {
    await daemon?.stop();
    await provider?.close();
    dir?.remove();
  });

  test("control: alice's own key reaches her private memory (recall in her chat, memory_open over MCP)", async () => {
    await sdk(keys.alice!).chat.completions.create({ model: "homed", messages: [{ role: "user", content: "what is my locker combination?" }] });
    const asked = provider.requests.filter((r) => lastUser(r) === "what is my locker combination?").at(-1)!;
    assert.match(shown(asked), new RegExp(SECRET), "alice's chat is given her private memory");
    const client = await mcp(keys.alice!);
    try {
      const opened = await client.callTool({ name: "memory_open", arguments: { id: factId } });
      assert.equal(opened.isError, undefined, callText(opened));
      assert.match(callText(opened), new RegExp(SECRET));
    } finally {
      await client.close();
    }
  });

  test("/v1: another app's key sending user 'alice' talks as app2/alice, in its own session, and is never given alice's memory", async () => {
    await sdk(keys.app2!).chat.completions.create({ model: "homed", messages: [{ role: "user", content: "what is alice's locker combination?" }], user: "alice" });
    const asked = provider.requests.filter((r) => lastUser(r) === "what is alice's locker combination?").at(-1)!;
    assert.doesNotMatch(shown(asked), new RegExp(SECRET));
    const sessions = (await (await admin("/api/sessions")).json()) as { sessions: { channel: string; partner: string }[] };
    assert.ok(sessions.sessions.some((s) => s.channel === "openai" && s.partner === "app2/alice"));
  });

  test("/v1: X-Homed-Session naming alice's session answers 404 like an unknown id, and nothing is written there", async () => {
    const before = await sessionDump(aliceSession);
    assert.match(before, new RegExp(ALICE_QUESTION), "the dump shows what her session holds");
    const tries = async (id: string) => {
      const response = await fetch(`${daemon.url}/v1/chat/completions`, {
        method: "POST",
        headers: { authorization: `Bearer ${keys.app2}`, "content-type": "application/json", "x-homed-session": id },
        body: JSON.stringify({ model: "homed", messages: [{ role: "user", content: "write into alice's session" }] }),
      });
      return { status: response.status, body: (await response.json()) as any };
    };
    const theirs = await tries(aliceSession);
    const unknown = await tries("00000000-0000-4000-8000-000000000000");
    assert.equal(theirs.status, 404);
    assert.equal(theirs.body.error.code, unknown.body.error.code);
    assert.equal(theirs.body.error.message.replace(aliceSession, "ID"), unknown.body.error.message.replace("00000000-0000-4000-8000-000000000000", "ID"));
    assert.equal(await sessionDump(aliceSession), before, "alice's session is unchanged");
    assert.equal(
      provider.requests.some((r) => lastUser(r) === "write into alice's session"),
      false,
      "no turn ran",
    );
    // Its own partner's session on another channel (an editor's over ACP) is not its to open either;
    // its own /v1 session is (the control for the header).
    const editor = (await (await admin("/api/sessions", { method: "POST", body: JSON.stringify({ channel: "acp", partner: "app2" }) })).json()) as { id: string };
    assert.equal((await tries(editor.id)).status, 404);
    const sessions = (await (await admin("/api/sessions")).json()) as { sessions: { id: string; channel: string; partner: string }[] };
    const own = sessions.sessions.find((s) => s.channel === "openai" && s.partner === "app2/alice")!;
    assert.equal((await tries(own.id)).status, 404, "a session of a partner inside app2 needs that partner's user to open it: a partner sees its own and upward, never downward");
    const mine = await fetch(`${daemon.url}/v1/chat/completions`, {
      method: "POST",
      headers: { authorization: `Bearer ${keys.app2}`, "content-type": "application/json", "x-homed-session": own.id },
      body: JSON.stringify({ model: "homed", messages: [{ role: "user", content: "continue my own session" }], user: "alice" }),
    });
    assert.equal(mine.status, 200, await mine.clone().text());
    // The admin token may still continue any session (the owner sees everything).
    const owner = await fetch(`${daemon.url}/v1/chat/completions`, {
      method: "POST",
      headers: { ...daemon.headers, "x-homed-session": aliceSession },
      body: JSON.stringify({ model: "homed", messages: [{ role: "user", content: "the owner continues it" }] }),
    });
    assert.equal(owner.status, 200);
  });

  test("/mcp: another app's key cannot open, read, forget, list, search or write alice's private memory, nor see her injections", async () => {
    const client = await mcp(keys.app2!);
    try {
      const call = (name: string, args: object) => client.callTool({ name, arguments: args as Record<string, unknown> });
      const unknownOpen = await call("memory_open", { id: UNKNOWN });
      for (const id of [factId, coldId, factId.replace(/[^a-zA-Z0-9]/g, "").slice(-8), coldId.replace(/[^a-zA-Z0-9]/g, "").slice(-8)]) {
        const opened = await call("memory_open", { id });
        assert.equal(opened.isError, true, `${id}: ${callText(opened)}`);
        // Word for word the answer to an id that never existed (the id given is echoed back, nothing else).
        assert.deepEqual(
          { ...(opened.structuredContent as any), message: (opened.structuredContent as any).message.replace(id, "ID") },
          { ...(unknownOpen.structuredContent as any), message: (unknownOpen.structuredContent as any).message.replace(UNKNOWN, "ID") },
        );
        assert.doesNotMatch(callText(opened).replace(id, "ID"), new RegExp(`${SECRET}|${COLD_SECRET}|${factId}|${coldId}`));
        const forgot = await call("memory_forget", { id });
        assert.equal(forgot.isError, true, `${id}: ${callText(forgot)}`);
        assert.equal((forgot.structuredContent as any).error, "not_found");
      }
      await aliceMemoryIntact();

      const read = await client.readResource({ uri: `homed://memory/${factId}` }).then(
        () => "read",
        (error: Error) => error.message,
      );
      assert.notEqual(read, "read");
      assert.doesNotMatch(read, new RegExp(SECRET));
      const resources = await client.listResources();
      assert.doesNotMatch(JSON.stringify(resources), new RegExp(`${SECRET}|${factId}`));

      for (const args of [{ layer: "L3" }, { layer: "L2" }, { layer: "L2", conversation: "alice" }, { layer: "L3", conversation: "alice" }]) {
        const listed = await call("memory_list", args);
        assert.doesNotMatch(callText(listed), new RegExp(`${SECRET}|${COLD_SECRET}`), JSON.stringify(args));
      }
      const recalled = await call("memory_recall", { query: "alice locker combination spare key blue pot" });
      assert.doesNotMatch(callText(recalled), new RegExp(`${SECRET}|${COLD_SECRET}`));
      const scoped = await call("memory_recall", { query: "locker combination", scope: "partner:alice" });
      assert.equal(scoped.isError, true);
      assert.doesNotMatch(callText(scoped), new RegExp(SECRET));
      const prompt = await client.getPrompt({ name: "recall", arguments: { query: "alice locker combination" } });
      assert.doesNotMatch(JSON.stringify(prompt), new RegExp(SECRET));

      const injections = await call("memory_injections", { limit: 1000 });
      assert.doesNotMatch(callText(injections), new RegExp(`${ALICE_QUESTION}|${aliceSession}|${factId}`));
      const named = await call("memory_injections", { session: aliceSession });
      assert.deepEqual((named.structuredContent as any).injections, [], "naming her session lists nothing");

      const doctor = await call("memory_doctor", { deep: true });
      assert.doesNotMatch(callText(doctor), new RegExp(`${factId}|${coldId}`));

      const wrote = await call("memory_note", { text: "app2 was here", scope: "partner:alice" });
      assert.equal(wrote.isError, true);
      const aliceList = await adminTool("memory_list", { layer: "L3", limit: 200 });
      assert.doesNotMatch(JSON.stringify(aliceList.body), /app2 was here/, "nothing was written into alice's scope");
    } finally {
      await client.close();
    }
    // The control: alice's key sees her injections and her question.
    const aliceClient = await mcp(keys.alice!);
    try {
      const hers = await aliceClient.callTool({ name: "memory_injections", arguments: { limit: 1000 } });
      assert.match(callText(hers), new RegExp(ALICE_QUESTION));
    } finally {
      await aliceClient.close();
    }
  });

  test("the model's own tool calls act with the turn's partner: in app2's /v1 turn, memory_open and memory_forget of alice's ids find nothing", async () => {
    for (const [tool, id] of [
      ["memory_open", factId],
      ["memory_forget", factId],
      ["memory_open", coldId],
      ["memory_forget", coldId],
    ] as const) {
      const answer = await sdk(keys.app2!).chat.completions.create({ model: "homed", messages: [{ role: "user", content: `TOOL ${tool} ${JSON.stringify({ id })}` }] });
      const text = answer.choices[0]!.message.content ?? "";
      assert.match(text, /^tool said: .*"not_found".*No memory with id/s, `${tool} ${id}: ${text}`);
      assert.doesNotMatch(text, new RegExp(`${SECRET}|${COLD_SECRET}`));
    }
    await aliceMemoryIntact();
    // The control: in alice's turn the same call opens it.
    const hers = await sdk(keys.alice!).chat.completions.create({ model: "homed", messages: [{ role: "user", content: `TOOL memory_open ${JSON.stringify({ id: factId })}` }] });
    assert.match(hers.choices[0]!.message.content ?? "", new RegExp(SECRET));
  });

  test("A2A: the model in app2's task cannot open or forget alice's memory either", async () => {
    const send = async (key: string, text: string) => {
      const response = await fetch(`${daemon.url}/a2a`, {
        method: "POST",
        headers: { "content-type": "application/json", authorization: `Bearer ${key}` },
        body: JSON.stringify({
          jsonrpc: "2.0",
          id: 1,
          method: "message/send",
          params: { message: { kind: "message", messageId: crypto.randomUUID(), role: "user", parts: [{ kind: "text", text }] } },
        }),
      });
      return JSON.stringify(await response.json());
    };
    for (const tool of ["memory_open", "memory_forget"]) {
      const answer = await send(keys.app2!, `TOOL ${tool} ${JSON.stringify({ id: factId })}`);
      assert.match(answer, /tool said: .*not_found/, answer);
      assert.doesNotMatch(answer, new RegExp(SECRET));
    }
    await aliceMemoryIntact();
    assert.match(await send(keys.alice!, `TOOL memory_open ${JSON.stringify({ id: factId })}`), new RegExp(SECRET), "the control: alice's agent opens it");
  });
});

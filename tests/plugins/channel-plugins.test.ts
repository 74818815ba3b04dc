/**
 * Channel plugins (issue 29 item 3): a plugin written only against the SDK (fixtures/
 * loopback-channel.ts, a real child process) is a channel — its messages are turns of its own
 * sessions, answered whole and streamed; the partner is the host's mapping of the peer, never
 * the plugin's to name; what homed says first for one of its sessions goes out through it. The
 * model is the scripted provider over loopback HTTP.
 */
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { ChannelPlugins } from "../../src/channels/index.ts";
import { Outbound } from "../../src/kernel/index.ts";
import { listScenes, OWNER, runMemoryTool } from "../../src/memory/index.ts";
import { createPluginHost, PluginSpecSchema, type PluginHost } from "../../src/plugins/index.ts";
import type { ReceivedRequest } from "../support/scripted-provider.ts";
import { tempDir, type TempDir } from "../support/temp-dir.ts";
import { kernelHarness, type Harness } from "../kernel/support.ts";
import { FIXTURES, toolOrEcho, userText } from "./support.ts";

const until = async (check: () => boolean, what: string, withinMs = 10_000) => {
  const end = Date.now() + withinMs;
  while (!check()) {
    if (Date.now() > end) throw new Error(`Timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
};

describe("a channel plugin written only against the SDK", () => {
  let dir: TempDir;
  let h: Harness;
  let host: PluginHost;
  let outbound: Outbound;
  let channels: ChannelPlugins;
  let network: string;
  const logs: string[] = [];
  const send = async (message: object) => {
    const response = await fetch(`${network}/send`, { method: "POST", body: JSON.stringify(message) });
    return { status: response.status, body: (await response.json()) as any };
  };

  before(async () => {
    dir = tempDir("homed-channel-");
    h = await kernelHarness(toolOrEcho, {}, { overHttp: true });
    const portFile = join(dir.path, "port");
    host = createPluginHost(
      [
        PluginSpecSchema.parse({
          name: "loopback",
          command: process.execPath,
          args: [join(FIXTURES, "loopback-channel.ts")],
          env: { HOMED_PLUGIN_CONFIG: JSON.stringify({ portFile }) },
          partners: { "111": "alice" },
        }),
        // The same channel, named as the console's sessions are: refused the role.
        PluginSpecSchema.parse({
          name: "console",
          command: process.execPath,
          args: [join(FIXTURES, "loopback-channel.ts")],
          env: { HOMED_PLUGIN_CONFIG: JSON.stringify({ portFile: join(dir.path, "console-port") }) },
        }),
      ],
      { report: () => {} },
    );
    outbound = new Outbound();
    channels = new ChannelPlugins({ kernel: h.kernel, host, outbound, log: { info: (l) => logs.push(l), warn: (l) => logs.push(l) } });
    await host.start();
    await until(() => existsSync(portFile) && readFileSync(portFile, "utf8").length > 0, "the channel to open");
    network = `http://127.0.0.1:${readFileSync(portFile, "utf8")}`;
  });
  after(async () => {
    channels?.stop();
    await host?.stopAll();
    await h?.close();
    dir?.remove();
  });

  test("a message round-trips: a turn of the mapped partner's session on the plugin's channel, answered whole; the next one sees it", async () => {
    const first = await send({ peer: "111", text: "my locker is 42" });
    assert.equal(first.status, 200, JSON.stringify(first.body));
    assert.equal(first.body.answer.text, "echo: my locker is 42");
    assert.equal(first.body.answer.stopReason, "no_tool_calls");
    const session = await h.kernel.sessions.get(first.body.answer.sessionId);
    assert.deepEqual([session?.channel, session?.partner], ["loopback", "alice"]);
    const second = await send({ peer: "111", text: "which locker?", sender: { id: "111", name: "Alice" }, replyTo: { text: "my locker is 42" } });
    assert.equal(second.body.answer.sessionId, session!.id, "one session per peer");
    const request = h.provider.requests.at(-1)!;
    assert.equal(userText(request as ReceivedRequest), '[in reply to: "my locker is 42"]\nwhich locker?');
    assert.ok(
      request.body.messages.some((m: any) => m.content === "my locker is 42"),
      "the model sees the first message",
    );
  });

  test("an unmapped peer is its own partner <channel>_<peer>; a streamed answer comes as deltas too", async () => {
    const { body } = await send({ peer: "222", text: "stream this answer please", stream: true });
    assert.equal(body.answer.text, "echo: stream this answer please");
    assert.ok(body.deltas.length > 1, `deltas: ${JSON.stringify(body.deltas)}`);
    assert.equal(body.deltas.join(""), body.answer.text);
    const session = await h.kernel.sessions.get(body.answer.sessionId);
    assert.deepEqual([session?.channel, session?.partner], ["loopback", "loopback_222"]);
  });

  test("in a group the model is told who spoke, and the group is a declared scene; a report reaches the daemon log under the channel's name", async () => {
    const { body } = await send({ peer: "g-9", chat: "group", sender: { id: "333", name: "Bob" }, text: "hello all" });
    assert.equal(body.answer.text, "echo: Bob: hello all");
    const session = await h.kernel.sessions.get(body.answer.sessionId);
    assert.deepEqual([session?.channel, session?.partner], ["loopback", "loopback_g-9"]);
    assert.ok((await listScenes(h.store.client)).some((s) => s.key === "chan:loopback/peer:g-9"));
    await fetch(`${network}/report`, { method: "POST", body: JSON.stringify({ text: "sending answer 7 failed: 403 Forbidden" }) });
    await until(() => logs.includes("loopback: sending answer 7 failed: 403 Forbidden"), "the report in the log");
  });

  test("a plugin cannot open another channel's partner by naming it: its turns act as its own partner and cannot read their memory", async () => {
    const secret = await runMemoryTool("memory_note", { text: "the safe opens with tulip-octagon", scope: "partner:qq_42" }, { client: h.store.client, access: OWNER });
    const alices = await runMemoryTool("memory_note", { text: "alice's bike lock is marigold-rhombus", scope: "partner:alice" }, { client: h.store.client, access: OWNER });
    // Naming the other channel's partner as the peer: the partner is loopback_qq_42, not qq_42.
    const named = await send({ peer: "qq_42", text: `TOOL memory_open {"id":"${secret.id}"}` });
    assert.match(named.body.answer.text, /tool said: .*"not_found"/);
    assert.doesNotMatch(named.body.answer.text, /tulip-octagon/);
    const session = await h.kernel.sessions.get(named.body.answer.sessionId);
    assert.deepEqual([session?.channel, session?.partner], ["loopback", "loopback_qq_42"]);
    // A mapped partner's name as the peer is just another peer.
    const asAlice = await send({ peer: "alice", text: `TOOL memory_open {"id":"${alices.id}"}` });
    assert.match(asAlice.body.answer.text, /"not_found"/);
    // Naming a partner or a session outright, or nesting a peer under another partner, is refused.
    for (const message of [
      { peer: "222", partner: "qq_42", text: "hi" },
      { peer: "222", session: "x", text: "hi" },
      { peer: "111/x", text: "hi" },
    ]) {
      const refused = await send(message);
      assert.equal(refused.status, 400, JSON.stringify(message));
      assert.equal(refused.body.code, -32602);
    }
    assert.ok((await h.kernel.sessions.list()).every((s) => s.partner !== "qq_42" && !s.partner.includes("/")));
    // The control: the peer the host maps to alice opens alice's memory.
    const control = await send({ peer: "111", text: `TOOL memory_open {"id":"${alices.id}"}` });
    assert.match(control.body.answer.text, /marigold-rhombus/);
  });

  test("a proactive message for one of its sessions is delivered to the peer; other channels' sessions are not its", async () => {
    const alice = await h.kernel.sessions.open("loopback", "alice");
    const unmapped = await h.kernel.sessions.open("loopback", "loopback_222");
    const elsewhere = await h.kernel.sessions.open("console", "alice");
    const source = { kind: "reminder" as const, plugin: "calendar" };
    assert.deepEqual(await outbound.deliver({ sessionId: alice.id, text: "time to stretch", source }), ["loopback"]);
    assert.deepEqual(await outbound.deliver({ sessionId: unmapped.id, text: "feed: 3 new items", source: { kind: "feed", plugin: "rss" } }), ["loopback"]);
    assert.deepEqual(await outbound.deliver({ sessionId: elsewhere.id, text: "not for this channel", source }), []);
    const unreachable = await h.kernel.sessions.open("loopback", "loopback_unreachable");
    assert.deepEqual(await outbound.deliver({ sessionId: unreachable.id, text: "nobody there", source }), [], "a delivery the plugin could not make is not counted");
    const delivered = (await (await fetch(network)).json()) as any[];
    assert.deepEqual(
      delivered.map((d) => [d.peer, d.text, d.source.kind, d.sessionId]),
      [
        ["111", "time to stretch", "reminder", alice.id],
        ["222", "feed: 3 new items", "feed", unmapped.id],
      ],
    );
  });

  test("a plugin named as one of homed's own channels (the console's) is refused the role: never opened, no sink", async () => {
    await until(() => logs.some((l) => l.startsWith('console: the plugin declares the channel role, but "console" is a channel homed serves itself')), "the refusal");
    assert.equal(host.status("console").state, "running", "it still runs as a plugin");
    assert.ok(!existsSync(join(dir.path, "console-port")), "never opened");
    const consoleSession = await h.kernel.sessions.open("console", "someone");
    assert.deepEqual(await outbound.deliver({ sessionId: consoleSession.id, text: "for the console", source: { kind: "plugin", plugin: "x" } }), []);
  });
});

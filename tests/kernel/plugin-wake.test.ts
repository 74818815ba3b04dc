/**
 * Urgent pushed events wake a turn (issue 18 item 1): a real plugin process pushes events for the
 * session whose tool call armed them; urgent ones make the kernel run a turn of that session at
 * once (the events in its system message), several close together wake one turn, and ordinary
 * ones wait for the next turn the user starts; the host keeps them for the console.
 */
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { join } from "node:path";
import { kernelWake, pluginEventInbox, pluginTools } from "../../src/kernel/index.ts";
import { createPluginHost, PluginSpecSchema, type PluginHost, type PushedEvent } from "../../src/plugins/index.ts";
import { pluginsRoutes } from "../../src/server/plugins-routes.ts";
import { FIXTURES } from "../plugins/support.ts";
import { kernelHarness, type Harness } from "./support.ts";

const settle = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
async function until(check: () => boolean, what: string, withinMs = 5000): Promise<void> {
  const end = Date.now() + withinMs;
  while (!check()) {
    if (Date.now() > end) throw new Error(`Timed out waiting for ${what}`);
    await settle(10);
  }
}

describe("urgent plugin events wake a turn", () => {
  let host: PluginHost;
  let h: Harness;
  let stopInbox: () => void;
  before(async () => {
    host = createPluginHost([PluginSpecSchema.parse({ name: "alarm", command: process.execPath, args: [join(FIXTURES, "alarm-plugin.ts")] })], { report: () => {} });
    await host.start();
    h = await kernelHarness([
      { toolCalls: [{ id: "c1", name: "alarm", arguments: JSON.stringify({ text: "quiet", urgent: false }) }] },
      { content: "armed quietly" },
      { toolCalls: [{ id: "c2", name: "alarm", arguments: JSON.stringify({ text: "fire", count: 2, delayMs: 0 }) }] },
      { content: "armed" },
      { content: "woken answer" },
    ]);
    h.kernel.tools.addSource(pluginTools(host));
    const log = { info: (l: string) => h.logs.push(l), warn: (l: string) => h.logs.push(l) };
    // "Close together" made certain: the woken turn starts once both urgent events are in. The
    // plugin pushes them 0 ms apart, but on a loaded machine it can be held off the CPU between
    // the two for longer than the woken turn takes to read its events (pushed 400 ms apart,
    // the turn saw only the first).
    let urgent = 0;
    let bothIn!: () => void;
    const bothUrgentIn = new Promise<void>((resolve) => (bothIn = resolve));
    host.onEvent((_plugin, event) => (event as { urgent?: boolean }).urgent && ++urgent === 2 && bothIn());
    const wake = kernelWake(h.kernel, log);
    const inbox = pluginEventInbox(host, log, async (session, plugin) => (await bothUrgentIn, wake(session, plugin)));
    stopInbox = inbox.stop;
    h.kernel.addParticipant(inbox.participant);
  });
  after(async () => {
    stopInbox?.();
    await host?.stopAll();
    await h?.close();
  });

  test("an ordinary event waits for the next turn; two urgent ones wake one turn that sees both", async () => {
    const session = await h.kernel.sessions.open("chat", "ann");
    assert.equal((await h.kernel.turn({ session, input: "remind me quietly" })).text, "armed quietly");
    await until(() => h.logs.some((l) => /pushed alarm .* for session .*: waiting for its next turn/.test(l)), "the quiet event");
    await settle(300);
    assert.equal(h.provider.requests.length, 2, "an ordinary event wakes nothing");

    assert.equal((await h.kernel.turn({ session, input: "wake me" })).text, "armed");
    assert.ok((h.provider.requests[2]!.body.messages[0].content as string).includes('"text":"quiet 1"'), "the ordinary event went with the user's next turn");
    await until(() => h.provider.requests.length === 5, "the woken turn's model call");
    const woken = h.provider.requests[4]!.body.messages;
    const system = woken[0].content as string;
    for (const text of ["fire 1", "fire 2"]) assert.ok(system.includes(`"text":"${text}"`), `${text} in the woken turn`);
    assert.match(woken.at(-1).content, /^\[homed: woken by an urgent event from plugin alarm; the events are in the system message\]$/);
    assert.ok(!system.includes("quiet 1"), "delivered once");
    await until(() => h.logs.some((l) => l === `session ${session.id}: turn woken by plugin alarm ended (no_tool_calls)`), "the woken turn's end");
    await settle(300);
    assert.equal(h.provider.requests.length, 5, "the second urgent event did not wake a second turn");
  });

  test("the host keeps what was pushed, newest first, and /api/plugins/events shows it", async () => {
    const expected = ["fire 2", "fire 1", "quiet 1"].map((text) => ({ plugin: "alarm", type: "alarm", text, urgent: text !== "quiet 1" }));
    const shape = (events: PushedEvent[]) => events.map((e) => ({ plugin: e.plugin, type: (e.event as any).type, text: (e.event as any).text, urgent: (e.event as any).urgent }));
    assert.deepEqual(shape(host.recentEvents()), expected);
    const response = await pluginsRoutes(host).request("/api/plugins/events");
    const body = (await response.json()) as { events: PushedEvent[] };
    assert.deepEqual(shape(body.events), expected);
    assert.ok(body.events.every((e) => typeof e.at === "number" && typeof (e.event as any).session === "string"));
  });
});

/**
 * Proactive turns (issue 29 items 1–2) at the kernel: a real plugin process pushes urgent events;
 * the woken turn's answer goes out through Outbound with its session, source and stored event id;
 * an event naming no session goes to the home session; a muted source wakes nothing (its event
 * waits for the next turn) and a muted session is neither woken nor told; a flood of urgent events
 * wakes at most one turn per WAKE_INTERVAL_MS.
 */
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { join } from "node:path";
import { kernelWake, Outbound, pluginEventInbox, pluginTools, ProactiveMutes, WAKE_INTERVAL_MS, type OutboundMessage } from "../../src/kernel/index.ts";
import { createPluginHost, PluginSpecSchema, type PluginHost } from "../../src/plugins/index.ts";
import { FIXTURES } from "../plugins/support.ts";
import { kernelHarness, type Harness } from "./support.ts";

const settle = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
async function until(check: () => boolean, what: string, withinMs = 10_000): Promise<void> {
  const end = Date.now() + withinMs;
  while (!check()) {
    if (Date.now() > end) throw new Error(`Timed out waiting for ${what}`);
    await settle(10);
  }
}

const lastUser = (body: any): string => [...body.messages].reverse().find((m: any) => m.role === "user")?.content ?? "";
const WOKEN = /^\[homed: woken by an urgent event from plugin alarm/;

describe("proactive turns: delivery, home session, mutes, rate limit", () => {
  let host: PluginHost;
  let h: Harness;
  let mutes: ProactiveMutes;
  let home: string;
  const delivered: OutboundMessage[] = [];
  let stopInbox: () => void;
  const wokenRequests = () => h.provider.requests.filter((r) => WOKEN.test(lastUser(r.body)));

  before(async () => {
    host = createPluginHost([PluginSpecSchema.parse({ name: "alarm", command: process.execPath, args: [join(FIXTURES, "alarm-plugin.ts")] })], { report: () => {} });
    await host.start();
    // "ALARM {json}": the model calls the alarm tool with it; a woken turn answers with what woke it.
    h = await kernelHarness((request) => {
      const last = request.body.messages.at(-1);
      if (last.role === "tool") return { content: "armed" };
      const said = lastUser(request.body);
      const asked = /ALARM (\{.*\})/.exec(said);
      if (asked) return { toolCalls: [{ id: `call_${Math.random().toString(36).slice(2)}`, name: "alarm", arguments: asked[1]! }] };
      if (WOKEN.test(said)) return { content: `woken answer for: ${/"text":"([^"]+)"/.exec(request.body.messages[0].content)?.[1]}` };
      return { content: "ok" };
    });
    h.kernel.tools.addSource(pluginTools(host));
    mutes = await ProactiveMutes.open(h.store.client);
    home = (await h.kernel.sessions.open("console", "home")).id;
    const outbound = new Outbound();
    outbound.register({ name: "test", deliver: async (m) => (delivered.push(m), true) });
    const log = { info: (l: string) => h.logs.push(l), warn: (l: string) => h.logs.push(l) };
    const inbox = pluginEventInbox(host, log, kernelWake(h.kernel, log, outbound, mutes), { homeSession: home, mutes });
    stopInbox = inbox.stop;
    h.kernel.addParticipant(inbox.participant);
  });
  after(async () => {
    stopInbox?.();
    await host?.stopAll();
    await h?.close();
  });

  test("the woken turn's answer is delivered with its session, its source and the stored event's id", async () => {
    const session = await h.kernel.sessions.open("console", "ann");
    await h.kernel.turn({ session, input: 'ALARM {"text":"stretch"}' });
    await until(() => delivered.some((m) => m.sessionId === session.id), "the delivery");
    const message = delivered.find((m) => m.sessionId === session.id)!;
    assert.equal(message.text, "woken answer for: stretch 1");
    assert.deepEqual(message.source, { kind: "plugin", plugin: "alarm" });
    const stored = await h.kernel.sessions.answerOf(message.eventId!);
    assert.deepEqual([stored?.session.id, stored?.text], [session.id, "woken answer for: stretch 1"], "eventId names the stored answer");
  });

  test("an event naming no session wakes the home session", async () => {
    const session = await h.kernel.sessions.open("console", "bea");
    await h.kernel.turn({ session, input: 'ALARM {"text":"homeless","unnamed":true}' });
    await until(() => delivered.some((m) => m.sessionId === home), "the home session's delivery");
    assert.equal(delivered.find((m) => m.sessionId === home)!.text, "woken answer for: homeless 1");
    assert.ok(!delivered.some((m) => m.sessionId === session.id));
  });

  test("a muted source wakes no turn; its event waits for the next turn, and unmuted it wakes again", async () => {
    const session = await h.kernel.sessions.open("console", "cy");
    await mutes.set({ kind: "source", name: "alarm" }, true);
    const before = wokenRequests().length;
    await h.kernel.turn({ session, input: 'ALARM {"text":"hushed"}' });
    await until(() => h.logs.some((l) => l.includes(`for session ${session.id}: plugin alarm is muted`)), "the muted event");
    await settle(500);
    assert.equal(wokenRequests().length, before, "nothing woken");
    await h.kernel.turn({ session, input: "anything new?" });
    assert.match(JSON.stringify(h.provider.requests.at(-1)!.body.messages[0].content), /hushed 1/, "the event went with the next turn");
    await mutes.set({ kind: "source", name: "alarm" }, false);
    assert.deepEqual((await ProactiveMutes.open(h.store.client)).list().sources, [], "the unmute is stored");
    await h.kernel.turn({ session, input: 'ALARM {"text":"loud"}' });
    await until(() => delivered.some((m) => m.sessionId === session.id && m.text.includes("loud 1")), "the unmuted wake");
  });

  test("a muted session is neither woken nor delivered to; the mute is stored", async () => {
    const session = await h.kernel.sessions.open("console", "dee");
    await mutes.set({ kind: "session", name: session.id }, true);
    assert.deepEqual((await ProactiveMutes.open(h.store.client)).list().sessions, [session.id]);
    const before = wokenRequests().length;
    await h.kernel.turn({ session, input: 'ALARM {"text":"quiet please"}' });
    await until(() => h.logs.some((l) => l.includes(`for session ${session.id}: the session is muted`)), "the muted session's event");
    await settle(500);
    assert.equal(wokenRequests().length, before);
    assert.ok(!delivered.some((m) => m.sessionId === session.id));
  });

  test(`a flood of urgent events wakes at most one turn every ${WAKE_INTERVAL_MS} ms`, async () => {
    const session = await h.kernel.sessions.open("console", "flood");
    const before = wokenRequests().length;
    const started = Date.now();
    await h.kernel.turn({ session, input: 'ALARM {"text":"flood","count":40,"delayMs":15}' });
    await until(() => delivered.filter((m) => m.sessionId === session.id).length >= 1, "the first woken turn");
    await settle(WAKE_INTERVAL_MS + 1500);
    const woken = wokenRequests().length - before;
    const allowed = 1 + Math.floor((Date.now() - started) / WAKE_INTERVAL_MS);
    assert.ok(woken >= 1 && woken <= Math.min(2, allowed), `${woken} woken turns for 40 urgent events in ${Date.now() - started} ms`);
    // Every event reached a turn: none was dropped by the limit.
    const seen = h.provider.requests
      .slice(-woken)
      .map((r) => r.body.messages[0].content as string)
      .join("\n");
    for (const n of [1, 20, 40]) assert.ok(seen.includes(`"text":"flood ${n}"`), `flood ${n} reached a woken turn`);
  });
});

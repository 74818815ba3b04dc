/**
 * Plugins as stage participants (issue 18 item 2): a real plugin process, written with the SDK's
 * typed hooks, takes part in every stage of a real kernel turn — blocklist, rate limit and
 * short-circuit at on_input, injection at pre_action, filter and redirect at post_action, audit,
 * deny and rewrite at before_toolcall, redaction at after_toolcall, format adaptation at
 * before_output and statistics at after_output — and plugins' own deadlines and failure
 * policies hold.
 */
import { after, afterEach, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { join } from "node:path";
import { loadL1Events } from "../../src/context/index.ts";
import { pluginParticipant, type TurnEvent } from "../../src/kernel/index.ts";
import { createPluginHost, PluginSpecSchema, type PluginHost } from "../../src/plugins/index.ts";
import type { Script } from "../support/scripted-provider.ts";
import { FIXTURES } from "../plugins/support.ts";
import { kernelHarness, type Harness } from "./support.ts";

const hosts = new Map<string, PluginHost>();
before(async () => {
  for (const mode of ["full", "slow", "audit"]) {
    const host = createPluginHost([PluginSpecSchema.parse({ name: `stage-${mode}`, command: process.execPath, args: [join(FIXTURES, "stage-plugin.ts"), mode] })], { report: () => {} });
    hosts.set(mode, host);
  }
  await Promise.all([...hosts.values()].map((host) => host.start()));
});
after(async () => {
  await Promise.all([...hosts.values()].map((host) => host.stopAll()));
});

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

/** A kernel on a real store with the plugin of `mode` as its stage participant. */
async function kernelWith(mode: string, script: Script): Promise<{ h: Harness; logs: string[] }> {
  h = await kernelHarness(script);
  const logs: string[] = [];
  h.kernel.addParticipant(pluginParticipant(hosts.get(mode)!, (line) => logs.push(line)));
  return { h, logs };
}

/** The session's stored messages, oldest first, as [role, content]. */
const storedOf = async (h: Harness, sessionId: string) => (await loadL1Events(h.store.client, sessionId)).flatMap((e) => e.messages.map((m: any) => [m.role, m.content]));
const systemOf = (request: { body: any }) => request.body.messages[0].content as string;
const toolResults = (request: { body: any }) => request.body.messages.filter((m: any) => m.role === "tool").map((m: any) => m.content as string);

describe("a plugin in every stage of a real turn", () => {
  test("on_input: a blocklisted input is blocked, /ping is answered without the model, the 4th input a minute is rate limited", async () => {
    const { h } = await kernelWith("full", [{ content: "model answer" }, { content: "model answer" }]);
    const session = await h.kernel.sessions.open("chat", "ann");
    const blocked = await h.kernel.turn({ session, input: "say something forbidden" });
    assert.deepEqual([blocked.stopReason, blocked.reason], ["blocked", "stage-full: blocklisted word"]);
    const ping = await h.kernel.turn({ session, input: "/ping" });
    assert.deepEqual([ping.stopReason, ping.text], ["short_circuit", "pong from the stage plugin"]);
    assert.equal(h.provider.requests.length, 0, "a short-circuited turn never calls the model");
    assert.deepEqual(await storedOf(h, session.id), [
      ["user", "/ping"],
      ["assistant", "pong from the stage plugin"],
    ]);
    assert.equal((await h.kernel.turn({ session, input: "hello" })).text, "model answer");
    assert.equal((await h.kernel.turn({ session, input: "hello again" })).text, "model answer");
    const limited = await h.kernel.turn({ session, input: "and again" });
    assert.deepEqual([limited.stopReason, limited.reason], ["blocked", "stage-full: rate limited: 3 inputs a minute"]);
  });

  test("pre_action injects into the model's request and names the plugin in the turn's recall event", async () => {
    const { h } = await kernelWith("full", [{ content: "ok" }]);
    const session = await h.kernel.sessions.open("chat", "bob");
    const events: TurnEvent[] = [];
    await h.kernel.turn({ session, input: "what should I wear?", onEvent: (e) => events.push(e) });
    assert.match(systemOf(h.provider.requests[0]!), /From plugin stage-full:\nWeather where bob lives: sunny, 21 °C/);
    const recall = events.find((e) => e.type === "recall" && e.participant === "plugins");
    assert.deepEqual(recall && "report" in recall && recall.report, { plugins: [{ plugin: "stage-full", chars: 37, source: "weather" }] });
  });

  test("post_action filters and redirects, before_toolcall audits, denies and rewrites, after_toolcall redacts, after_output reports", async () => {
    const { h, logs } = await kernelWith("full", [
      {
        content: "working on it\n[internal] chain of thought",
        toolCalls: [
          { id: "c1", name: "echo", arguments: JSON.stringify({ text: "card 12345678" }) },
          { id: "c2", name: "rm", arguments: JSON.stringify({ path: "/" }) },
          { id: "c3", name: "echo", arguments: JSON.stringify({ text: "danger" }) },
        ],
      },
      { content: "done" },
    ]);
    const session = await h.kernel.sessions.open("chat", "cy");
    const events: TurnEvent[] = [];
    const result = await h.kernel.turn({ session, input: "go", onEvent: (e) => events.push(e) });
    assert.equal(result.text, "done");
    const second = h.provider.requests[1]!.body.messages;
    const assistant = second.find((m: any) => m.role === "assistant");
    assert.equal(assistant.content, "working on it", "the [internal] line is filtered before it is stored");
    assert.deepEqual(
      assistant.tool_calls.map((c: any) => [c.function.name, JSON.parse(c.function.arguments)]),
      [
        ["echo", { text: "card 12345678 (audited)" }],
        ["echo", { text: "redirected from rm (audited)" }],
        ["echo", { text: "danger" }],
      ],
    );
    const [redacted, redirected, denied] = toolResults(h.provider.requests[1]!);
    assert.deepEqual(JSON.parse(redacted!), { echoed: { text: "card [redacted] (audited)" } });
    assert.deepEqual(JSON.parse(redirected!), { echoed: { text: "redirected from rm (audited)" } });
    assert.deepEqual(JSON.parse(denied!), { error: "denied", message: "stage-full: audit: dangerous arguments" });
    const report = events.find((e) => e.type === "report");
    assert.deepEqual(report && "report" in report && report.report, { "stage-full": { toolCalls: 3, denied: 1, tools: ["echo", "echo", "echo"], stopReason: "no_tool_calls" } });
    assert.ok(logs.some((l) => l.startsWith(`session ${session.id}: plugin stage-full reports on turn`)));
  });

  test("before_output adapts the format to the channel (markdown stripped for sms only)", async () => {
    const { h } = await kernelWith("full", [{ content: "**bold** and `code`" }, { content: "**bold** and `code`" }]);
    const sms = await h.kernel.turn({ session: await h.kernel.sessions.open("sms", "dee"), input: "hi" });
    assert.equal(sms.text, "bold and code");
    const stored = await storedOf(h, (await h.kernel.sessions.open("sms", "dee")).id);
    assert.deepEqual(stored.at(-1), ["assistant", "bold and code"], "the adapted text is what is stored");
    const web = await h.kernel.turn({ session: await h.kernel.sessions.open("web", "dee"), input: "hi" });
    assert.equal(web.text, "**bold** and `code`");
  });

  test("a plugin past its own deadline is skipped and logged; the turn goes on without waiting for the default", async () => {
    const { h, logs } = await kernelWith("slow", [{ content: "answered anyway" }]);
    const session = await h.kernel.sessions.open("chat", "eve");
    const started = performance.now();
    const result = await h.kernel.turn({ session, input: "hi" });
    assert.equal(result.text, "answered anyway");
    assert.ok(performance.now() - started < 1500, "its 200 ms deadline, not the host's 2 s");
    assert.match(logs.join("\n"), new RegExp(`^session ${session.id}: plugin stage-slow skipped at on_input: .*no answer within 200 ms`, "m"));
  });

  test("a plugin whose failure policy is fail ends the turn when its hook fails; the tool is never run", async () => {
    const { h } = await kernelWith("audit", [{ toolCalls: [{ id: "c1", name: "counted", arguments: "{}" }] }, { content: "never" }]);
    let ran = 0;
    h.kernel.tools.register({ name: "counted", description: "counts", parameters: { type: "object" }, run: async () => String(++ran) });
    const session = await h.kernel.sessions.open("chat", "fay");
    await assert.rejects(h.kernel.turn({ session, input: "go" }), /plugin stage-audit failed at before_toolcall and its failure policy is fail: .*audit log unavailable/);
    assert.equal(ran, 0);
  });
});

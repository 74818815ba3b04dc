import { describe, test, afterEach } from "node:test";
import assert from "node:assert/strict";
import { loadL1Events } from "../../src/context/index.ts";
import { pluginParticipant, pluginTools } from "../../src/kernel/index.ts";
import { join } from "node:path";
import { createPluginHost, PluginSpecSchema, type PluginHost } from "../../src/plugins/index.ts";
import { FIXTURES } from "../plugins/support.ts";
import { call, kernelHarness, type Harness } from "./support.ts";
import { scriptSpec } from "../support/process.ts";

let h: Harness | undefined;
let realHost: PluginHost | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
  await realHost?.stopAll();
  realHost = undefined;
});

/** A real host running the misbehave fixture (an MCP server offering `ping`) once per name. */
async function fixtureHost(plugins: Record<string, string>): Promise<PluginHost> {
  const specs = Object.entries(plugins).map(([name, mode]) => PluginSpecSchema.parse({ name, ...scriptSpec(join(FIXTURES, "misbehave.ts"), mode) }));
  realHost = createPluginHost(specs, { report: () => {} });
  await realHost.start();
  return realHost;
}

/** A host double answering hooks from a table, with one tool. */
function hostDouble(answers: Record<string, (payload: any) => any>, calls: unknown[] = []): PluginHost {
  return {
    listTools: () => [{ plugin: "demo", tool: { name: "demo_echo", description: "echo", inputSchema: { type: "object" } } }],
    callTool: async (_plugin: string, _tool: string, args: Record<string, unknown>) => {
      calls.push(args);
      return { content: [{ type: "text", text: `echo ${JSON.stringify(args)}` }] };
    },
    runHook: async (stage: string, payload: unknown) => {
      const answer = answers[stage]?.(payload);
      if (answer?.deny) return { denied: true, by: "demo", reason: answer.deny, skipped: [] };
      return { denied: false, payload: answer?.replace ?? payload, skipped: [] };
    },
  } as unknown as PluginHost;
}

describe("plugins in a turn", () => {
  test("a plugin's tools are callable by the model", async () => {
    h = await kernelHarness([{ toolCalls: [{ id: "c1", name: "demo_echo", arguments: '{"x":1}' }] }, { content: "ok" }]);
    const calls: unknown[] = [];
    h.kernel.tools.addSource(pluginTools(hostDouble({}, calls)));
    const session = await h.kernel.sessions.open("t", "p");
    await h.kernel.turn({ session, input: "go" });
    assert.deepEqual(calls, [{ x: 1 }]);
    assert.ok(h.provider.requests[0]!.body.tools.some((t: any) => t.function.name === "demo_echo"));
  });

  test("a tool name two plugins offer is namespaced for both, with one warning naming them", async () => {
    const host = await fixtureHost({ alpha: "ok", beta: "ok" });
    const pid = (name: string) => host.list().find((p) => p.name === name)!.pid;
    h = await kernelHarness([
      {
        toolCalls: [
          { id: "c1", name: "alpha__ping", arguments: "{}" },
          { id: "c2", name: "beta__ping", arguments: "{}" },
        ],
      },
      { content: "ok" },
    ]);
    const warnings: string[] = [];
    h.kernel.tools.addSource(pluginTools(host, (line) => warnings.push(line)));
    const session = await h.kernel.sessions.open("t", "p");
    await h.kernel.turn({ session, input: "go" });
    const offered = h.provider.requests[0]!.body.tools.map((t: any) => t.function.name);
    assert.deepEqual(offered.filter((n: string) => n.endsWith("ping")).sort(), ["alpha__ping", "beta__ping"]);
    const results = h.provider.requests[1]!.body.messages.filter((m: any) => m.role === "tool").map((m: any) => m.content);
    assert.deepEqual(results, [`pong ${pid("alpha")}`, `pong ${pid("beta")}`]);
    assert.deepEqual(warnings, ["plugins: tool ping is offered by alpha and beta; the model sees alpha__ping and beta__ping"]);
  });

  test("a plugin tool named like a built-in one is namespaced, not hidden, with a warning", async () => {
    const host = await fixtureHost({ alpha: "ok" });
    h = await kernelHarness([
      {
        toolCalls: [
          { id: "c1", name: "ping", arguments: "{}" },
          { id: "c2", name: "alpha__ping", arguments: "{}" },
        ],
      },
      { content: "ok" },
    ]);
    h.kernel.tools.register({ name: "ping", description: "built-in", parameters: { type: "object" }, run: async () => "built-in pong" });
    const warnings: string[] = [];
    h.kernel.tools.addSource(
      pluginTools(
        host,
        (line) => warnings.push(line),
        (name) => h!.kernel.tools.has(name),
      ),
    );
    const session = await h.kernel.sessions.open("t", "p");
    await h.kernel.turn({ session, input: "go" });
    const results = h.provider.requests[1]!.body.messages.filter((m: any) => m.role === "tool").map((m: any) => m.content);
    assert.deepEqual(results, ["built-in pong", `pong ${host.list().find((p) => p.name === "alpha")!.pid}`]);
    assert.deepEqual(warnings, ["plugins: tool ping is offered by homed (built-in) and alpha; the model sees alpha__ping"]);
  });

  test("a result the plugin marks isError reaches the model and the trace as a failure; a resource link as its name and URI", async () => {
    const host = await fixtureHost({ broken: "failing", library: "linking" });
    h = await kernelHarness([
      {
        toolCalls: [
          { id: "c1", name: "broken__ping", arguments: "{}" },
          { id: "c2", name: "library__ping", arguments: "{}" },
        ],
      },
      { content: "ok" },
    ]);
    h.kernel.tools.addSource(pluginTools(host));
    const session = await h.kernel.sessions.open("t", "p");
    const events: any[] = [];
    await h.kernel.turn({ session, input: "go", onEvent: (e: any) => events.push(e) });
    const results = h.provider.requests[1]!.body.messages.filter((m: any) => m.role === "tool").map((m: any) => m.content);
    assert.deepEqual(JSON.parse(results[0]), { error: "tool_failed", message: "disk on fire" });
    assert.equal(results[1], "see\n[resource report.pdf: file:///srv/report.pdf (application/pdf)]");
    const traced = events.filter((e) => e.type === "tool_result").map((e) => e.result);
    assert.deepEqual(traced, results);
  });

  test("a tool result over 1,000,000 characters is cut (as stored and given to the model), with its size told", async () => {
    const big = "a".repeat(1_000_000) + "b".repeat(234_567);
    const host = { ...hostDouble({}), callTool: async () => ({ content: [{ type: "text", text: big }] }) } as unknown as PluginHost;
    h = await kernelHarness([{ toolCalls: [{ id: "c1", name: "demo_echo", arguments: "{}" }] }, { content: "ok" }]);
    h.kernel.tools.addSource(pluginTools(host));
    const session = await h.kernel.sessions.open("t", "p");
    await h.kernel.turn({ session, input: "go" });
    const stored = (await loadL1Events(h.store.client, session.id)).flatMap((e) => e.messages);
    const tool = stored.find((m: any) => m.role === "tool") as any;
    assert.equal(tool.content, `${"a".repeat(1_000_000)}\n[… 234567 more characters cut: the result is 1234567 characters, more than a model is given]`);
  });

  test("a plugin's own error object marked isError passes to the model unchanged", async () => {
    const body = { error: "terminal_gone", terminal: 3, next_action: "open a new terminal" };
    const host = { ...hostDouble({}), callTool: async () => ({ isError: true, content: [{ type: "text", text: JSON.stringify(body) }] }) } as unknown as PluginHost;
    h = await kernelHarness([{ toolCalls: [{ id: "c1", name: "demo_echo", arguments: "{}" }] }, { content: "ok" }]);
    h.kernel.tools.addSource(pluginTools(host));
    const session = await h.kernel.sessions.open("t", "p");
    await h.kernel.turn({ session, input: "go" });
    const tool = h.provider.requests[1]!.body.messages.find((m: any) => m.role === "tool");
    assert.deepEqual(JSON.parse(tool.content), body);
  });

  test("a plugin can block input, rewrite tool arguments and reformat output", async () => {
    h = await kernelHarness([{ toolCalls: [call("c1", "original")] }, { content: "plain answer" }]);
    h.kernel.addParticipant(
      pluginParticipant(
        hostDouble({
          on_input: (p) => (p.input === "forbidden" ? { deny: "not on this channel" } : undefined),
          before_toolcall: (p) => ({ replace: { ...p, call: { ...p.call, function: { ...p.call.function, arguments: '{"text":"rewritten"}' } } } }),
          before_output: (p) => ({ replace: { ...p, text: `**${p.text}**` } }),
        }),
        () => {},
      ),
    );
    const session = await h.kernel.sessions.open("t", "p");
    const blocked = await h.kernel.turn({ session, input: "forbidden" });
    assert.deepEqual([blocked.stopReason, blocked.reason], ["blocked", "demo: not on this channel"]);
    const result = await h.kernel.turn({ session, input: "go" });
    assert.equal(result.text, "**plain answer**");
    const tool = h.provider.requests[1]!.body.messages.find((m: any) => m.role === "tool");
    assert.deepEqual(JSON.parse(tool.content), { echoed: { text: "rewritten" } });
  });

  test("a replacement of the wrong shape is ignored and logged", async () => {
    h = await kernelHarness([{ content: "answer" }]);
    const logs: string[] = [];
    h.kernel.addParticipant(pluginParticipant(hostDouble({ before_output: () => ({ replace: { text: 42 } }) }), (l) => logs.push(l)));
    const session = await h.kernel.sessions.open("t", "p");
    assert.equal((await h.kernel.turn({ session, input: "go" })).text, "answer");
    assert.match(logs.join("\n"), new RegExp(`^session ${session.id}: a plugin's replacement at before_output has the wrong shape`, "m"));
  });
});

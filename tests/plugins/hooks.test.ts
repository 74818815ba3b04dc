/** Stage hooks through real plugin processes: order, replace, deny, deadlines, plain MCP servers. */
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { join } from "node:path";
import { createPluginHost, PluginSpecSchema, runStage, type PluginHost } from "../../src/plugins/index.ts";
import { FIXTURES } from "./support.ts";
import { scriptSpec } from "../support/process.ts";

describe("stage hooks", () => {
  let host: PluginHost;
  before(async () => {
    const hook = (mode: string, facilities: { provides?: string[]; requires?: string[] } = {}) =>
      PluginSpecSchema.parse({ name: `hook-${mode}`, ...scriptSpec(join(FIXTURES, "hook-plugin.ts"), mode), ...facilities });
    host = createPluginHost(
      [
        // "append" is listed first but requires what "upper" provides: upper runs first.
        hook("append", { requires: ["upper"] }),
        hook("upper", { provides: ["upper"] }),
        hook("deny"),
        hook("slow"),
        PluginSpecSchema.parse({ name: "plain", ...scriptSpec(join(FIXTURES, "misbehave.ts")) }),
      ],
      { graceMs: 300 },
    );
    await host.start();
  });
  after(async () => {
    await host?.stopAll();
  });

  test("plugins declare their stages in the manifest; a plain MCP server declares none", () => {
    assert.deepEqual(host.status("hook-upper").manifest?.hooks, ["on_input"]);
    assert.deepEqual(host.status("hook-deny").manifest?.hooks, ["before_toolcall"]);
    assert.equal(host.status("plain").manifest, null);
  });

  test("replacements chain in start-up order; a plugin past its deadline is skipped, not waited for", async () => {
    const started = performance.now();
    const outcome = await host.runHook("on_input", { text: "hi" }, { deadlineMs: 300 });
    assert.equal(outcome.denied, false);
    assert.deepEqual(outcome.denied === false && outcome.payload, { text: "HI-x" });
    assert.deepEqual(
      outcome.skipped.map((s) => s.plugin),
      ["hook-slow"],
    );
    assert.match(outcome.skipped[0]!.reason, /no answer within 300 ms/);
    assert.ok(performance.now() - started < 2000);
    assert.match(host.status("hook-slow").logTail.join("\n"), /hook on_input skipped/);
  });

  test("a deny stops the stage and says who and why", async () => {
    const outcome = await host.runHook("before_toolcall", { tool: "rm", args: {} });
    assert.deepEqual(outcome, { denied: true, by: "hook-deny", reason: "rm is not allowed here", skipped: [] });
    const allowed = await host.runHook("before_toolcall", { tool: "ls" });
    assert.deepEqual(allowed, { denied: false, payload: { tool: "ls" }, skipped: [] });
  });

  test("a stage nobody declared passes the payload through untouched", async () => {
    assert.deepEqual(await host.runHook("after_output", { n: 1 }), { denied: false, payload: { n: 1 }, skipped: [] });
  });
});

describe("what each stage takes", () => {
  const target = (plugin: string, answer: unknown, notes: string[] = []) => ({ plugin, ask: async () => answer, note: (line: string) => notes.push(line) });

  test("an answer its stage does not take is skipped with the reason, never applied", async () => {
    const notes: string[] = [];
    const outcome = await runStage([target("a", { action: "reply", text: "hi" }, notes), target("b", { action: "inject", text: "data" })], "pre_action", { input: "x" }, 100);
    assert.deepEqual(outcome, {
      denied: false,
      payload: { input: "x" },
      skipped: [{ plugin: "a", reason: "pre_action takes continue/inject, not reply" }],
      injections: [{ plugin: "b", text: "data" }],
    });
    assert.deepEqual(notes, ["hook pre_action skipped: pre_action takes continue/inject, not reply"]);
  });

  test("a reply ends on_input; injections and reports are gathered from every plugin", async () => {
    const replied = await runStage([target("a", { action: "reply", text: "pong" }), target("b", { action: "deny", reason: "never asked" })], "on_input", { input: "/ping" }, 100);
    assert.deepEqual(replied, { denied: false, payload: { input: "/ping" }, skipped: [], reply: { by: "a", text: "pong" } });
    const reports = await runStage([target("a", { action: "report", report: { n: 1 } }), target("b", { action: "report", report: { n: 2 } })], "after_output", {}, 100);
    assert.deepEqual(reports.denied === false && reports.reports, [
      { plugin: "a", report: { n: 1 } },
      { plugin: "b", report: { n: 2 } },
    ]);
  });

  test("an injection longer than the cap is cut with a note", async () => {
    const outcome = await runStage([target("a", { action: "inject", text: "x".repeat(9000) })], "pre_action", {}, 100);
    const text = outcome.denied === false ? outcome.injections![0]!.text : "";
    assert.equal(text, `${"x".repeat(8000)}… (1000 more chars cut)`);
  });
});

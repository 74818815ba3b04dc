/** Stage hooks through real plugin processes: order, replace, deny, deadlines, plain MCP servers. */
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { join } from "node:path";
import { createPluginHost, PluginSpecSchema, type PluginHost } from "../../src/plugins/index.ts";
import { FIXTURES } from "./support.ts";

describe("stage hooks", () => {
  let host: PluginHost;
  before(async () => {
    const hook = (mode: string, facilities: { provides?: string[]; requires?: string[] } = {}) =>
      PluginSpecSchema.parse({ name: `hook-${mode}`, command: process.execPath, args: [join(FIXTURES, "hook-plugin.ts"), mode], ...facilities });
    host = createPluginHost(
      [
        // "append" is listed first but requires what "upper" provides: upper runs first.
        hook("append", { requires: ["upper"] }),
        hook("upper", { provides: ["upper"] }),
        hook("deny"),
        hook("slow"),
        PluginSpecSchema.parse({ name: "plain", command: process.execPath, args: [join(FIXTURES, "misbehave.ts")] }),
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
    assert.deepEqual(outcome.skipped.map((s) => s.plugin), ["hook-slow"]);
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

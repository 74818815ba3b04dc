/** External plugins from <data>/plugins/<folder>/plugin.json: loaded, validated, ordered, run. */
import { after, describe, test } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { createPluginHost, loadExternalPlugins, StartupOrderError, type PluginHost } from "../../src/plugins/index.ts";
import { FIXTURES } from "./support.ts";
import { scriptSpec } from "../support/process.ts";
import { tempDir, testDir } from "../support/temp-dir.ts";

describe("external plugins", () => {
  const data = tempDir("homed-external-").path;
  const hosts: PluginHost[] = [];
  after(async () => {
    await Promise.all(hosts.map((h) => h.stopAll()));
    rmSync(data, { recursive: true, force: true });
  });
  const plugin = (folder: string, body: unknown) => {
    mkdirSync(join(data, "plugins", folder), { recursive: true });
    writeFileSync(join(data, "plugins", folder, "plugin.json"), typeof body === "string" ? body : JSON.stringify(body));
  };

  test("valid files become specs (name from the folder, cwd the folder); broken ones are reported and skipped", async () => {
    plugin("pinger", { ...scriptSpec(join(FIXTURES, "misbehave.ts")), env: { PING_MODE: "1" }, provides: ["ping"] });
    plugin("needs-ping", { name: "needer", ...scriptSpec(join(FIXTURES, "misbehave.ts")), requires: ["ping"] });
    plugin("broken-json", "{ not json");
    plugin("no-command", { args: [] });
    plugin("Bad Name", { command: "x" });
    mkdirSync(join(data, "plugins", "empty-folder"));
    const { specs, problems } = loadExternalPlugins(data);
    assert.deepEqual(
      specs.map((s) => s.name),
      ["needer", "pinger"],
    );
    assert.equal(specs[1]!.cwd, join(data, "plugins", "pinger"));
    assert.deepEqual(specs[1]!.env, { PING_MODE: "1" });
    assert.equal(problems.length, 3);
    assert.match(problems.join("\n"), /broken-json.*JSON/);
    assert.match(problems.join("\n"), /no-command.*command/);
    assert.match(problems.join("\n"), /Bad Name.*lower-case/);

    const host = createPluginHost(specs, { graceMs: 300 });
    hosts.push(host);
    await host.start();
    assert.deepEqual(
      host.list().map((p) => p.state),
      ["running", "running"],
    );
  });

  test("a requirement nobody provides fails at load, before anything starts", () => {
    const lonely = testDir("homed-external-");
    mkdirSync(join(lonely, "plugins", "alone"), { recursive: true });
    writeFileSync(join(lonely, "plugins", "alone", "plugin.json"), JSON.stringify({ command: "true", requires: ["gpu"] }));
    assert.throws(() => createPluginHost(loadExternalPlugins(lonely).specs), StartupOrderError);
    rmSync(lonely, { recursive: true, force: true });
  });

  test("limits: the built-ins' defaults when absent; a plugin.json may set them; a misspelt or impossible one is refused", () => {
    const dir = testDir("homed-external-");
    const write = (folder: string, body: unknown) => {
      mkdirSync(join(dir, "plugins", folder), { recursive: true });
      writeFileSync(join(dir, "plugins", folder, "plugin.json"), JSON.stringify({ command: "true", ...(body as object) }));
    };
    write("plain", {});
    write("small", { limits: { memoryMb: 256, cpuSecondsPerMinute: 5 } });
    write("typo", { limits: { memoryMB: 256 } });
    write("tiny", { limits: { memoryMb: 1 } });
    const { specs, problems } = loadExternalPlugins(dir);
    const limits = Object.fromEntries(specs.map((s) => [s.name, s.limits]));
    assert.deepEqual(limits, { plain: { memoryMb: 1024, cpuSecondsPerMinute: 50 }, small: { memoryMb: 256, cpuSecondsPerMinute: 5 } });
    assert.equal(problems.length, 2, problems.join("\n"));
    assert.match(problems.join("\n"), /typo.*memoryMB/);
    assert.match(problems.join("\n"), /tiny.*limits\.memoryMb/);
    rmSync(dir, { recursive: true, force: true });
  });

  test("no plugins folder means no plugins", () => {
    assert.deepEqual(loadExternalPlugins(join(data, "nowhere")), { specs: [], problems: [] });
  });
});

/**
 * Plugins declare scenes (issue 15 item 5, DESIGN §3 Scenes): a real plugin process names
 * `chan:qq/peer:group_1` in its `homed/manifest`; the daemon's declarePluginScenes declares it in
 * a real store; the scene's features come from its key alone, and a turn in that channel and
 * group is in it from the first occurrence. A malformed key is refused with the rule.
 */
import { after, describe, test } from "node:test";
import assert from "node:assert/strict";
import { join } from "node:path";
import { declarePluginScenes } from "../../src/daemon/index.ts";
import { activeScene, listScenes } from "../../src/memory/index.ts";
import { createPluginHost, PluginSpecSchema, type PluginHost } from "../../src/plugins/index.ts";
import { openStore } from "../../src/store/index.ts";
import { scriptSpec } from "../support/process.ts";
import { tempDir } from "../support/temp-dir.ts";
import { FIXTURES } from "./support.ts";

describe("scenes declared by plugins", () => {
  const hosts: PluginHost[] = [];
  const dir = tempDir("homed-scenes-");
  after(async () => {
    await Promise.all(hosts.map((h) => h.stopAll()));
    dir.remove();
  });
  const start = async (name: string, keys: string) => {
    const host = createPluginHost([PluginSpecSchema.parse({ name, ...scriptSpec(join(FIXTURES, "scene-plugin.ts"), keys) })], { graceMs: 300 });
    hosts.push(host);
    await host.start().catch(() => {});
    return host;
  };

  test("a manifest's scene is declared with features from its key alone, and recalled from the first turn", async () => {
    const store = await openStore({ url: `file:${join(dir.path, "homed.db")}` });
    try {
      const host = await start("scener", "chan:qq/peer:group_1,chan:telegram");
      assert.deepEqual(host.status("scener").manifest?.scenes, ["chan:qq/peer:group_1", "chan:telegram"]);
      const lines: string[] = [];
      const declared = await declarePluginScenes(host, store.client, { info: (l) => lines.push(l), warn: (l) => lines.push(l) });
      assert.deepEqual(declared, ["chan:qq/peer:group_1", "chan:telegram"]);
      assert.match(lines.join("\n"), /scenes declared by plugins: chan:qq\/peer:group_1, chan:telegram/);
      const scenes = await listScenes(store.client);
      const qq = scenes.find((s) => s.key === "chan:qq/peer:group_1")!;
      assert.equal(qq.declared, true);
      assert.deepEqual(qq.features, { channel: "qq", partner: "group_1" }, "only what the key says: no tools, topic or time of day");
      // The first turn in that group is in the scene, whatever its topic and hour.
      assert.equal(await activeScene(store.client, { channel: "qq", partner: "group_1", topic: ["dinner"], timeOfDay: "night" }), qq.id);
      assert.notEqual(await activeScene(store.client, { channel: "qq", partner: "group_2", topic: ["dinner"], timeOfDay: "night" }), qq.id);
      // Declaring again (a restart) keeps the one scene.
      await declarePluginScenes(host, store.client, { info: () => {}, warn: () => {} });
      assert.equal((await listScenes(store.client)).filter((s) => s.key === "chan:qq/peer:group_1").length, 1);
    } finally {
      store.close();
    }
  });

  test("a malformed key fails the plugin's start with the rule, and nothing is declared", async () => {
    const host = await start("bad-scener", "qq group 1");
    const status = host.status("bad-scener");
    assert.notEqual(status.state, "running");
    assert.match(String(status.error), /scene key is "chan:NAME" or "chan:NAME\/peer:NAME"/);
  });
});

/**
 * The music plugin enabled in homed.json, with its settings under `plugins.music`, runs in the
 * daemon; in a real turn the model finds a song by its Chinese lyrics and, with no player
 * configured, is told which players to install.
 */
import { after, describe, test } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { mp3 } from "../plugins/tagged-audio.ts";
import { until } from "../support/process.ts";
import { startApiDaemon } from "../support/api-daemon.ts";
import { startScriptedProvider } from "../support/scripted-provider.ts";
import { testDir } from "../support/temp-dir.ts";

describe("music plugin in the daemon", () => {
  test("homed.json enables it on a folder; the model searches by lyrics and hears there is no player", async () => {
    const provider = await startScriptedProvider([
      { toolCalls: [{ id: "m1", name: "music_search", arguments: JSON.stringify({ query: "爱你有多深" }) }] },
      { toolCalls: [{ id: "m2", name: "music_play", arguments: JSON.stringify({ query: "邓丽君" }) }] },
      { content: "No player here." },
    ]);
    after(() => provider.close());
    const data = testDir("homed-music-daemon-");
    const folder = join(data, "songs");
    mkdirSync(folder);
    writeFileSync(join(folder, "moon.mp3"), mp3({ title: "月亮代表我的心", artist: "邓丽君", lyrics: "你问我爱你有多深\n我爱你有几分" }));
    // No player: mpv only, at a path where there is none.
    const music = { folder, mpv: join(data, "no-mpv"), player: "mpv" };
    writeFileSync(join(data, "homed.json"), JSON.stringify({ plugins: { enabled: ["music"], music } }));
    const daemon = await startApiDaemon(data, provider.url);
    await until(() => /plugins: .*music running/.test(daemon.stderr()), "the plugin to start");
    let indexed = false;
    await until(() => {
      void fetch(`${daemon.url}/api/plugins`, { headers: daemon.headers })
        .then((r) => r.json())
        .then((body) => (indexed = JSON.stringify(body).includes("music: indexed")));
      return indexed;
    }, "the folder to be indexed");
    assert.match(await daemon.send(await daemon.openSession("m"), "play the moon song"), /event: done/);
    const offered = provider.requests[0]!.body.tools.map((t: { function: { name: string } }) => t.function.name);
    for (const name of ["music_search", "music_play", "music_pause", "music_resume", "music_next", "music_volume", "music_now_playing", "music_library"]) assert.ok(offered.includes(name), name);
    const results = provider.requests[2]!.body.messages.filter((m: { role: string }) => m.role === "tool");
    assert.match(results[0].content, /"title":"月亮代表我的心"/);
    assert.match(results[0].content, /"lyrics":"你问我爱你有多深"/);
    assert.match(results[1].content, /"error":"no_player"/);
    assert.match(results[1].content, /apt install mpv/);
    assert.equal((await daemon.stop()).code, 0);
  });
});

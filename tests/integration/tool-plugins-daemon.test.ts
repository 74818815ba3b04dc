/**
 * The everyday-tool plugins (rss, calendar, browser, code) enabled in homed.json run in the
 * daemon, and the model calls each of their tools inside a real turn: a scripted provider on
 * loopback asks for the calls, and the tool results it gets back are checked.
 */
import { after, describe, test } from "node:test";
import assert from "node:assert/strict";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { findChromium } from "../../plugins/browser/chromium.ts";
import { until } from "../support/process.ts";
import { startApiDaemon } from "../support/api-daemon.ts";
import { startScriptedProvider } from "../support/scripted-provider.ts";
import { testDir } from "../support/temp-dir.ts";

const FEED = `<?xml version="1.0"?><rss version="2.0"><channel><title>Kettle News</title><item><title>The kettle boiled</title><guid>k1</guid></item></channel></rss>`;

describe("tool plugins in the daemon", () => {
  test("homed.json enables them; the model calls each in a turn", async () => {
    const feeds = createServer((req, res) =>
      req.url === "/kettle.html"
        ? res.writeHead(200, { "content-type": "text/html" }).end("<html><head><title>Kettles</title></head><body><h1>Kettles</h1><p>A kettle boils water.</p></body></html>")
        : res.writeHead(200, { "content-type": "application/rss+xml" }).end(FEED),
    );
    await new Promise<void>((resolve) => feeds.listen(0, "127.0.0.1", resolve));
    after(() => new Promise((resolve) => feeds.close(resolve)));
    const feedUrl = `http://127.0.0.1:${(feeds.address() as AddressInfo).port}/feed.xml`;
    const provider = await startScriptedProvider([
      { toolCalls: [{ id: "c1", name: "rss_subscribe", arguments: JSON.stringify({ url: feedUrl }) }] },
      { toolCalls: [{ id: "c2", name: "rss_read", arguments: JSON.stringify({ refresh: false }) }] },
      { toolCalls: [{ id: "c3", name: "calendar_create", arguments: JSON.stringify({ summary: "Descale the kettle", start: "2026-12-01T10:00", timezone: "Europe/Paris" }) }] },
      { toolCalls: [{ id: "c4", name: "calendar_list", arguments: JSON.stringify({ from: "2026-12-01", to: "2026-12-02", timezone: "Europe/Paris" }) }] },
      { toolCalls: [{ id: "c5", name: "browser_open", arguments: JSON.stringify({ url: feedUrl.replace("feed.xml", "kettle.html") }) }] },
      { toolCalls: [{ id: "c6", name: "browser_screenshot", arguments: "{}" }] },
      { toolCalls: [{ id: "c7", name: "code_run", arguments: JSON.stringify({ language: "python", code: "print(6 * 7)" }) }] },
      { content: "Done." },
    ]);
    after(() => provider.close());
    const data = testDir("homed-tool-plugins-");
    writeFileSync(join(data, "homed.json"), JSON.stringify({ plugins: { enabled: ["rss", "calendar", "browser", "code"] } }));
    const daemon = await startApiDaemon(data, provider.url);
    await until(() => /plugins: .*rss running.*calendar running.*browser running, code running/.test(daemon.stderr()), "the plugins to start");
    assert.match(await daemon.send(await daemon.openSession("p"), "follow the kettle feed"), /event: done/);
    const offered = provider.requests[0]!.body.tools.map((t: { function: { name: string } }) => t.function.name);
    for (const name of [
      "rss_subscribe",
      "rss_list",
      "rss_read",
      "rss_unsubscribe",
      "calendar_list",
      "calendar_create",
      "calendar_move",
      "calendar_delete",
      "calendar_remind",
      "browser_open",
      "browser_read",
      "browser_click",
      "browser_type",
      "browser_screenshot",
      "browser_close",
      "code_run",
    ])
      assert.ok(offered.includes(name), name);
    const results = provider.requests[7]!.body.messages.filter((m: { role: string }) => m.role === "tool");
    assert.match(results[0].content, /"title":"Kettle News"/);
    assert.match(results[1].content, /The kettle boiled/);
    assert.match(results[2].content, /"start":"2026-12-01T10:00:00\+01:00"/);
    assert.match(results[3].content, /"summary":"Descale the kettle"/);
    assert.match(readFileSync(join(data, "calendar", "personal.ics"), "utf8"), /SUMMARY:Descale the kettle/);
    // Without Chromium the browser's tools answer no_browser: that answer is checked instead.
    if (findChromium()) {
      assert.match(results[4].content, /"title":"Kettles"/);
      assert.match(results[5].content, /^\[image image\/png, \d+ bytes: shown after the tool results\]\n\{"tab":"tab1".*"width":1280,"height":800/);
      const images = provider.requests[6]!.body.messages.flatMap((m: { content: unknown }) => (Array.isArray(m.content) ? m.content.filter((p: { type: string }) => p.type === "image_url") : []));
      assert.match(images[0]?.image_url.url ?? "", /^data:image\/png;base64,/, "the screenshot reaches the model as an image part");
    } else {
      assert.match(results[4].content, /no_browser/);
    }
    assert.match(results[6].content, /"exitCode":0,.*"stdout":"42\\n"/);
    assert.equal((await daemon.stop()).code, 0);
  });
});

/**
 * The plugins page against a real plugin host: a plugin that crashes on every start until a
 * marker file exists ends up "failed" after its crash loop; the marker is made (the fault is
 * fixed) and the Restart button in Chromium brings it back to "running". Events a plugin pushed
 * are listed under the plugins.
 */
import { describe, test, before, after } from "node:test";
import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { Kernel } from "../../src/kernel/index.ts";
import { createLogger } from "../../src/log/index.ts";
import { createPluginHost, PluginSpecSchema, type PluginHost } from "../../src/plugins/index.ts";
import { serve, type RunningServer } from "../../src/runtime/index.ts";
import { createApp } from "../../src/server/index.ts";
import { openStore, SecretBox, type Store } from "../../src/store/index.ts";
import { chromiumMissing, launchChromium, logIn, screenshot } from "./support.ts";
import { tempDir } from "../support/temp-dir.ts";

const TOKEN = "p".repeat(43);
const MISBEHAVE = join(import.meta.dirname, "../plugins/fixtures/misbehave.ts");

describe("plugins page in Chromium", { skip: chromiumMissing ? "no /usr/bin/chromium" : false }, () => {
  let store: Store;
  let host: PluginHost;
  let server: RunningServer;
  let browser: Awaited<ReturnType<typeof launchChromium>>;
  const scratch = tempDir("homed-plugins-page-");
  const dir = scratch.path;
  const fixed = join(dir, "fixed");

  before(async () => {
    store = await openStore({ url: `file:${join(dir, "homed.db")}` });
    const log = createLogger({ level: "error", stderr: () => {} });
    const kernel = new Kernel({ client: store.client, secrets: SecretBox.ephemeral(), log });
    // Crashes (exit 3) on every start until the marker file exists, then serves normally.
    const flaky = PluginSpecSchema.parse({
      name: "flaky",
      command: "sh",
      args: ["-c", `echo "starting flaky" >&2; test -e "$FIXED" || { echo "flaky: config missing" >&2; exit 3; }; exec "$BUN" "$MISBEHAVE" ok`],
      env: { FIXED: fixed, BUN: process.execPath, MISBEHAVE },
    });
    const alarm = PluginSpecSchema.parse({ name: "alarm", command: process.execPath, args: [join(import.meta.dirname, "../plugins/fixtures/alarm-plugin.ts")] });
    host = createPluginHost([flaky, alarm], { graceMs: 300 });
    void host.start().catch(() => {});
    const app = createApp({ version: "0.0.0-test", store, log, kernel, adminToken: TOKEN, plugins: host });
    server = serve("127.0.0.1", 0, (request) => app.fetch(request));
    browser = await launchChromium();
  });
  after(async () => {
    await browser?.close();
    await host?.stopAll();
    await server?.stop(100);
    store?.close();
    scratch.remove();
  });

  test("a crash-looped plugin shows failed with its log tail; Restart brings it back", async () => {
    const url = `http://127.0.0.1:${server.port}`;
    const { page } = browser;
    await logIn({ page, token: TOKEN, daemon: { url } });
    await host.waitFor("flaky", "failed");
    await page.goto(`${url}/#/plugins`);
    const card = page.locator("li.plugin[data-plugin=flaky]");
    await card.waitFor();
    assert.equal(await card.getAttribute("data-state"), "failed");
    assert.match(await card.innerText(), /\d+ restarts/);
    await card.getByText("log tail").click();
    assert.match(await card.locator("pre").innerText(), /flaky: config missing/);
    await screenshot(page, "plugins-failed");

    writeFileSync(fixed, "");
    await card.getByRole("button", { name: "Restart flaky" }).focus();
    await page.keyboard.press("Enter");
    await page.locator("li.plugin[data-plugin=flaky][data-state=running]").waitFor();
    assert.equal(host.list().find((p) => p.name === "flaky")!.state, "running");
    await screenshot(page, "plugins-restarted");
    assert.deepEqual(
      browser.requests.filter((u) => !u.startsWith(`${url}/`)),
      [],
    );
  });

  test("what a plugin pushed is listed under Pushed events, newest first, an urgent one marked", async () => {
    const url = `http://127.0.0.1:${server.port}`;
    const { page } = browser;
    await host.waitFor("alarm", "running");
    await host.callTool("alarm", "alarm", { text: "kettle boiled", delayMs: 0 });
    await host.callTool("alarm", "alarm", { text: "tea ready", urgent: false, delayMs: 0 });
    while (host.recentEvents().length < 2) await new Promise((resolve) => setTimeout(resolve, 10));
    // The page is already on #/plugins (the test before): reloaded, it asks again.
    await page.goto(`${url}/#/plugins`);
    await page.reload();
    const items = page.locator("li.pushed-event[data-plugin=alarm]");
    await items.nth(1).waitFor();
    const [newest, older] = [await items.nth(0).innerText(), await items.nth(1).innerText()];
    assert.match(newest, /alarm · alarm[\s\S]*"text":"tea ready 1"/);
    assert.match(older, /alarm · alarm[\s\S]*"text":"kettle boiled 1"/);
    assert.deepEqual([await items.nth(0).locator(".badge").count(), await items.nth(1).locator(".badge").innerText()], [0, "urgent"]);
    await screenshot(page, "plugins-events");
  });
});

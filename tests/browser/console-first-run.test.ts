/**
 * The console as a new user first meets it, in Chromium against a daemon from source with no
 * provider configured: the login page shows no navigation, the tab has an icon, the first chat
 * says how to add a provider, and a stopped daemon is named as such.
 */
import { describe, test, before, after } from "node:test";
import assert from "node:assert/strict";
import { chromiumMissing, logIn, openConsole, type Console } from "./support.ts";

describe("console first run in Chromium", { skip: chromiumMissing ? "no /usr/bin/chromium" : false }, () => {
  let c: Console;
  before(async () => {
    c = await openConsole(() => ({ content: "unused: no provider is configured" }));
  });
  after(async () => {
    await c?.close();
  });

  test("the login page shows neither the navigation nor Log out; after login both are there", async () => {
    const { page } = c;
    await page.goto(c.daemon.url);
    await page.getByLabel("Admin token").waitFor();
    assert.equal(await page.locator("header#top").isVisible(), false, "the header shows on the login page");
    assert.equal(await page.locator("#logout").isVisible(), false, "Log out shows before login");
    await logIn(c);
    assert.equal(await page.getByRole("button", { name: "Log out" }).isVisible(), true);
  });

  test("the favicon is an SVG served by the daemon and the CSP lets the page draw it", async () => {
    const { page } = c;
    const icon = await page.evaluate(async () => {
      const link = document.querySelector<HTMLLinkElement>("link[rel=icon]");
      if (!link) return null;
      const response = await fetch(link.href);
      const img = new Image();
      img.src = link.href;
      await img.decode();
      return { href: link.href, type: response.headers.get("content-type"), width: img.naturalWidth };
    });
    assert.deepEqual(icon, { href: `${c.daemon.url}/assets/favicon.svg`, type: "image/svg+xml", width: 32 });
  });

  test("first chat without a provider: a clear message linking to the Providers page", async () => {
    const { page } = c;
    await page.goto(`${c.daemon.url}/#/chat`);
    await page.getByLabel("New conversation with").fill("me");
    await page.getByRole("button", { name: "Start" }).click();
    await page.getByLabel("Message").fill("Hello?");
    await page.getByRole("button", { name: "Send" }).click();
    const alert = page.getByRole("alert").filter({ hasText: "No model provider is set up yet" });
    await alert.waitFor();
    await alert.getByRole("link", { name: "Add a provider on the Providers page" }).click();
    await page.getByRole("button", { name: "Add provider" }).waitFor();
    assert.equal(new URL(page.url()).hash, "#/providers");
  });

  test("two pages asked for at once: only the later one is drawn", async () => {
    const { page } = c;
    await page.goto(`${c.daemon.url}/#/doctor`);
    await page.locator("main h1").first().waitFor();
    // Both hash changes fire before either page has its data from the daemon.
    await page.evaluate(() => {
      location.hash = "#/providers";
      setTimeout(() => (location.hash = "#/plugins"), 0);
    });
    await page.waitForLoadState("networkidle");
    await page.waitForTimeout(200);
    assert.deepEqual(await page.locator("main h1").allInnerTexts(), ["Plugins"]);
  });

  test("with the daemon stopped the page says homed is not answering, not 'Failed to fetch'", async () => {
    const { page } = c;
    await c.daemon.stop();
    await page.evaluate(() => (location.hash = "#/memory"));
    const alert = page.getByRole("alert");
    await alert.waitFor();
    assert.equal(await alert.innerText(), `Cannot show this page: homed is not answering at ${c.daemon.url}: is the daemon running?`);
    // Try again asks the daemon again (it may be back); still down, the page says so again.
    const asked = c.requests.length;
    await page.getByRole("button", { name: "Try again" }).click();
    await page.getByRole("alert").waitFor();
    assert.ok(
      c.requests.slice(asked).some((u) => u.includes("/api/")),
      "Try again made no request",
    );
  });
});

/**
 * The console's App keys page in real headless Chromium against a daemon from source: a key is
 * made and shown once with a working copy button, listed with its partner, scopes, creation and
 * last use (after a real request with it), and revoked only after the confirm is accepted — the
 * app holding it is refused from then on.
 */
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { chromiumMissing, DESKTOP, logIn, openConsole, PHONE, screenshot, type Console } from "./support.ts";

describe("console: app keys in Chromium", { skip: chromiumMissing ? "no /usr/bin/chromium" : false }, () => {
  let c: Console;
  before(async () => {
    c = await openConsole(() => ({ content: "ok" }));
    await c.context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: c.daemon.url });
    await logIn(c);
  });
  after(async () => {
    await c?.close();
  });

  const models = (key: string) => fetch(`${c.daemon.url}/v1/models`, { headers: { authorization: `Bearer ${key}` } });

  test("create: the key shown once with a copy button; listed with partner, scopes, created and last used", async () => {
    const { page } = c;
    await page.getByRole("navigation", { name: "Console" }).getByRole("link", { name: "App keys" }).click();
    await page.getByRole("heading", { name: "App keys" }).waitFor();
    await page.getByText("No app keys yet").waitFor();

    await page.getByLabel("Name").fill("webui");
    await page.getByLabel("Partner").fill("alice");
    await page.getByRole("group", { name: "Opens" }).getByLabel("/mcp").uncheck();
    await page.getByRole("button", { name: "Create key" }).click();
    const card = page.getByRole("region", { name: "New key" });
    await card.getByText("it is shown this once").waitFor();
    const key = await card.getByLabel("Key").inputValue();
    assert.match(key, /^hk-[A-Za-z0-9_-]{43}$/);
    await card.getByRole("button", { name: "Copy key" }).click();
    await card.getByText("Copied.").waitFor();
    assert.equal(await page.evaluate(() => navigator.clipboard.readText()), key);

    const row = page.locator("tr[data-key=webui]");
    await row.waitFor();
    const cells = await row.locator("td").allInnerTexts();
    assert.deepEqual(cells.slice(0, 3), ["webui", "alice", "/v1"]);
    assert.match(cells[3]!, /\d/, "created");
    assert.equal(cells[4], "never");
    assert.equal(await page.getByLabel("Name").inputValue(), "", "the form is cleared for the next key");
    await screenshot(page, "keys");

    // The key works for /v1; the page, opened again, shows its use and never the key.
    assert.equal((await models(key)).status, 200);
    await page.reload();
    await row.waitFor();
    assert.match(await row.locator("td").nth(4).innerText(), /\d/, "last used is a time now");
    assert.equal((await page.content()).includes(key), false, "the key is shown once only");
    await page.setViewportSize(PHONE);
    await screenshot(page, "keys-phone");
    await page.setViewportSize(DESKTOP);
  });

  test("a bad name or a duplicate is refused with the server's reason; nothing is made", async () => {
    const { page } = c;
    await page.getByLabel("Name").fill("webui");
    await page.getByRole("button", { name: "Create key" }).click();
    await page.getByRole("alert").getByText("Cannot create the key 'webui': a key with that name exists").waitFor();
    await page.getByLabel("Name").fill("two");
    for (const scope of ["/v1", "/mcp"]) await page.getByRole("group", { name: "Opens" }).getByLabel(scope).uncheck();
    await page.getByRole("button", { name: "Create key" }).click();
    await page.getByRole("alert").getByText("Choose what the key opens").waitFor();
    assert.equal(await page.locator("tbody tr").count(), 1);
  });

  test("revoke asks first: dismissed, the key stays; accepted, it is gone and refused", async () => {
    const { page } = c;
    const made = (await (
      await fetch(`${c.daemon.url}/api/keys`, { method: "POST", headers: { authorization: `Bearer ${c.token}`, "content-type": "application/json" }, body: JSON.stringify({ name: "script" }) })
    ).json()) as { key: string };
    await page.reload();
    const row = page.locator("tr[data-key=script]");
    await row.waitFor();
    const questions: string[] = [];
    page.once("dialog", (d) => void (questions.push(d.message()), d.dismiss()));
    await row.getByRole("button", { name: "Revoke script" }).click();
    await page.waitForTimeout(200);
    assert.match(questions[0] ?? "", /^Revoke the key script\? The app holding it is refused/);
    assert.equal(await row.count(), 1, "dismissed: the key stays");
    assert.equal((await models(made.key)).status, 200);

    page.once("dialog", (d) => void d.accept());
    await row.getByRole("button", { name: "Revoke script" }).click();
    await row.waitFor({ state: "detached" });
    assert.equal((await models(made.key)).status, 401);
    assert.equal(await page.locator("tr[data-key=webui]").count(), 1, "the other key stays");
  });
});

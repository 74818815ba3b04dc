/**
 * The chat's model switcher in Chromium, with two scripted providers: hidden with one model;
 * with two, the one chosen answers the next message, and the choice (the daemon's active
 * provider, for every chat) survives a reload and shows on the Providers page. axe finds
 * nothing serious with the switcher shown, in both languages.
 */
import { describe, test, before, after } from "node:test";
import assert from "node:assert/strict";
import { startScriptedProvider, type ScriptedProvider } from "../support/scripted-provider.ts";
import { axeSerious, chromiumMissing, logIn, openConsole, type Console } from "./support.ts";

describe("model switcher in Chromium", { skip: chromiumMissing ? "no /usr/bin/chromium" : false }, () => {
  let c: Console;
  let second: ScriptedProvider;
  before(async () => {
    c = await openConsole(({ body }) => (body.stream ? { content: "First model here." } : { content: "ok" }));
    second = await startScriptedProvider(({ body }) => (body.stream ? { content: "Second model here." } : { content: "ok" }));
    await logIn(c);
  });
  after(async () => {
    await c?.close();
    await second?.close();
  });

  const addProvider = (name: string, baseUrl: string, model: string) =>
    c.page.evaluate(
      async ([name, baseUrl, model]) => {
        const r = await fetch("/api/providers", { method: "POST", headers: { "content-type": "application/json", "x-homed-request": "1" }, body: JSON.stringify({ name, baseUrl, model }) });
        if (!r.ok) throw new Error(await r.text());
      },
      [name, baseUrl, model] as const,
    );

  test("one model: no switcher; two: the chosen one answers the next message, and the choice stays", async () => {
    const { page } = c;
    await addProvider("First", c.provider.url, "first-model");
    await page.goto(`${c.daemon.url}/#/chat`);
    await page.getByRole("button", { name: "New chat" }).click();
    await page.getByLabel("Message", { exact: true }).waitFor();
    assert.equal(await page.getByLabel("Model", { exact: true }).count(), 0, "a switcher with one model to choose");

    await addProvider("Second", second.url, "second-model");
    await page.reload();
    const switcher = page.getByLabel("Model", { exact: true });
    await switcher.waitFor();
    assert.deepEqual(await switcher.locator("option").allInnerTexts(), ["First · first-model", "Second · second-model"]);
    assert.equal(await switcher.locator("option:checked").innerText(), "First · first-model");
    assert.deepEqual(await axeSerious(page), [], "axe with the switcher");

    const message = page.getByLabel("Message", { exact: true });
    await message.fill("Who answers?");
    await message.press("Enter");
    await page.locator(".log").getByText("First model here.").waitFor();

    const activated = page.waitForResponse((r) => r.url().includes("/activate") && r.ok());
    await switcher.selectOption({ label: "Second · second-model" });
    await activated;
    await message.fill("And now?");
    await message.press("Enter");
    await page.locator(".log").getByText("Second model here.").waitFor();
    assert.equal(second.requests.filter((r) => r.body.stream).length, 1, "the second model got the second message");
    assert.equal(c.provider.requests.filter((r) => r.body.stream).length, 1, "the first model got only the first");

    await page.reload();
    await page.getByLabel("Model", { exact: true }).waitFor();
    assert.equal(await page.getByLabel("Model", { exact: true }).locator("option:checked").innerText(), "Second · second-model");
    await page.getByRole("link", { name: "Providers" }).click();
    await page.locator("tr[data-provider=Second] .badge").waitFor();
  });

  test("the switcher in Chinese passes axe and names its purpose in Chinese", async () => {
    const { page } = c;
    await page.evaluate(() => localStorage.setItem("homed.lang", "zh-CN"));
    await page.goto(`${c.daemon.url}/#/chat`);
    await page.reload();
    await page.getByLabel("模型", { exact: true }).waitFor();
    await page.getByText("回答下一条消息，所有对话都用它（即当前启用的模型服务）。").waitFor();
    assert.deepEqual(await axeSerious(page), [], "axe with the switcher (zh-CN)");
    await page.evaluate(() => localStorage.setItem("homed.lang", "en"));
  });
});

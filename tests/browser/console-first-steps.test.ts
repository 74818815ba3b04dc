/**
 * The first run leads, in Chromium from an empty data folder: after login the chat page says to
 * add a model first and links to where; a chat starts without naming anyone (it is the person's
 * own); a message written before any model exists is kept, across a reload, and once a provider
 * is added it is sent with one click and answered. axe finds nothing serious on the way.
 */
import { describe, test, before, after } from "node:test";
import assert from "node:assert/strict";
import type { Page } from "playwright-core";
import type { Script } from "../support/scripted-provider.ts";
import { axeSerious, chromiumMissing, logIn, openConsole, type Console } from "./support.ts";

const script: Script = ({ body }) => (body.stream ? { content: "Noted: your boat is blue." } : { content: "ok" });

describe("first steps in Chromium", { skip: chromiumMissing ? "no /usr/bin/chromium" : false }, () => {
  let c: Console;
  before(async () => {
    c = await openConsole(script);
  });
  after(async () => {
    await c?.close();
  });

  test("login → add a model first → a chat of one's own → the kept message sent once a model is there", async () => {
    const { page } = c;
    await logIn(c);
    await page.goto(`${c.daemon.url}/#/chat`);
    const step = page.getByRole("region", { name: "First, add a model" });
    await step.waitFor();
    for (const scheme of ["dark", "light"] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      await page.waitForFunction((want) => document.documentElement.dataset.theme === want, scheme);
      assert.deepEqual(await axeSerious(page), [], `axe, ${scheme}`);
    }

    // No partner needed: the conversation is the person's own.
    await page.getByRole("button", { name: "New chat" }).click();
    await page.getByLabel("Message").waitFor();
    assert.match(await page.locator(".conversation-heading h2").innerText(), /^me · me · console$/);
    await page.getByLabel("Message").fill("My boat is blue.");
    await page.getByLabel("Message").press("Enter");
    await page.getByRole("alert").filter({ hasText: "No model provider is set up yet" }).waitFor();
    await page.reload();
    await page.getByLabel("Message").waitFor();
    assert.deepEqual(await page.locator(".log .msg.user p").allInnerTexts(), ["My boat is blue."], "the message was not kept");
    await page.getByRole("alert").filter({ hasText: "No model provider is set up yet" }).waitFor();
    assert.deepEqual(await axeSerious(page), []);

    await step.getByRole("link", { name: "Add a model" }).click();
    await page.getByLabel("Name").fill("Scripted");
    await page.getByLabel("Base URL").fill(c.provider.url);
    await page.getByLabel("Model").fill("scripted-model");
    await page.getByRole("button", { name: "Add provider" }).click();
    await page.getByRole("link", { name: "Start a chat →" }).click();

    assert.equal(await step.count(), 0, "the first step still shows with a provider added");
    await page.getByText("Not sent yet: no model was set up when it was written.").waitFor();
    assert.deepEqual(await axeSerious(page), []);
    await page.getByRole("button", { name: "Deliver now" }).click();
    await page.locator(".msg.assistant:not(.streaming) .answer").getByText("Noted: your boat is blue.").waitFor();
    await page.reload();
    await page.getByLabel("Message").waitFor();
    assert.deepEqual(await page.locator(".log .msg.user p").allInnerTexts(), ["My boat is blue."]);
    assert.deepEqual(await page.locator(".log .msg.assistant .answer").allInnerTexts(), ["Noted: your boat is blue."]);
    assert.equal(await page.getByText("Not sent yet").count(), 0);
  });

  test("a partner may still be named: the field says what it is for, and an empty one means oneself", async () => {
    const { page } = c;
    await page.goto(`${c.daemon.url}/#/chat`);
    const field = page.getByLabel("New conversation with");
    assert.equal(await field.getAttribute("required"), null);
    assert.match(await page.locator("#partner-help").innerText(), /^Empty: a chat of your own\./);
    await field.fill("project-x");
    await page.getByRole("button", { name: "Start", exact: true }).click();
    await page.locator(".conversation-heading h2").filter({ hasText: "project-x" }).waitFor();
  });
});

/** English words in the page's own text (outside translate="no", code, pre and key names), beyond the names a Chinese reader meets as they are. */
async function latinWords(page: Page): Promise<string[]> {
  return await page.evaluate(() => {
    const allowed = new Set(["homed", "API", "Enter", "Ctrl"]);
    const found: string[] = [];
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    while (walker.nextNode()) {
      const el = walker.currentNode.parentElement;
      if (!el || el.closest('[translate="no"], code, pre, kbd, script, style')) continue;
      for (const w of walker.currentNode.textContent?.match(/[A-Za-z]{2,}/g) ?? []) if (!allowed.has(w)) found.push(`${w} in ${el.tagName}`);
    }
    for (const el of document.body.querySelectorAll("[aria-label], [placeholder]"))
      for (const name of ["aria-label", "placeholder"]) for (const w of el.getAttribute(name)?.match(/[A-Za-z]{2,}/g) ?? []) if (!allowed.has(w)) found.push(`${w} in @${name}`);
    return found;
  });
}

describe("first steps in Chinese in Chromium", { skip: chromiumMissing ? "no /usr/bin/chromium" : false }, () => {
  let c: Console;
  before(async () => {
    c = await openConsole(script, { locale: "zh-CN" });
  });
  after(async () => {
    await c?.close();
  });

  test("the first step, a chat of one's own and the kept message read in Chinese, and axe finds nothing serious", async () => {
    const { page } = c;
    await page.goto(c.daemon.url);
    await page.getByLabel("管理员令牌").fill(c.token);
    await page.getByRole("button", { name: "登录" }).click();
    await page.getByRole("navigation", { name: "控制台" }).waitFor();
    await page.goto(`${c.daemon.url}/#/chat`);
    await page.getByRole("region", { name: "第一步：添加一个模型" }).waitFor();
    assert.deepEqual(await latinWords(page), []);
    await page.getByRole("button", { name: "新建对话" }).click();
    await page.getByLabel("消息").waitFor();
    await page.getByLabel("消息").fill("我的船是蓝色的。");
    await page.getByLabel("消息").press("Enter");
    await page.getByRole("alert").filter({ hasText: "还没有设置模型服务" }).waitFor();
    await page.getByRole("button", { name: "重试" }).waitFor();
    assert.equal(await page.locator("#composer-keys").innerText(), "Enter 发送，Shift+Enter 换行，Esc 停止回答。");
    assert.deepEqual(await latinWords(page), []);
    assert.deepEqual(await axeSerious(page), []);
    await page.getByRole("button", { name: "编辑" }).click();
    await page.getByLabel("修改后的文本").waitFor();
    assert.deepEqual(await latinWords(page), []);
    assert.deepEqual(await axeSerious(page), []);
  });
});

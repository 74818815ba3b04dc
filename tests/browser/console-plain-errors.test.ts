/**
 * Errors in people's words, in Chromium, in English and in Chinese: a validation failure (a
 * provider tested with no model) and a provider failure (the model answers HTTP 500 during a
 * chat) each read as a sentence saying what happened and what to do, with the daemon's own
 * technical words one click away under "Technical details" — never zod's "Too small: expected
 * string…" or "Provider answered HTTP 500: {json}" as the message itself.
 */
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import type { Script } from "../support/scripted-provider.ts";
import { axeSerious, chromiumMissing, logIn, openConsole, type Console } from "./support.ts";

/** The connection test answers; every chat turn fails with the provider's HTTP 500 and its JSON body. */
const script: Script = ({ body }) => (body.stream ? { status: 500, body: JSON.stringify({ error: { message: "upstream exploded", type: "server_error" } }) } : { content: "ok" });

const WORDS = {
  en: {
    technical: "Technical details",
    name: "Name",
    baseUrl: "Base URL",
    test: "Test connection",
    invalid: "“Model” is empty: fill it in and try again.",
    message: "Message",
    send: "Send",
    provider: "The model provider failed (HTTP 500). Try again in a moment, or check its settings on the Providers page.",
  },
  "zh-CN": {
    technical: "技术细节",
    name: "名称",
    baseUrl: "接口地址",
    test: "测试连接",
    invalid: "“模型”是空的：请填写后再试。",
    message: "消息",
    send: "发送",
    provider: "模型服务出错了（HTTP 500）。请稍后再试，或在“模型服务”页检查它的设置。",
  },
};

describe("errors in people's words in Chromium", { skip: chromiumMissing ? "no /usr/bin/chromium" : false }, () => {
  let c: Console;
  let session: string;
  before(async () => {
    c = await openConsole(script);
    const call = (path: string, body: unknown) =>
      fetch(`${c.daemon.url}${path}`, { method: "POST", headers: { authorization: `Bearer ${c.token}`, "content-type": "application/json" }, body: JSON.stringify(body) });
    await call("/api/providers", { name: "scripted", baseUrl: c.provider.url, model: "scripted-model" });
    session = ((await (await call("/api/sessions", { partner: "alice", channel: "console", new: true })).json()) as { id: string }).id;
    await logIn(c);
  });
  after(async () => {
    await c?.close();
  });

  for (const language of ["en", "zh-CN"] as const) {
    const w = WORDS[language];

    test(`${language}: a provider tested without a model says which field is empty; zod's words are under the details`, async () => {
      const { page } = c;
      await page.evaluate((id) => localStorage.setItem("homed.lang", id), language);
      await page.goto(`${c.daemon.url}/#/providers`);
      await page.reload();
      await page.getByLabel(w.name, { exact: true }).fill("new one");
      await page.getByLabel(w.baseUrl).fill(c.provider.url);
      await page.getByRole("button", { name: w.test }).click();
      const alert = page.getByRole("alert").filter({ hasText: w.invalid });
      await alert.waitFor();
      assert.equal(await alert.locator("p").innerText(), w.invalid);
      assert.doesNotMatch(await alert.innerText(), /Too small/, "the daemon's validation words show before the details are opened");
      await alert.getByText(w.technical).click();
      assert.match(await alert.locator("details code").innerText(), /^model: Too small/);
      assert.deepEqual(await axeSerious(page), [], `axe: validation error, ${language}`);
    });

    test(`${language}: a provider failing with HTTP 500 in a chat is said in words, its answer under the details`, async () => {
      const { page } = c;
      await page.goto(`${c.daemon.url}/#/chat/${session}`);
      await page.getByLabel(w.message, { exact: true }).fill(`hello in ${language}`);
      await page.getByRole("button", { name: w.send }).click();
      const alert = page.getByRole("alert").filter({ hasText: w.provider });
      await alert.waitFor({ timeout: 60_000 });
      assert.equal(await alert.locator("p").innerText(), w.provider);
      assert.doesNotMatch(await alert.innerText(), /Provider answered|upstream exploded/);
      await alert.getByText(w.technical).click();
      assert.match(await alert.locator("details code").innerText(), /Provider answered HTTP 500: .*upstream exploded/);
      assert.deepEqual(await axeSerious(page), [], `axe: provider failure, ${language}`);
      await page.emulateMedia({ colorScheme: "dark" });
      assert.deepEqual(await axeSerious(page), [], `axe: provider failure, ${language}, dark`);
      await page.emulateMedia({ colorScheme: "light" });
    });
  }
});

/**
 * The console in Chinese and English, in Chromium: a browser set to zh-CN gets every page in
 * Chinese (no English word outside the person's own data, ids and code), a Chinese speaker can
 * go login → provider (its model picked from the provider's own list) → chat with memory →
 * memory page in Chinese alone, the language switch
 * turns the console to English and the choice survives a reload; at a phone's 375 px the
 * navigation folds behind a Menu button instead of running off the edge.
 */
import { describe, test, before, after } from "node:test";
import assert from "node:assert/strict";
import type { Page } from "playwright-core";
import type { Script } from "../support/scripted-provider.ts";
import { axeSerious, chromiumMissing, openConsole, screenshot, type Console } from "./support.ts";

const script: Script = ({ body }) => (body.stream ? { content: "你的船是蓝色的。" } : { content: "好" });

const history = [
  { conversation: "小明", session: "old-1", time: "2026-01-05T10:00:00Z", speaker: "小明", role: "user", text: "我的船漆成了蓝色。", id: "m1" },
  { conversation: "小明", session: "old-1", time: "2026-01-05T10:01:00Z", speaker: "homed", role: "assistant", text: "记住了，蓝色的船。", id: "m2" },
];

const ROUTES = ["chat", "providers", "memory", "context", "scenes", "audit", "plugins", "keys", "doctor"];

/**
 * Latin words a Chinese reader may meet in the console's own words: the product, protocol and
 * format names (the doctor's Chromium, bubblewrap and mpv checks among them), units, and the example app name "webui". Anything else Latin outside translate="no", code and pre is English
 * the console forgot to translate.
 */
const LATIN_ALLOWED = [
  "homed",
  "API",
  "URL",
  "Cookie",
  "JSON",
  "Lines",
  "OpenAI",
  "ChatGPT",
  "Claude",
  "ONNX",
  "Runtime",
  "jieba",
  "Ctrl",
  "Enter",
  "HTTP",
  "http",
  "https",
  "token",
  "Token",
  "KB",
  "MB",
  "GB",
  "L1",
  "L2",
  "L3",
  "MCP",
  "webui",
  "Chromium",
  "bubblewrap",
  "mpv",
  "MPD",
];

/** Every Latin word in the page's own text and labels, with where it was. */
async function untranslated(page: Page): Promise<string[]> {
  return await page.evaluate((allowed) => {
    const found: string[] = [];
    const skip = (el: Element | null) => !el || el.closest('[translate="no"], code, pre, script, style, title') !== null;
    const check = (text: string, where: Element) => {
      // Whole tokens: an id (ev_82b5…, 28d7776f-ff50-…, old-1) mixes in digits, '_' or '-'; a path (/mcp) has '/'.
      for (const w of text.match(/[\w/-]+/g) ?? []) {
        if (/^[A-Za-z]{2,}$/.test(w) && !allowed.includes(w))
          found.push(`${w} in <${where.tagName.toLowerCase()}${where.className ? `.${String(where.className).replace(/ /g, ".")}` : ""}>: ${text.trim().slice(0, 80)}`);
      }
    };
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    while (walker.nextNode()) {
      const el = walker.currentNode.parentElement;
      if (!skip(el)) check(walker.currentNode.textContent ?? "", el!);
    }
    // A label may name data shown on the page ("重启 files" for the plugin files): its words are not the console's.
    const dataWords = new Set([...document.querySelectorAll('[translate="no"]')].flatMap((el) => el.textContent?.match(/[\w-]+/g) ?? []));
    for (const el of document.body.querySelectorAll("[aria-label], [placeholder], [title]")) {
      if (skip(el)) continue;
      for (const name of ["aria-label", "placeholder", "title"]) {
        const value = el.getAttribute(name);
        if (value)
          check(
            value
              .split(/\s+/)
              .filter((w) => !dataWords.has(w))
              .join(" "),
            el,
          );
      }
    }
    return found;
  }, LATIN_ALLOWED);
}

describe("console in Chinese and English in Chromium", { skip: chromiumMissing ? "no /usr/bin/chromium" : false }, () => {
  let c: Console;
  before(async () => {
    c = await openConsole(script, { history, locale: "zh-CN" });
  });
  after(async () => {
    await c?.close();
  });

  test("a zh-CN browser gets the login page in Chinese; the token logs in", async () => {
    const { page } = c;
    await page.goto(c.daemon.url);
    await page.getByRole("heading", { name: "登录 homed" }).waitFor();
    assert.equal(await page.evaluate(() => document.documentElement.lang), "zh-CN");
    assert.deepEqual(await untranslated(page), []);
    assert.deepEqual(await axeSerious(page), [], "axe on the login page");
    await screenshot(page, "zh-login");
    await page.getByLabel("管理员令牌").fill("wrong");
    await page.getByRole("button", { name: "登录" }).click();
    await page.getByRole("alert").getByText("这不是管理员令牌").waitFor();
    await page.getByLabel("管理员令牌").fill(c.token);
    await page.getByRole("button", { name: "登录" }).click();
    await page.getByRole("navigation", { name: "控制台" }).getByRole("link", { name: "对话" }).waitFor();
  });

  test("first run in Chinese: no provider → the link → a provider from the form → a chat that remembers", async () => {
    const { page } = c;
    await page.goto(`${c.daemon.url}/#/chat`);
    await page.getByLabel("新对话，对象").fill("小明");
    await page.getByRole("button", { name: "开始" }).click();
    await page.getByLabel("消息").fill("你好");
    await page.getByRole("button", { name: "发送" }).click();
    await page.getByRole("alert").filter({ hasText: "还没有设置模型服务" }).getByRole("link", { name: "去“模型服务”页面添加一个" }).click();
    await page.getByRole("heading", { name: "模型服务", level: 1 }).waitFor();
    await page.getByLabel("名称", { exact: true }).fill("本地");
    // The model comes from the provider's own list; a provider that cannot be reached says so.
    await page.getByLabel("接口地址").fill("http://127.0.0.1:9/v1");
    await page.getByRole("button", { name: "获取模型列表" }).click();
    await page.getByRole("alert").filter({ hasText: "无法获取模型列表" }).waitFor();
    await page.getByLabel("接口地址").fill(c.provider.url);
    await page.getByRole("button", { name: "获取模型列表" }).click();
    await page.getByText("找到 1 个模型：在“模型”栏里选择").waitFor();
    assert.equal(await page.getByLabel("模型", { exact: true }).inputValue(), "scripted-model");
    assert.deepEqual(await page.locator("datalist#p-models option").evaluateAll((o) => o.map((x) => (x as HTMLOptionElement).value)), ["scripted-model"]);
    await page.getByRole("button", { name: "测试连接" }).click();
    await page.getByText(/连接成功，用时 [\d,]+ 毫秒/).waitFor();
    await page.getByRole("button", { name: "添加", exact: true }).click();
    await page.locator("tr[data-provider=本地]").getByText("使用中").waitFor();

    // The first provider leads on into the chat.
    await page.getByRole("status").filter({ hasText: "本地 已设置好" }).getByRole("link", { name: "开始对话 →" }).click();
    await page.getByLabel("消息").fill("我的船漆成什么颜色了？");
    await page.getByRole("button", { name: "发送" }).click();
    await page.locator(".msg.assistant:not(.streaming) .answer").getByText("你的船是蓝色的。").waitFor();
    const recall = page.locator("details.recall").last();
    assert.match(await recall.locator("summary").innerText(), /^想起 [1-9]\d* 条记忆（[\d,]+ 个字符）$/);
    await recall.locator("summary").click();
    assert.match(await recall.innerText(), /查找：/);
    assert.match(await recall.locator(".lines").innerText(), /我的船漆成了蓝色。/);
    assert.deepEqual(await untranslated(page), []);
    await screenshot(page, "zh-chat");

    await page.getByRole("link", { name: "记忆", exact: true }).click();
    await page.getByRole("heading", { name: "记忆", level: 1 }).waitFor();
    await page.locator("[data-stat='L2 cold'] .label").getByText("L2 冷存").waitFor();
    await page.getByRole("searchbox", { name: "搜索" }).fill("蓝色");
    await page.getByRole("button", { name: "搜索", exact: true }).click();
    await page.locator("li.record").filter({ hasText: "我的船漆成了蓝色。" }).filter({ hasText: /得分/ }).waitFor();
    // The search channels are said in Chinese ("来自 词语 + 字符片段"), not as the daemon's words+grams.
    assert.deepEqual(await untranslated(page), [], "the memory search's results");
  });

  test("every page in a zh-CN browser is in Chinese and has no serious or critical axe-core violation, at 1280 px and at 375 px", async () => {
    const { page } = c;
    for (const size of [
      { width: 1280, height: 800 },
      { width: 375, height: 760 },
    ]) {
      await page.setViewportSize(size);
      for (const route of ROUTES) {
        await page.goto(`${c.daemon.url}/#/${route}`);
        await page.locator("main h1").first().waitFor();
        await page.waitForLoadState("networkidle");
        await page.locator("main details").evaluateAll((all) => {
          for (const d of all) (d as HTMLDetailsElement).open = true;
        });
        await page.waitForTimeout(50);
        assert.deepEqual(await untranslated(page), [], `#/${route} at ${size.width} px`);
        assert.deepEqual(await axeSerious(page), [], `axe: #/${route} at ${size.width} px`);
        if (size.width === 1280) await screenshot(page, `zh-${route}`);
      }
    }
    await page.setViewportSize({ width: 1280, height: 800 });
  });

  test('the daemon\'s values are in Chinese too, not hidden by translate="no": doctor checks, roles, bands, the console channel, local presets', async () => {
    const { page } = c;
    await page.goto(`${c.daemon.url}/#/doctor`);
    await page.getByRole("button", { name: "运行深度检查" }).click();
    const checks = page.locator("ul.checks li strong");
    await checks.first().waitFor({ timeout: 60_000 });
    const names = await checks.allInnerTexts();
    for (const name of ["数据目录可写", "数据库能打开", "向量搜索", "全文搜索", "jieba 分词"])
      assert.ok(
        names.some((n) => n.endsWith(name)),
        `no check named ${name}: ${names.join(" | ")}`,
      );
    assert.equal(await page.locator('ul.checks strong[translate="no"]').count(), 0, "the check names are hidden from the language test");
    // Each outcome is a sentence in Chinese, outside translate="no"; the English detail is one click away.
    const said = await page.locator("ul.checks li").evaluateAll((all) => all.map((li) => li.querySelector(".check-said")?.textContent ?? ""));
    assert.ok(said.length >= 5 && said.every((s) => /[\u4e00-\u9fff]/.test(s)), `outcomes not said in Chinese: ${said.join(" | ")}`);
    assert.ok(said.includes("数据库能正常打开。") && said.includes("中文能正确分词。"), said.join(" | "));
    assert.equal(await page.locator('ul.checks .check-said[translate="no"], ul.checks [translate="no"] .check-said').count(), 0);
    assert.deepEqual(await untranslated(page), [], "the doctor's results");

    // A server error the console has no own words for is a Chinese sentence too, its message kept as detail.
    for (const [error, words] of [
      ["write_wait", "homed 没能完成这一步。"],
      ["secret_unreadable", "homed 打不开保存的密钥：密钥文件变了。"],
    ]) {
      await page.route("**/api/doctor", (route) => route.fulfill({ status: 503, contentType: "application/json", body: JSON.stringify({ error, message: `Refused for the test: ${error}` }) }));
      await page.getByRole("button", { name: "运行深度检查" }).click();
      const alert = page.getByRole("alert").filter({ hasText: words });
      await alert.waitFor();
      await alert.locator("summary").click();
      assert.equal(await alert.locator("code").innerText(), `Refused for the test: ${error}`);
      assert.deepEqual(await untranslated(page), [], `an unknown server error (${error})`);
      assert.deepEqual(await axeSerious(page), [], `axe with the error (${error})`);
      await page.unroute("**/api/doctor");
    }

    await page.goto(`${c.daemon.url}/#/context`);
    const roles = page.locator("table.events tbody td:nth-child(2)");
    await roles.first().waitFor();
    assert.deepEqual([...new Set((await roles.allInnerTexts()).flatMap((r) => r.split(", ")))].sort(), ["助手", "用户"]);
    assert.equal(await page.locator('table.events td[translate="no"]:nth-child(2)').count(), 0);

    await page.goto(`${c.daemon.url}/#/audit`);
    const ids = page.locator("td.ids").first();
    await ids.waitFor();
    assert.match(await ids.innerText(), /\((L2|L3) · (立即|工作|背景|活跃) · /);
    assert.deepEqual(await untranslated(page), [], "the audit's bands");

    await page.goto(`${c.daemon.url}/#/chat`);
    await page.locator(".conversation-heading small").getByText("· 控制台").waitFor();
    assert.deepEqual(await untranslated(page), [], "the chat's channel");

    await page.goto(`${c.daemon.url}/#/providers`);
    await page.locator("#p-preset").waitFor();
    const presets = await page.locator("#p-preset option").evaluateAll((all) => all.map((o) => o.textContent?.trim() ?? ""));
    assert.ok(
      presets.some((p) => p === "Ollama （本地）"),
      `presets: ${presets.join(" | ")}`,
    );
    assert.ok(!presets.some((p) => p.includes("(local)")));
  });

  test("the switch turns the console to English, and the choice outlives a reload", async () => {
    const { page } = c;
    await page.goto(`${c.daemon.url}/#/memory`);
    await page.getByRole("heading", { name: "记忆", level: 1 }).waitFor();
    await page.getByLabel("语言").selectOption("en");
    await page.getByRole("heading", { name: "Memory", level: 1 }).waitFor();
    assert.equal(await page.evaluate(() => document.documentElement.lang), "en");
    assert.equal(await page.getByRole("navigation", { name: "Console" }).getByRole("link", { name: "Chat" }).count(), 1);
    await page.reload();
    await page.getByRole("heading", { name: "Memory", level: 1 }).waitFor();
    assert.equal(await page.getByRole("button", { name: "Log out" }).count(), 1);
    await page.getByLabel("Language").selectOption("zh-CN");
    await page.getByRole("heading", { name: "记忆", level: 1 }).waitFor();
  });

  test("at 375 px the navigation folds behind Menu: nothing runs off the edge, every page is one tap away", async () => {
    const { page } = c;
    await page.setViewportSize({ width: 375, height: 760 });
    await page.goto(`${c.daemon.url}/#/chat`);
    const menu = page.getByRole("button", { name: "菜单" });
    await menu.waitFor();
    const nav = page.getByRole("navigation", { name: "控制台" });
    assert.equal(await nav.isVisible(), false, "the navigation shows before Menu is pressed");
    assert.equal(await menu.getAttribute("aria-expanded"), "false");
    await menu.click();
    assert.equal(await menu.getAttribute("aria-expanded"), "true");
    for (const link of await nav.getByRole("link").all()) {
      const box = (await link.boundingBox())!;
      assert.ok(box.x >= 0 && box.x + box.width <= 375, `${await link.innerText()} is off the screen: ${JSON.stringify(box)}`);
    }
    await screenshot(page, "zh-menu-375");
    await nav.getByRole("link", { name: "场景" }).click();
    await page.getByRole("heading", { name: "场景", level: 1 }).waitFor();
    assert.equal(await nav.isVisible(), false, "the navigation stays open after choosing a page");
    assert.equal(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth), 0);
    await page.setViewportSize({ width: 1280, height: 800 });
    assert.equal(await menu.isVisible(), false, "Menu shows at desktop width");
    assert.equal(await nav.isVisible(), true);
  });
});

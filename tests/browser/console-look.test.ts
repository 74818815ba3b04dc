/**
 * The console's look in Chromium: dark mode follows the system's prefers-color-scheme until a
 * scheme is picked (light, dark, system — remembered across reloads), with no serious axe
 * violation (contrast among them) in either palette, the delete confirmation included; each page
 * names its tab; and a page whose data is on the way shows a labelled busy skeleton, not a blank.
 */
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import type { Page } from "playwright-core";
import { axeSerious, chromiumMissing, logIn, openConsole, screenshot, type Console } from "./support.ts";

/** The relative luminance of a CSS rgb() colour (WCAG's formula): dark backgrounds are below 0.05. */
async function luminance(page: Page, selector: string): Promise<number> {
  const colour = await page
    .locator(selector)
    .first()
    .evaluate((el) => getComputedStyle(el).backgroundColor);
  const [r, g, b] = (colour.match(/[\d.]+/g) ?? []).slice(0, 3).map((v) => {
    const c = Number(v) / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * r! + 0.7152 * g! + 0.0722 * b!;
}

const ROUTES: [string, string, string][] = [
  ["chat", "Chat", "对话"],
  ["providers", "Providers", "模型服务"],
  ["memory", "Memory", "记忆"],
  ["context", "Context", "上下文"],
  ["audit", "Recall audit", "回忆审计"],
  ["doctor", "Doctor", "诊断"],
];

describe("dark mode, page titles and loading states in Chromium", { skip: chromiumMissing ? "no /usr/bin/chromium" : false }, () => {
  let c: Console;
  let session: string;
  before(async () => {
    // An imported history, so each turn recalls something and the audit has entries to chart.
    const history = [
      { conversation: "alice", session: "old-1", time: "2026-01-05T10:00:00Z", speaker: "alice", role: "user", text: "My boat is painted blue.", id: "m1" },
      { conversation: "alice", session: "old-1", time: "2026-01-05T10:01:00Z", speaker: "homed", role: "assistant", text: "Noted: a blue boat.", id: "m2" },
    ];
    c = await openConsole(() => ({ content: "Noted: the **boat** is blue." }), { history });
    const call = (path: string, body: unknown) =>
      fetch(`${c.daemon.url}${path}`, { method: "POST", headers: { authorization: `Bearer ${c.token}`, "content-type": "application/json" }, body: JSON.stringify(body) });
    await call("/api/providers", { name: "scripted", baseUrl: c.provider.url, model: "scripted-model" });
    session = ((await (await call("/api/sessions", { partner: "alice", channel: "console", new: true })).json()) as { id: string }).id;
    for (const content of ["My boat is blue.", "Where is my boat moored?", "What colour is my boat?"]) await (await call(`/api/sessions/${session}/messages`, { content })).text();
    // Every text the charts draw on their canvases, with where and how wide, to find labels that run together.
    await c.context.addInitScript(() => {
      const drawn: { chart: string; text: string; left: number; right: number; y: number }[] = [];
      (window as unknown as { drawnLabels: typeof drawn }).drawnLabels = drawn;
      const fillText = CanvasRenderingContext2D.prototype.fillText;
      CanvasRenderingContext2D.prototype.fillText = function (text: string, x: number, y: number, maxWidth?: number) {
        const width = this.measureText(text).width;
        const left = this.textAlign === "center" ? x - width / 2 : this.textAlign === "right" || this.textAlign === "end" ? x - width : x;
        drawn.push({ chart: this.canvas.closest("figure")?.getAttribute("data-chart") ?? "", text, left, right: left + width, y: Math.round(y) });
        return fillText.call(this, text, x, y, maxWidth);
      };
    });
    await logIn(c);
  });
  after(async () => {
    await c?.close();
  });

  test("a dark system gets the dark palette; every page and the delete confirmation pass axe in both palettes", async () => {
    const { page } = c;
    for (const scheme of ["dark", "light"] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      await page.goto(`${c.daemon.url}/#/chat/${session}`);
      await page.locator(".msg.assistant").first().waitFor();
      assert.equal(await page.evaluate(() => document.documentElement.dataset.theme), scheme);
      const [bg, card] = [await luminance(page, "html"), await luminance(page, ".msg.assistant")];
      if (scheme === "dark") assert.ok(bg < 0.05 && card < 0.05, `a dark system got a light page (${bg}, ${card})`);
      else assert.ok(bg > 0.8, `a light system got a dark page (${bg})`);
      assert.deepEqual(await axeSerious(page), [], `axe: chat, ${scheme}`);
      await page.getByRole("button", { name: "Delete", exact: true }).click();
      const confirm = page.getByRole("button", { name: "Delete conversation" });
      await confirm.waitFor();
      assert.deepEqual(await axeSerious(page), [], `axe: delete confirmation, ${scheme}`);
      await screenshot(page, `look-chat-${scheme}`);
      await page.getByRole("button", { name: "Cancel" }).click();
      for (const [route] of ROUTES.slice(1)) {
        await page.goto(`${c.daemon.url}/#/${route}`);
        await page.locator("main h1").first().waitFor();
        await page.waitForLoadState("networkidle");
        assert.deepEqual(await axeSerious(page), [], `axe: #/${route}, ${scheme}`);
      }
    }
  });

  test("the switch picks light, dark or the system's, and the choice outlives a reload", async () => {
    const { page } = c;
    await page.emulateMedia({ colorScheme: "dark" });
    await page.goto(`${c.daemon.url}/#/memory`);
    await page.locator("main h1").waitFor();
    const scheme = page.getByLabel("Colour scheme");
    await scheme.selectOption("light");
    assert.equal(await page.evaluate(() => document.documentElement.dataset.theme), "light");
    await page.reload();
    await page.locator("main h1").waitFor();
    assert.equal(await page.evaluate(() => document.documentElement.dataset.theme), "light", "the choice did not outlive the reload");
    assert.ok((await luminance(page, "html")) > 0.8);
    await scheme.selectOption("system");
    assert.equal(await page.evaluate(() => document.documentElement.dataset.theme), "dark");
    // "System" follows the system as it changes.
    await page.emulateMedia({ colorScheme: "light" });
    await page.waitForFunction(() => document.documentElement.dataset.theme === "light");
    await page.emulateMedia({ colorScheme: "dark" });
    await scheme.selectOption("dark");
    await page.emulateMedia({ colorScheme: "light" });
    await page.reload();
    await page.locator("main h1").waitFor();
    assert.equal(await page.evaluate(() => document.documentElement.dataset.theme), "dark");
    await scheme.selectOption("system");
  });

  test("each page names its tab, in the reader's language", async () => {
    const { page } = c;
    for (const [language, side] of [
      ["en", 1],
      ["zh-CN", 2],
    ] as const) {
      await page.getByLabel(/^(Language|语言)$/).selectOption(language);
      for (const route of ROUTES) {
        await page.goto(`${c.daemon.url}/#/${route[0]}`);
        await page.waitForFunction((want) => document.title === want, `${route[side]} — homed`);
      }
    }
    await page.getByLabel("语言").selectOption("en");
  });

  test("a page whose data is on the way shows a labelled busy state, then the page", async () => {
    const { page } = c;
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route("**/api/providers", async (route) => {
      await held;
      await route.fallback();
    });
    await page.goto(`${c.daemon.url}/#/providers`);
    const busy = page.getByRole("status").filter({ hasText: "Loading…" });
    await busy.waitFor();
    assert.equal(await busy.getAttribute("aria-busy"), "true");
    assert.ok((await page.locator(".loading .skeleton").count()) > 0);
    assert.deepEqual(await axeSerious(page), [], "axe: loading");
    release();
    await page.getByRole("heading", { name: "Providers", level: 1 }).waitFor();
    await busy.waitFor({ state: "hidden" });
    await page.unroute("**/api/providers");
  });

  test("the memory page: a search with no match passes axe (its status is an item of the list), and no form label wraps mid-label", async () => {
    const { page } = c;
    for (const size of [
      { width: 1280, height: 800 },
      { width: 375, height: 740 },
    ]) {
      await page.setViewportSize(size);
      await page.goto(`${c.daemon.url}/#/memory`);
      await page.getByRole("searchbox", { name: "Search" }).fill("zzzz-nothing-like-this");
      // Written in a year to come: nothing matches, whatever the search's fuzziness.
      await page.locator("#m-since").fill("2099-01-01");
      await page.getByRole("button", { name: "Search", exact: true }).click();
      await page.locator("ul.records").getByRole("status").waitFor();
      assert.deepEqual(await axeSerious(page), [], `axe: memory search with no match at ${size.width} px`);
      // A label on one line is about one line-height tall; a label wider than its row may wrap, but not one that fits.
      const wrapped = await page.locator("form.search > label, form.embed-setup > label").evaluateAll((labels) =>
        labels
          .filter((l) => {
            const box = l.getBoundingClientRect();
            const row = l.parentElement!.clientWidth;
            return box.width < row - 40 && box.height > 1.6 * Number.parseFloat(getComputedStyle(l).lineHeight);
          })
          .map((l) => l.textContent),
      );
      assert.deepEqual(wrapped, [], `labels wrapped mid-label at ${size.width} px`);
    }
    await page.setViewportSize({ width: 1280, height: 800 });
  });

  test("the audit chart's date labels never run together; one latency sample is a flat line over percentiles 0–100", async () => {
    const { page } = c;
    type Label = { chart: string; text: string; left: number; right: number; y: number };
    const labels = (chart: string) => page.evaluate((name) => (window as unknown as { drawnLabels: Label[] }).drawnLabels.filter((l) => l.chart === name), chart);
    // The audit's turns spread over days and hours (the real ones came seconds apart): uPlot's date ticks at their densest.
    await page.route("**/api/audit", async (route) => {
      const answer = (await (await route.fetch()).json()) as { entries: { id: string; time: number }[] };
      const start = Date.UTC(2026, 0, 5, 8);
      const entries = Array.from({ length: 14 }, (_, i) => ({ ...answer.entries[i % answer.entries.length]!, id: `spread-${i}`, time: start + i * 3 * 3_600_000 }));
      await route.fulfill({ contentType: "application/json", body: JSON.stringify({ entries }) });
    });
    for (const width of [1280, 375]) {
      await page.setViewportSize({ width, height: 800 });
      await page.goto(`${c.daemon.url}/#/audit`);
      await page.reload();
      await page.waitForFunction(() => (window as unknown as { drawnLabels: Label[] }).drawnLabels.some((l) => l.chart === "Characters injected per turn"));
      const drawn = await labels("Characters injected per turn");
      const rows = new Map<number, Label[]>();
      for (const l of drawn) rows.set(l.y, [...(rows.get(l.y) ?? []), l]);
      for (const row of rows.values()) {
        const sorted = row.sort((a, b) => a.left - b.left);
        for (let i = 1; i < sorted.length; i++) assert.ok(sorted[i]!.left >= sorted[i - 1]!.right, `at ${width} px "${sorted[i - 1]!.text}" runs into "${sorted[i]!.text}"`);
      }
    }
    await page.unroute("**/api/audit");
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.route("**/api/audit/replay", (route) =>
      route.fulfill({ contentType: "application/json", body: JSON.stringify({ embedder: "fallback", samples: [{ query: "boat", ms: 12.5, found: 1 }] }) }),
    );
    await page.getByRole("button", { name: "Measure recall latency" }).click();
    const chart = "Recall latency distribution (ms, by percentile)";
    await page.waitForFunction((name) => (window as unknown as { drawnLabels: Label[] }).drawnLabels.some((l) => l.chart === name), chart);
    const texts = (await labels(chart)).map((l) => l.text);
    assert.ok(texts.includes("0") && texts.includes("100"), `the x axis is not percentiles 0–100: ${texts.join(" ")}`);
    assert.ok(!texts.includes("101") && !texts.includes("99"), `one sample stretched the axis to 99–101: ${texts.join(" ")}`);
    await page.unroute("**/api/audit/replay");
  });
});

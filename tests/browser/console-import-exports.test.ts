/**
 * Importing a ChatGPT export through the memory page's dialog, in Chromium: the dialog says in
 * one line each what the three formats are; the export's visible thread is imported (not the
 * branches beside it) and its messages are listed and found by search; a JSON file that is no
 * known export is refused in plain words with the formats named in the detail, in both
 * languages, and axe finds nothing serious in those states.
 */
import { describe, test, before, after } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { ROOT } from "../support/process.ts";
import type { Script } from "../support/scripted-provider.ts";
import { axeSerious, chromiumMissing, logIn, openConsole, screenshot, type Console } from "./support.ts";

const script: Script = () => ({ content: "ok" });
const CHATGPT = readFileSync(join(ROOT, "tests/fixtures/chat-exports/chatgpt-conversations.json"));

describe("import of a ChatGPT export in Chromium", { skip: chromiumMissing ? "no /usr/bin/chromium" : false }, () => {
  let c: Console;
  before(async () => {
    c = await openConsole(script);
    await logIn(c);
  });
  after(async () => {
    await c?.close();
  });

  test("the dialog describes the three formats; a ChatGPT conversations.json imports its visible thread, listed and found", async () => {
    const { page } = c;
    await page.goto(`${c.daemon.url}/#/memory`);
    const formats = page.getByRole("list", { name: "Formats homed imports" }).getByRole("listitem");
    assert.deepEqual(
      (await formats.allInnerTexts()).map((line) => line.split(/[,(]/)[0]!.trim()),
      ["homed JSON Lines", "ChatGPT export", "Claude export"],
    );
    await page.getByLabel("History file (JSON Lines, ChatGPT or Claude export)").setInputFiles({ name: "conversations.json", mimeType: "application/json", buffer: CHATGPT });
    await page.getByRole("button", { name: "Import", exact: true }).click();
    await page.getByText("Imported conversations.json: 6 added, 0 already present, 0 invalid skipped.").waitFor();
    assert.deepEqual(await axeSerious(page), [], "axe after the import");
    await screenshot(page, "import-chatgpt");

    const records = page.locator("li.record");
    await page.getByLabel("Search", { exact: true }).fill("pastel de nata sister");
    await page.getByRole("search").getByRole("button", { name: "Search" }).click();
    await records.filter({ hasText: "Is this pastel de nata place any good? My sister Ines recommended it." }).first().waitFor();
    await page.getByLabel("Search", { exact: true }).fill("Alfama Bairro Alto");
    await page.getByRole("search").getByRole("button", { name: "Search" }).click();
    await records.filter({ hasText: "Stay in Alfama" }).first().waitFor();
    const listed = (await records.allInnerTexts()).join("\n");
    assert.doesNotMatch(listed, /Try Bairro Alto|Model set context updated|sister is called Ines/, "a branch beside the thread, a tool's words or a tool call was imported");
  });

  test("a JSON file that is no known export is refused in plain words, the formats named in the detail, in English and Chinese", async () => {
    const { page } = c;
    for (const [lang, words] of [
      ["en", "This file is not in a format homed can read."],
      ["zh-CN", "homed 读不懂这个文件的格式。"],
    ] as const) {
      await page.evaluate((id) => localStorage.setItem("homed.lang", id), lang);
      await page.goto(`${c.daemon.url}/#/memory`);
      await page.reload();
      await page.locator("#i-file").setInputFiles({ name: "export.json", mimeType: "application/json", buffer: Buffer.from(JSON.stringify([{ title: "x", messages: [] }])) });
      await page.locator("form.card.search button[type=submit]").first().click();
      const alert = page.getByRole("alert").filter({ hasText: words });
      await alert.waitFor();
      await alert.locator("summary").click();
      assert.match(await alert.locator("code").innerText(), /JSON Lines.*ChatGPT.*Claude/s);
      assert.deepEqual(await axeSerious(page), [], `axe on the refused import (${lang})`);
    }
  });
});

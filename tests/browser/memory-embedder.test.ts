/**
 * The memory page's embedder, in a real browser against a real daemon (issue 16.5): the card
 * says the fallback is active and how to fix it, and the setup form probes a scripted
 * OpenAI-compatible endpoint and reports its width and latency with the flags to use it, and
 * saves it for the next start.
 */
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { answer, startScriptedServer, type ScriptedServer } from "../embed/scripted-server.ts";
import { chromiumMissing, logIn, openConsole, screenshot, type Console } from "./support.ts";

describe("console: the embedder on the memory page", { skip: chromiumMissing && "no /usr/bin/chromium" }, () => {
  let c: Console;
  let embeddings: ScriptedServer;
  before(async () => {
    embeddings = await startScriptedServer([answer(1024)]);
    c = await openConsole(() => ({ content: "ok" }));
    await logIn(c);
  });
  after(async () => {
    await c?.close();
    await embeddings?.close();
  });

  test("the fallback is named with how to fix it; the form probes an endpoint, reports its width and saves it", async () => {
    const { page } = c;
    await page.goto(`${c.daemon.url}/#/memory`);
    await page
      .locator("[data-stat=Embedder]")
      .getByText(/fallback: recall matches words and characters only/)
      .waitFor();
    const form = page.locator("form[data-form=embedder]");
    await form.getByLabel("Base URL").fill(embeddings.baseUrl);
    await form.getByLabel("Model").fill("bge-m3");
    await form.getByRole("button", { name: "Probe" }).click();
    // Numbers are shown in the page's locale (1,024).
    await form.getByText(/openai:bge-m3 answered: 1,024 dimensions in \d+ ms\. Start homed with: -embed-url http:\/\/127\.0\.0\.1:\d+\/v1 -embed-model bge-m3/).waitFor();
    await screenshot(page, "memory-embedder");
    // Save: probed again and written to homed.json, used from the next start (said so).
    await form.getByLabel("API key (optional)").fill("sk-browser-1");
    await form.getByRole("button", { name: "Save" }).click();
    await form.getByText(/Saved: openai:bge-m3 \(1,024 dimensions\) in homed\.json\. Restart homed to use it.*In use now: fallback-hash-v1@512/).waitFor();
    const saved = JSON.parse(readFileSync(join(c.dataDir, "homed.json"), "utf8")).embedder;
    assert.deepEqual([saved.url, saved.model, saved.apiKey.startsWith("homed-secret-v1:")], [embeddings.baseUrl, "bge-m3", true]);
    // Until homed restarts, the page says so on every visit.
    await page.reload();
    await page
      .locator("form[data-form=embedder]")
      .getByText(/Saved in homed\.json: bge-m3 at http:\/\/127\.0\.0\.1:\d+\/v1, used from the next start — restart homed\. In use now: fallback-hash-v1@512/)
      .waitFor();
  });
});

/**
 * The memory page as a person first meets it, in Chromium: it opens on facts and imported
 * history, not on the live conversation's raw events, which are one click away; a record's id
 * sits in its details; one or two days of writing are a sentence, not a chart of two dots; the
 * context chart is not squashed flat by a budget far above the conversation; the From and To
 * days keep what was written between them.
 */
import { describe, test, before, after } from "node:test";
import assert from "node:assert/strict";
import type { Script } from "../support/scripted-provider.ts";
import { chromiumMissing, logIn, openConsole, type Console } from "./support.ts";

const script: Script = ({ body }) => (body.stream ? { content: "Noted." } : { content: "ok" });
const history = [{ conversation: "alice", session: "old-1", time: "2026-01-05T10:00:00Z", speaker: "alice", role: "user", text: "My harbour boat is painted blue.", id: "m1" }];

describe("memory page in Chromium", { skip: chromiumMissing ? "no /usr/bin/chromium" : false }, () => {
  let c: Console;
  before(async () => {
    c = await openConsole(script, { history });
    await logIn(c);
    await c.page.evaluate(async (baseUrl) => {
      const post = async (path: string, body: unknown) =>
        (await fetch(path, { method: "POST", headers: { "content-type": "application/json", "x-homed-request": "1" }, body: JSON.stringify(body) })).json();
      await post("/api/providers", { name: "Scripted", baseUrl, model: "scripted-model" });
      const session = await post("/api/sessions", { partner: "alice", channel: "console" });
      await (
        await fetch(`/api/sessions/${session.id}/messages`, {
          method: "POST",
          headers: { "content-type": "application/json", "x-homed-request": "1" },
          body: JSON.stringify({ content: "Remember the red kite" }),
        })
      ).text();
    }, c.provider.url);
  });
  after(async () => {
    await c?.close();
  });

  test("opens on facts and history; the raw live events are one click away; ids are in the details", async () => {
    const { page } = c;
    await page.goto(`${c.daemon.url}/#/memory`);
    const records = page.locator("li.record");
    await records.filter({ hasText: "My harbour boat is painted blue." }).waitFor();
    assert.equal(await page.getByLabel("Layer").inputValue(), "memories");
    assert.deepEqual(await records.evaluateAll((all) => [...new Set(all.map((r) => (r as HTMLElement).dataset.layer))]), ["L2"]);
    assert.equal(await records.filter({ hasText: "Remember the red kite" }).count(), 0, "a live event shows before asking for raw events");
    const first = records.first();
    const id = (await first.getAttribute("data-id"))!;
    assert.ok(!(await first.locator(".meta").innerText()).includes(id), "the id is in the meta line");
    await first.getByText("evidence and history").click();
    assert.equal(await first.locator(".record-id code").innerText(), id);

    await page.getByRole("button", { name: "Show the raw live events (L1)" }).click();
    await records.filter({ hasText: "Remember the red kite" }).waitFor();
    assert.equal(await page.getByLabel("Layer").inputValue(), "L1");
    assert.deepEqual(await records.evaluateAll((all) => [...new Set(all.map((r) => (r as HTMLElement).dataset.layer))]), ["L1"]);
  });

  test("a day or two of writing is a sentence, not a chart; a conversation far under its budget is drawn without the budget line", async () => {
    const { page } = c;
    await page.goto(`${c.daemon.url}/#/memory`);
    // The import and the chat were both written today.
    await page.locator(".growth-summary").getByText("Written so far, over 1 day: 2 live events, 1 in history, 0 facts' sources.").waitFor();
    assert.equal(await page.locator("figure.chart").count(), 0);
    await page.goto(`${c.daemon.url}/#/context`);
    const chart = page.locator("figure.chart");
    await chart.locator("canvas").waitFor();
    assert.match(await chart.locator("figcaption").innerText(), /the budget, [\d,]+, is far above/);
    assert.deepEqual(await chart.locator(".u-legend .u-label").allInnerTexts(), ["tokens said"]);
  });

  test("From and To keep only what was written on and between those days", async () => {
    const { page } = c;
    await page.goto(`${c.daemon.url}/#/memory`);
    const records = page.locator("li.record");
    await records.filter({ hasText: "My harbour boat is painted blue." }).waitFor();
    await page.getByLabel("Layer").selectOption("all");
    const today = await page.evaluate(() => new Date().toLocaleDateString("sv"));
    await page.getByLabel("From", { exact: true }).fill(today);
    await page.getByRole("search").getByRole("button", { name: "Search" }).click();
    await records.filter({ hasText: "Remember the red kite" }).first().waitFor();
    assert.equal(await records.filter({ hasText: "My harbour boat" }).count(), 0, "January's history is before today");
    await page.getByLabel("From", { exact: true }).fill("");
    await page.getByLabel("To", { exact: true }).fill("2026-01-05");
    await page.getByRole("search").getByRole("button", { name: "Search" }).click();
    await records.filter({ hasText: "My harbour boat is painted blue." }).waitFor();
    assert.equal(await records.filter({ hasText: "Remember the red kite" }).count(), 0, "today's live event is after the 5th of January");
  });
});

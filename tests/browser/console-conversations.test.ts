/**
 * Conversations in the console, in Chromium: listed by partner with their channel, found by a
 * search box, renamed in place (kept after a reload; an empty name shows the partner again),
 * a turn's tool steps keep their results after a reload, a new conversation with a partner
 * starts beside the earlier ones, and Delete asks first, saying what happens to the memory.
 */
import { describe, test, before, after } from "node:test";
import assert from "node:assert/strict";
import type { Script } from "../support/scripted-provider.ts";
import { chromiumMissing, logIn, openConsole, type Console } from "./support.ts";

const script: Script = ({ body }) => {
  if (!body.stream) return { content: "ok" };
  const last = body.messages.at(-1);
  if (last.role === "tool") return { content: "Nothing found." };
  return { toolCalls: [{ id: "call_1", name: "lookup", arguments: JSON.stringify({ q: "boat" }) }] };
};

describe("conversations in Chromium", { skip: chromiumMissing ? "no /usr/bin/chromium" : false }, () => {
  let c: Console;
  const ids: Record<string, string> = {};
  before(async () => {
    c = await openConsole(script);
    await logIn(c);
    const made = await c.page.evaluate(async (baseUrl) => {
      const post = async (path: string, body: unknown) =>
        (await fetch(path, { method: "POST", headers: { "content-type": "application/json", "x-homed-request": "1" }, body: JSON.stringify(body) })).json();
      await post("/api/providers", { name: "Scripted", baseUrl, model: "scripted-model" });
      const open = async (partner: string, channel: string) => (await post("/api/sessions", { partner, channel })).id as string;
      return { alice: await open("alice", "console"), aliceTg: await open("alice", "telegram"), bob: await open("bob", "console") };
    }, c.provider.url);
    Object.assign(ids, made);
  });
  after(async () => {
    await c?.close();
  });

  test("listed by partner with their channel; the search box narrows the list", async () => {
    const { page } = c;
    await page.goto(`${c.daemon.url}/#/chat/${ids.alice}`);
    const side = page.getByRole("complementary", { name: "Conversations" });
    const alice = side.locator("li[data-partner=alice]");
    await alice.waitFor();
    assert.equal(await alice.locator("li[data-session]").count(), 2);
    assert.deepEqual((await alice.locator("li[data-session] small").allInnerTexts()).map((s) => s.trim()).sort(), ["· console", "· telegram"]);
    const find = side.getByRole("searchbox", { name: "Find a conversation" });
    await find.fill("bob");
    assert.equal(await alice.isHidden(), true);
    assert.equal(await side.locator("li[data-partner=bob]").isVisible(), true);
    await find.fill("tele");
    assert.equal(await side.locator(`li[data-session="${ids.aliceTg}"]`).isVisible(), true);
    assert.equal(await side.locator(`li[data-session="${ids.alice}"]`).isHidden(), true);
    assert.equal(await side.locator("li[data-partner=bob]").isHidden(), true);
    await find.fill("nobody-like-this");
    await side.getByText("No conversation matches.").waitFor();
    await find.fill("");
    assert.equal(await side.locator("li[data-session]:visible").count(), 3);
  });

  test("rename in place: the heading and the list show the name, after a reload too; an empty name shows the partner", async () => {
    const { page } = c;
    await page.goto(`${c.daemon.url}/#/chat/${ids.alice}`);
    await page.getByRole("button", { name: "Rename" }).click();
    await page.getByLabel("Name").fill("Boat plans");
    await page.getByRole("button", { name: "Save" }).click();
    await page.getByRole("heading", { name: /^Boat plans/, level: 2 }).waitFor();
    await page.locator(`li[data-session="${ids.alice}"] a`).getByText("Boat plans").waitFor();
    await page.reload();
    await page.getByRole("heading", { name: /^Boat plans · alice · console$/, level: 2 }).waitFor();
    await page.getByRole("button", { name: "Rename" }).click();
    await page.getByLabel("Name").fill("  ");
    await page.getByRole("button", { name: "Save" }).click();
    await page.getByRole("heading", { name: /^alice · alice · console$/, level: 2 }).waitFor();
    const refused = await page.evaluate(async (id) => {
      const patch = (path: string, body: unknown) =>
        fetch(path, { method: "PATCH", headers: { "content-type": "application/json", "x-homed-request": "1" }, body: JSON.stringify(body) }).then((r) => r.status);
      return {
        unknown: await patch("/api/sessions/no-such-session", { title: "x" }),
        long: await patch(`/api/sessions/${id}`, { title: "x".repeat(201) }),
        missing: await patch(`/api/sessions/${id}`, {}),
      };
    }, ids.alice);
    assert.deepEqual(refused, { unknown: 404, long: 400, missing: 400 });
  });

  test("a tool step keeps its result after a reload", async () => {
    const { page } = c;
    await page.goto(`${c.daemon.url}/#/chat/${ids.bob}`);
    await page.getByLabel("Message").fill("Find my boat");
    await page.getByRole("button", { name: "Send" }).click();
    await page.locator(".msg.assistant:not(.streaming) .answer").getByText("Nothing found.").waitFor();
    await page.reload();
    const step = page.locator("details.step.tool").first();
    await step.waitFor();
    assert.equal(await step.locator("summary").innerText(), "tool · lookup ✓");
    await step.locator("summary").click();
    assert.match(await step.locator(".args").innerText(), /"q":"boat"/);
    assert.match(await step.locator(".result").innerText(), /unknown_tool/);
  });

  test("a new conversation with a partner starts beside the earlier ones, empty; the earlier keeps its turns", async () => {
    const { page } = c;
    await page.goto(`${c.daemon.url}/#/chat/${ids.bob}`);
    await page.locator(".msg.user").first().waitFor();
    const side = page.getByRole("complementary", { name: "Conversations" });
    await side.getByLabel("New conversation with").fill("bob");
    await side.getByRole("button", { name: "Start" }).click();
    await page.waitForURL((url) => url.hash.startsWith("#/chat/") && !url.hash.endsWith(ids.bob!));
    const fresh = page.url().split("#/chat/")[1]!;
    await page.getByRole("heading", { name: /^bob · bob · console$/, level: 2 }).waitFor();
    assert.equal(await page.locator(".log .msg").count(), 0, "the new conversation starts empty");
    const bob = side.locator("li[data-partner=bob]");
    assert.deepEqual((await bob.locator("li[data-session] small").allInnerTexts()).map((s) => s.trim()).sort(), ["· console", "· console #2"]);
    assert.equal(await bob.locator(`li[data-session="${fresh}"] a`).getAttribute("aria-current"), "page");
    await bob.locator(`li[data-session="${ids.bob}"] a`).click();
    await page.locator(".msg.user").getByText("Find my boat").waitFor();
  });

  test("Delete asks first and says the memory stays; the conversation leaves the list and its turns are history", async () => {
    const { page } = c;
    await page.goto(`${c.daemon.url}/#/chat/${ids.bob}`);
    await page.locator(".msg.user").getByText("Find my boat").waitFor();
    await page.getByRole("button", { name: "Delete", exact: true }).click();
    const confirm = page.getByRole("form", { name: "Delete this conversation" });
    await confirm.getByText("What was said in it stays in memory as history").waitFor();
    assert.equal(await confirm.getByLabel("Also forget everything said in it").isChecked(), false, "forgetting is a choice, not the default");
    await confirm.getByRole("button", { name: "Cancel" }).click();
    assert.equal(await confirm.count(), 0);
    assert.equal(await page.locator(`li[data-session="${ids.bob}"]`).count(), 1, "Cancel deletes nothing");
    await page.getByRole("button", { name: "Delete", exact: true }).click();
    await confirm.getByRole("button", { name: "Delete conversation" }).click();
    await page.waitForURL((url) => url.hash === "#/chat");
    await page.getByRole("complementary", { name: "Conversations" }).locator("li[data-partner=alice]").waitFor();
    assert.equal(await page.locator(`li[data-session="${ids.bob}"]`).count(), 0);
    await page.goto(`${c.daemon.url}/#/memory`);
    await page.getByLabel("Search", { exact: true }).fill("Find my boat");
    await page.getByRole("search").getByRole("button", { name: "Search" }).click();
    await page.locator("li.record[data-layer=L2]").filter({ hasText: "Find my boat" }).first().waitFor();
  });
});

/**
 * Conversations named by the model, in Chromium with the scripted provider: after the first
 * exchange the list shows the model's name for it; when the model's title request fails, the
 * name from the first message stays.
 */
import { describe, test, before, after } from "node:test";
import assert from "node:assert/strict";
import type { ReceivedRequest } from "../support/scripted-provider.ts";
import { addScriptedProvider, chromiumMissing, logIn, openConsole, type Console } from "./support.ts";

const isTitleRequest = (body: ReceivedRequest["body"]) => !body.stream && /Name this conversation/.test(body.messages[0]?.content ?? "");
/** What the title request gets: a name, or a failure. */
let titles: "name" | "fail" = "name";

describe("conversations named by the model in Chromium", { skip: chromiumMissing ? "no /usr/bin/chromium" : false }, () => {
  let c: Console;
  before(async () => {
    c = await openConsole(({ body }) => {
      if (!isTitleRequest(body)) return { content: "Stay in Alfama, the oldest quarter." };
      return titles === "name" ? { content: "Lisbon: where to stay" } : { status: 500, body: '{"error":{"message":"boom"}}' };
    });
    await logIn(c);
    await addScriptedProvider(c);
  });
  after(async () => {
    await c?.close();
  });

  async function firstExchange(): Promise<string> {
    const { page } = c;
    const before = page.url();
    await page.goto(`${c.daemon.url}/#/chat`);
    const side = page.getByRole("complementary", { name: "Conversations" });
    await side
      .getByRole("button", { name: "Start" })
      .or(page.getByRole("button", { name: "New chat" }))
      .first()
      .click();
    await page.waitForURL((url) => /#\/chat\/.+/.test(url.hash) && url.href !== before);
    const id = decodeURIComponent(page.url().split("#/chat/")[1]!);
    const message = page.getByLabel("Message", { exact: true });
    await message.fill("Which Lisbon neighbourhood has old tiled streets for a week's stay?");
    await message.press("Enter");
    await page.locator(".log").getByText("Stay in Alfama").waitFor();
    return id;
  }

  test("after the first exchange the list shows the model's name for the conversation", async () => {
    titles = "name";
    const id = await firstExchange();
    const entry = c.page.locator(`li[data-session="${id}"] a`);
    await entry.getByText("Lisbon: where to stay").waitFor();
    assert.equal(c.provider.requests.filter((r) => isTitleRequest(r.body)).length, 1);
  });

  test("when the model cannot name it, the name from the first message stays", async () => {
    titles = "fail";
    const asked = c.provider.requests.filter((r) => isTitleRequest(r.body)).length;
    const id = await firstExchange();
    const entry = c.page.locator(`li[data-session="${id}"] a`);
    await entry.getByText("Which Lisbon neighbourhood has old tiled…").waitFor();
    const answered = c.page.waitForResponse((r) => r.url().endsWith(`/api/sessions/${encodeURIComponent(id)}/title`));
    // The request may already have been answered; either way its failure changes nothing.
    await Promise.race([answered, new Promise((r) => setTimeout(r, 2_000))]);
    assert.equal(c.provider.requests.filter((r) => isTitleRequest(r.body)).length, asked + 1, "the model was asked");
    await c.page.reload();
    await c.page.locator(`li[data-session="${id}"] a`).getByText("Which Lisbon neighbourhood has old tiled…").waitFor();
  });
});

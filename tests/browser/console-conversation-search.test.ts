/**
 * The conversation list's search reaches what was said, in Chromium: a word said in one
 * conversation (in neither its name nor its partner's) finds it alone, in either case; a name
 * still matches at once; a word said nowhere shows that nothing matches. axe with a narrowed list.
 */
import { describe, test, before, after } from "node:test";
import assert from "node:assert/strict";
import type { Script } from "../support/scripted-provider.ts";
import { axeSerious, chromiumMissing, logIn, openConsole, type Console } from "./support.ts";

const script: Script = ({ body }) => (body.stream ? { content: "Noted." } : { content: "ok" });

describe("conversation search in Chromium", { skip: chromiumMissing ? "no /usr/bin/chromium" : false }, () => {
  let c: Console;
  const ids: Record<string, string> = {};
  before(async () => {
    c = await openConsole(script);
    await logIn(c);
    const made = await c.page.evaluate(async (baseUrl) => {
      const headers = { "content-type": "application/json", "x-homed-request": "1" };
      const post = async (path: string, body: unknown) => (await fetch(path, { method: "POST", headers, body: JSON.stringify(body) })).json();
      await post("/api/providers", { name: "Scripted", baseUrl, model: "scripted-model" });
      const chat = async (title: string, said: string) => {
        const { id } = await post("/api/sessions", { partner: "me", channel: "console", new: true, title });
        await (await fetch(`/api/sessions/${id}/messages`, { method: "POST", headers, body: JSON.stringify({ content: said }) })).text();
        return id as string;
      };
      return {
        garden: await chat("Weekend plans", "The allotment needs its Quince tree pruned before March."),
        bike: await chat("Errands", "Pick up the gravel bike from the shop on Friday."),
      };
    }, c.provider.url);
    Object.assign(ids, made);
  });
  after(async () => {
    await c?.close();
  });

  test("a word said in a conversation finds it; a name still matches; a word said nowhere matches nothing", async () => {
    const { page } = c;
    await page.goto(`${c.daemon.url}/#/chat/${ids.garden}`);
    const side = page.getByRole("complementary", { name: "Conversations" });
    const garden = side.locator(`li[data-session="${ids.garden}"]`);
    const bike = side.locator(`li[data-session="${ids.bike}"]`);
    await garden.waitFor();
    const find = side.getByRole("searchbox", { name: "Find a conversation" });

    await find.fill("quince");
    await garden.waitFor({ state: "visible" });
    assert.equal(await bike.isHidden(), true, "only the conversation that said it");
    assert.deepEqual(await axeSerious(page), [], "axe with a narrowed list");

    await find.fill("gravel bike");
    await bike.waitFor({ state: "visible" });
    assert.equal(await garden.isHidden(), true);

    await find.fill("errands");
    assert.equal(await bike.isVisible(), true, "a name matches at once");

    await find.fill("zeppelin");
    await side.getByText("No conversation matches.").waitFor();
    assert.equal(await side.locator("li[data-session]:visible").count(), 0);
  });
});

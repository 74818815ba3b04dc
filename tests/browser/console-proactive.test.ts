/**
 * Proactive turns in the console, in Chromium (issue 29): "remind me" in a conversation, and when
 * the reminder is due (2–3 s later) its woken answer appears in the open conversation without a
 * reload, with a live notice; a reminder of a conversation not being read marks it unread in the
 * list until it is opened; a conversation's mute switch is stored by the daemon. axe finds nothing
 * serious with a notice and a mark showing.
 */
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import type { Page } from "playwright-core";
import type { Script } from "../support/scripted-provider.ts";
import { addScriptedProvider, axeSerious, chromiumMissing, logIn, openConsole, type Console } from "./support.ts";

const lastUser = (body: any): string => String(body.messages.findLast((m: any) => m.role === "user")?.content ?? "");
const script: Script = ({ body }) => {
  if (!body.stream) return { content: "ok" };
  const last = body.messages.at(-1);
  if (last.role === "tool") return { content: "Reminder set." };
  const said = lastUser(body);
  if (said.startsWith("[homed: woken")) return { content: `Time to ${/"summary":"([^"]+)"/.exec(String(body.messages[0].content))?.[1]}!` };
  const asked = /TOOL (\S+) (\{.*\})/s.exec(said);
  if (asked) return { toolCalls: [{ id: `call_${Math.random().toString(36).slice(2)}`, name: asked[1]!, arguments: asked[2]! }] };
  return { content: "ok" };
};

const log = (page: Page) => page.getByRole("log");
const inSeconds = (s: number) => new Date(Date.now() + s * 1000).toISOString().replace(/\.\d+Z$/, "Z");
const remind = (summary: string, seconds: number) => `TOOL calendar_create ${JSON.stringify({ summary, start: inSeconds(seconds), durationMinutes: 5, remindMinutesBefore: 0 })}`;

async function startChat(page: Page, url: string, partner: string): Promise<string> {
  await page.goto(`${url}/#/chat`);
  await page.getByLabel("New conversation with").fill(partner);
  await page.getByRole("button", { name: "Start", exact: true }).click();
  await page.getByRole("heading", { name: new RegExp(`^${partner} · ${partner} · console$`), level: 2 }).waitFor();
  return decodeURIComponent(new URL(page.url()).hash.split("/")[2]!);
}
async function say(page: Page, text: string) {
  await page.getByLabel("Message").fill(text);
  await page.getByLabel("Message").press("Enter");
  await log(page).locator(".msg.assistant:not(.streaming) .answer").filter({ hasText: "Reminder set." }).waitFor({ timeout: 30_000 });
}

describe("proactive turns in the console", { skip: chromiumMissing ? "no /usr/bin/chromium" : false }, () => {
  let c: Console;
  let stretcher = "";
  before(async () => {
    c = await openConsole(script, { config: { plugins: { enabled: ["calendar"] } } });
    await logIn(c);
    await addScriptedProvider(c);
    const deadline = Date.now() + 60_000;
    while (!/calendar running/.test(c.daemon.stderr()) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
  });
  after(async () => {
    await c?.close();
  });

  test("a reminder due in a few seconds: its answer appears in the open conversation without a reload, with a live notice", async () => {
    const { page } = c;
    stretcher = await startChat(page, c.daemon.url, "stretcher");
    await say(page, remind("stretch", 2));
    await page.evaluate(() => ((window as any).notReloaded = true));
    await log(page).getByText("Time to stretch!").waitFor({ timeout: 30_000 });
    assert.equal(await page.evaluate(() => (window as any).notReloaded), true, "the page was reloaded");
    const note = page.locator(".live-note").filter({ hasText: "Time to stretch!" });
    await note.waitFor();
    assert.match(await note.innerText(), /^Reminder · /, "the notice says why homed spoke");
    assert.equal(await page.locator(".unread-mark").count(), 0, "the conversation being read is not marked unread");
  });

  test("a reminder of a conversation not being read marks it unread until opened; axe finds nothing serious", async () => {
    const { page } = c;
    const waterer = await startChat(page, c.daemon.url, "waterer");
    await say(page, remind("drink water", 4));
    await page.locator(`li[data-session="${stretcher}"] a`).click();
    await log(page).getByText("Time to stretch!").waitFor();
    const mark = page.locator(`li[data-session="${waterer}"] .unread-mark`);
    await mark.waitFor({ timeout: 30_000 });
    await page.locator(".live-note").filter({ hasText: "Time to drink water!" }).waitFor();
    assert.deepEqual(await axeSerious(page), []);
    await page.locator(`li[data-session="${waterer}"] a`).click();
    await log(page).getByText("Time to drink water!").waitFor();
    await mark.waitFor({ state: "detached" });
  });

  test("the conversation's mute switch is stored by the daemon", async () => {
    const { page } = c;
    const id = decodeURIComponent(new URL(page.url()).hash.split("/")[2]!);
    const toggle = page.getByLabel("Quiet: reminders and feeds do not wake this conversation");
    await toggle.check();
    const headers = { authorization: `Bearer ${c.token}` };
    const deadline = Date.now() + 5000;
    let mutes: any;
    do mutes = await (await fetch(`${c.daemon.url}/api/proactive/mutes`, { headers })).json();
    while (!mutes.sessions.includes(id) && Date.now() < deadline);
    assert.deepEqual(mutes.sessions, [id]);
    await page.reload();
    assert.equal(await page.getByLabel("Quiet: reminders and feeds do not wake this conversation").isChecked(), true);
  });
});

/**
 * The console on a phone (375 × 740) in Chromium, with real content (a conversation of twelve
 * long turns, a stored provider): the message box is in view as soon as a long chat opens, the
 * page is the one scroll (the log does not scroll inside it), the conversation list is a drawer a
 * button opens and Esc closes, the header is one row, and wide tables scroll sideways inside a
 * region a keyboard can reach — with no serious axe violation (scrollable-region-focusable among
 * them) in any of these states.
 */
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { axeSerious, chromiumMissing, logIn, openConsole, screenshot, type Console } from "./support.ts";

const PHONE = { width: 375, height: 740 };

/** Each answer is a paragraph, so twelve turns make a conversation several screens long. */
const ANSWER = "The boat is painted blue and moored at the north pier; the harbour master keeps its papers. ".repeat(4);

describe("the console at 375 px in Chromium", { skip: chromiumMissing ? "no /usr/bin/chromium" : false }, () => {
  let c: Console;
  let sessions: { id: string; partner: string }[];
  const call = (method: string, path: string, body?: unknown) =>
    fetch(`${c.daemon.url}${path}`, { method, headers: { authorization: `Bearer ${c.token}`, "content-type": "application/json" }, body: body === undefined ? undefined : JSON.stringify(body) });

  before(async () => {
    c = await openConsole(() => ({ content: ANSWER }));
    const added = await call("POST", "/api/providers", { name: "A provider with a rather long name", baseUrl: c.provider.url, model: "scripted-model-with-a-long-id" });
    assert.equal(added.status, 201, await added.text());
    // A long conversation with alice and a short one with bob, said through the API as the console would.
    for (const [partner, turns] of [
      ["alice", 12],
      ["bob", 1],
    ] as const) {
      const { id } = (await (await call("POST", "/api/sessions", { partner, channel: "console", new: true })).json()) as { id: string };
      for (let i = 0; i < turns; i++) await (await call("POST", `/api/sessions/${id}/messages`, { content: `Question ${i} from ${partner}` })).text();
    }
    sessions = ((await (await call("GET", "/api/sessions")).json()) as { sessions: { id: string; partner: string }[] }).sessions;
    await logIn(c);
    await c.page.setViewportSize(PHONE);
    // The drawer slides in; with reduced motion it is in place at once, so its box can be measured.
    await c.page.emulateMedia({ reducedMotion: "reduce" });
  });
  after(async () => {
    await c?.close();
  });

  const idOf = (partner: string) => sessions.find((s) => s.partner === partner)!.id;
  const inView = async (selector: string) => {
    const box = (await c.page.locator(selector).boundingBox())!;
    return box && box.y >= 0 && box.y + box.height <= PHONE.height && box.x >= 0 && box.x + box.width <= PHONE.width;
  };
  const noSideways = () => c.page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);

  test("a long chat opens with the message box in view, one scroll, and the header in one row", async () => {
    const { page } = c;
    await page.goto(`${c.daemon.url}/#/chat/${idOf("alice")}`);
    await page.locator(".log .msg").nth(23).waitFor();
    assert.ok(await inView("#message"), "the message box is not in the viewport after opening the chat");
    // The conversation opens at its end: the last answer is on the screen, above the docked box.
    const last = (await page.locator(".log .msg").last().boundingBox())!;
    const box = (await page.locator(".composer").boundingBox())!;
    assert.ok(last.y + last.height <= box.y + 1 && last.y + last.height > 0, `the last message is off the screen: ${JSON.stringify({ last, box })}`);
    assert.ok(await inView(".composer button[type=submit]"), "Send is not in the viewport");
    // One scroll: the page is taller than the screen, the log inside it is not a scroller of its own.
    const log = await page.locator(".log").evaluate((el) => ({ overflow: getComputedStyle(el).overflowY, inner: el.scrollHeight - el.clientHeight }));
    assert.equal(log.overflow, "visible");
    assert.ok(log.inner <= 1, `the log scrolls inside the page by ${log.inner} px`);
    assert.ok(await page.evaluate(() => document.documentElement.scrollHeight > window.innerHeight));
    // Scrolled to the top, the box is still docked at the bottom of the screen.
    await page.evaluate(() => window.scrollTo(0, 0));
    assert.ok(await inView("#message"), "the message box left the screen when the page scrolled");
    const header = (await page.locator("header#top").boundingBox())!;
    assert.ok(header.height < 60, `the header takes ${header.height} px (more than one row)`);
    assert.equal(await page.getByRole("button", { name: "Log out" }).isVisible(), false, "Log out sits in the header row instead of behind Menu");
    await page.getByRole("button", { name: "Menu" }).click();
    assert.equal(await page.getByRole("button", { name: "Log out" }).isVisible(), true, "Log out is not behind Menu");
    await page.getByRole("button", { name: "Menu" }).click();
    assert.equal(await noSideways(), 0);
    assert.deepEqual(await axeSerious(page), [], "axe: long chat at 375 px");
    await screenshot(page, "phone-chat");
  });

  test("the conversation list is a drawer: its button opens it, Esc and Close shut it, a choice opens that chat", async () => {
    const { page } = c;
    await page.goto(`${c.daemon.url}/#/chat/${idOf("alice")}`);
    const list = page.getByRole("complementary", { name: "Conversations" });
    const open = page.getByRole("button", { name: "Conversations", exact: true });
    await open.waitFor();
    assert.equal(await list.isVisible(), false, "the list shows before its button is pressed");
    assert.equal(await open.getAttribute("aria-expanded"), "false");
    await open.click();
    await list.waitFor({ state: "visible" });
    assert.equal(await open.getAttribute("aria-expanded"), "true");
    assert.ok(await inView("#conversation-drawer"), "the opened drawer is not on the screen");
    assert.deepEqual(await axeSerious(page), [], "axe: drawer open at 375 px");
    await screenshot(page, "phone-drawer");
    await page.keyboard.press("Escape");
    await list.waitFor({ state: "hidden" });
    // Focus returns to the drawer's button (on the next frame).
    await page.waitForFunction(() => document.activeElement?.textContent === "Conversations", undefined, { timeout: 5000 });
    await open.click();
    await page.getByRole("button", { name: "Close the list" }).click();
    await list.waitFor({ state: "hidden" });
    await open.click();
    await list.getByRole("link", { name: /bob/ }).click();
    await page.locator(".log .msg").filter({ hasText: "Question 0 from bob" }).waitFor();
    assert.equal(await list.isVisible(), false, "the drawer stays open after choosing a conversation");
    assert.ok(await inView("#message"));
  });

  test("the Context table scrolls sideways inside a focusable region, with real content", async () => {
    const { page } = c;
    await page.goto(`${c.daemon.url}/#/context/${idOf("alice")}`);
    const region = page.getByRole("region", { name: /^Live/ });
    await region.locator("tbody tr").first().waitFor();
    const sizes = await region.evaluate((el) => ({ scroll: el.scrollWidth, client: el.clientWidth, tab: el.tabIndex, cell: el.querySelector("td.text")!.getBoundingClientRect().width }));
    assert.ok(sizes.scroll > sizes.client, "the table does not scroll: it was squeezed into the screen");
    assert.ok(sizes.cell > 150, `the text column is ${sizes.cell} px wide (one character a line)`);
    assert.equal(sizes.tab, 0, "a keyboard cannot reach the scrolling region");
    assert.equal(await noSideways(), 0, "the page itself scrolls sideways");
    await region.focus();
    await page.keyboard.press("ArrowRight");
    await page.waitForFunction((el) => (el as HTMLElement).scrollLeft > 0, await region.elementHandle());
    assert.deepEqual(await axeSerious(page), [], "axe: Context at 375 px with content");
    await screenshot(page, "phone-context");
  });

  test("the providers table keeps its buttons reachable", async () => {
    const { page } = c;
    await page.goto(`${c.daemon.url}/#/providers`);
    const region = page.getByRole("region", { name: "Providers" });
    const edit = region.getByRole("button", { name: "Edit" });
    await edit.waitFor();
    await edit.click();
    await page.getByRole("heading", { name: /^Edit/ }).waitFor();
    assert.equal(await noSideways(), 0);
    assert.deepEqual(await axeSerious(page), [], "axe: providers at 375 px");
  });
});

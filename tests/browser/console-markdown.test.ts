/**
 * Answers are Markdown, rendered safely, in Chromium: headings, lists, tables, code blocks and
 * links render; script tags, event handlers and javascript: links in a model's answer never
 * run, during the stream or after a reload; links open in a new tab that cannot reach the
 * console. While the model has not said anything yet, the turn says it is thinking.
 */
import { describe, test, before, after } from "node:test";
import assert from "node:assert/strict";
import type { Page } from "playwright-core";
import type { Script } from "../support/scripted-provider.ts";
import { chromiumMissing, logIn, openConsole, type Console, addScriptedProvider } from "./support.ts";

const ANSWER = [
  "## Boats",
  "",
  "- **blue** boat",
  "- red boat",
  "",
  "| colour | count |",
  "| --- | --- |",
  "| blue | 2 |",
  "",
  "```",
  'let boat = "<b>not bold</b>";',
  "```",
  "",
  "[the harbour](https://example.org/harbour) and [a trap](javascript:window.__pwned='link')",
  "",
  "<script>window.__pwned = 'script'</script>",
  "<img src=x onerror=\"window.__pwned = 'img'\">",
  '<a href="https://example.org" onclick="window.__pwned = \'onclick\'">raw link</a>',
  "<p onmouseover=\"window.__pwned = 'hover'\">hover me</p>",
].join("\n");

const script: Script = ({ body }) => (body.stream ? { content: ANSWER, delayMs: 600 } : { content: "ok" });

/** What the rendered answer holds, and whether anything in it ran. */
async function inspect(page: Page) {
  return await page
    .locator(".msg.assistant .answer")
    .last()
    .evaluate((answer) => ({
      pwned: (window as unknown as { __pwned?: string }).__pwned ?? null,
      heading: answer.querySelector("h2")?.textContent ?? null,
      items: [...answer.querySelectorAll("li")].map((li) => li.textContent),
      strong: answer.querySelector("li strong")?.textContent ?? null,
      cells: [...answer.querySelectorAll("td")].map((td) => td.textContent),
      code: answer.querySelector("pre code")?.textContent ?? null,
      bold: answer.querySelectorAll("pre b").length,
      scripts: answer.querySelectorAll("script, img, [onclick], [onerror], [onmouseover]").length,
      links: [...answer.querySelectorAll("a")].map((a) => ({ text: a.textContent, href: a.getAttribute("href"), target: a.getAttribute("target"), rel: a.getAttribute("rel") })),
    }));
}

describe("Markdown answers in Chromium", { skip: chromiumMissing ? "no /usr/bin/chromium" : false }, () => {
  let c: Console;
  before(async () => {
    c = await openConsole(script);
    await logIn(c);
    await addScriptedProvider(c);
  });
  after(async () => {
    await c?.close();
  });

  test("while waiting the turn says homed is thinking; the answer renders as Markdown and nothing in it runs", async () => {
    const { page } = c;
    await page.getByRole("link", { name: "Chat", exact: true }).click();
    await page.getByLabel("New conversation with").fill("me");
    await page.getByRole("button", { name: "Start" }).click();
    await page.getByLabel("Message").fill("Tell me about boats");
    await page.getByRole("button", { name: "Send" }).click();
    await page.locator(".msg.assistant.streaming").getByText("homed is thinking…").waitFor();
    await page.locator(".msg.assistant:not(.streaming) .answer h2").waitFor();
    assert.equal(await page.getByText("homed is thinking…").count(), 0, "the thinking line stays after the answer");
    await page.locator(".msg.assistant .answer").last().getByText("hover me").hover();
    await page.locator(".msg.assistant .answer a", { hasText: "a trap" }).click();
    const seen = await inspect(page);
    assert.deepEqual(seen, {
      pwned: null,
      heading: "Boats",
      items: ["blue boat", "red boat"],
      strong: "blue",
      cells: ["blue", "2"],
      code: 'let boat = "<b>not bold</b>";\n',
      bold: 0,
      scripts: 0,
      links: [
        { text: "the harbour", href: "https://example.org/harbour", target: "_blank", rel: "noopener noreferrer" },
        { text: "a trap", href: null, target: null, rel: null },
        { text: "raw link", href: "https://example.org", target: "_blank", rel: "noopener noreferrer" },
      ],
    });
  });

  test("after a reload the stored answer renders the same, and still nothing runs", async () => {
    const { page } = c;
    await page.reload();
    await page.locator(".msg.assistant .answer h2").waitFor();
    await page.locator(".msg.assistant .answer").last().getByText("hover me").hover();
    const seen = await inspect(page);
    assert.equal(seen.pwned, null);
    assert.equal(seen.scripts, 0);
    assert.deepEqual(seen.cells, ["blue", "2"]);
    assert.equal(seen.links[0]!.rel, "noopener noreferrer");
  });
});

/**
 * Code and tables in answers, in Chromium: a fenced block in a known language is highlighted
 * (highlight.js, bundled) and every block has a Copy button that copies the code as written;
 * Markdown's column alignment (`:---:`, `---:`) is kept. axe finds nothing serious.
 */
import { describe, test, before, after } from "node:test";
import assert from "node:assert/strict";
import type { Script } from "../support/scripted-provider.ts";
import { axeSerious, chromiumMissing, logIn, openConsole, type Console, addScriptedProvider } from "./support.ts";

const CODE = 'const boat: string = "blue"; // the colour\nfunction sail(n: number) {\n  return n + 1;\n}';
const ANSWER = ["Here:", "", "```ts", CODE, "```", "", "```", "plain <b>text</b>", "```", "", "| name | count | price |", "| :--- | :---: | ---: |", "| boat | 2 | 10.50 |"].join("\n");
const script: Script = ({ body }) => (body.stream ? { content: ANSWER } : { content: "ok" });

describe("code blocks and table alignment in Chromium", { skip: chromiumMissing ? "no /usr/bin/chromium" : false }, () => {
  let c: Console;
  before(async () => {
    c = await openConsole(script);
    await c.context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: c.daemon.url });
    await logIn(c);
    await addScriptedProvider(c);
  });
  after(async () => {
    await c?.close();
  });

  test("a TypeScript block is highlighted and copies as written; a plain one is not highlighted; columns keep their alignment", async () => {
    const { page } = c;
    await page.goto(`${c.daemon.url}/#/chat`);
    await page.getByLabel("New conversation with").fill("me");
    await page.getByRole("button", { name: "Start" }).click();
    await page.getByLabel("Message").fill("Show me code");
    await page.getByLabel("Message").press("Enter");
    const answer = page.locator(".msg.assistant:not(.streaming) .answer");
    await answer.locator("table").waitFor();
    for (const when of ["live", "after a reload"]) {
      const blocks = answer.locator(".code-block");
      assert.equal(await blocks.count(), 2, when);
      const ts = blocks.first().locator("pre code");
      assert.equal(await ts.textContent(), `${CODE}\n`, `${when}: the highlighted code is not the code`);
      const kinds = await ts.evaluate((code) => [...new Set([...code.querySelectorAll("span[class^=hljs-]")].map((s) => s.className))].sort());
      for (const kind of ["hljs-comment", "hljs-keyword", "hljs-number", "hljs-string"]) assert.ok(kinds.includes(kind), `${when}: no ${kind} in ${kinds}`);
      // Coloured, not only classed: the console's stylesheet gives keywords their colour.
      assert.notEqual(
        await ts
          .locator(".hljs-keyword")
          .first()
          .evaluate((s) => getComputedStyle(s).color),
        await ts.evaluate((code) => getComputedStyle(code).color),
      );
      const plain = blocks.nth(1).locator("pre code");
      assert.equal(await plain.textContent(), "plain <b>text</b>\n");
      assert.equal(await plain.locator("span, b").count(), 0, `${when}: a block without a language was marked up`);
      const aligned = await answer
        .locator("table tr")
        .nth(1)
        .evaluate((tr) => [...tr.children].map((td) => getComputedStyle(td).textAlign));
      assert.deepEqual(aligned, ["left", "center", "right"], `${when}: the columns lost their alignment`);
      if (when === "live") {
        await page.reload();
        await answer.locator("table").waitFor();
      }
    }
    await answer.getByRole("button", { name: "Copy code" }).first().click();
    await answer.getByRole("button", { name: "Copied" }).waitFor();
    assert.equal(await page.evaluate(() => navigator.clipboard.readText()), CODE);
    for (const scheme of ["light", "dark"] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      await page.waitForFunction((want) => document.documentElement.dataset.theme === want, scheme);
      assert.deepEqual(await axeSerious(page), [], `axe, ${scheme}`);
    }
  });
});

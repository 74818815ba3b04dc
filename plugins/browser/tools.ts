import type { Locator, Page } from "playwright-core";
import { defineTool, ImageOutput, ToolFailure, z, type Lifecycle, type ToolDefinition } from "../sdk/index.ts";
import { readableText } from "../web-fetch/readable.ts";
import { Tabs } from "./tabs.ts";
import type { Config } from "./config.ts";

const Tab = z.string().min(1).max(20).optional().describe("tab id from browser_open (default: the tab used last)");
const MAX_LINKS = 100;

/** The browser plugin's tools, loaded only in its own process (its libraries stay out of the others'). */
export function browserTools(config: Config, lifecycle: Lifecycle): ToolDefinition[] {
  const tabs = new Tabs({
    ...(config.executablePath ? { executablePath: config.executablePath } : {}),
    timeoutMs: config.timeoutMs,
    idleMs: config.idleMs,
    maxTabs: config.maxTabs,
    viewport: { width: config.width, height: config.height },
  });
  lifecycle.onClose(() => tabs.shutdown());
  const where = async (tab: string, page: Page) => ({ tab, url: page.url(), title: await page.title().catch(() => "") });

  return [
    defineTool({
      name: "browser_open",
      description: "Open an http(s) URL in a new tab, or in `tab` if given. Returns the tab id, final URL, status and title.",
      input: z.object({ url: z.string().min(1).max(8000), tab: Tab }),
      run: ({ url, tab: id }) =>
        act(async () => {
          let parsed: URL;
          try {
            parsed = new URL(url);
          } catch {
            throw new ToolFailure("bad_url", `Cannot open ${url}: not a URL`);
          }
          if (parsed.protocol !== "http:" && parsed.protocol !== "https:") throw new ToolFailure("bad_url", `Cannot open ${url}: only http and https are allowed`);
          const { tab, launched } = id ? { tab: tabs.get(id), launched: false } : await tabs.open();
          const response = await tab.page.goto(parsed.href, { waitUntil: "load" });
          return { ...(await where(tab.id, tab.page)), status: response?.status() ?? null, launched };
        }),
    }),
    defineTool({
      name: "browser_read",
      description: "The page's readable text (title and main content, as web_fetch gives it) and its links, as the page is now (after clicks and scripts).",
      input: z.object({ tab: Tab, maxChars: z.number().int().positive().max(config.maxChars).optional() }),
      run: ({ tab: id, maxChars }) =>
        act(async () => {
          const { id: tab, page } = tabs.get(id);
          const html = await page.content();
          const bytes = Buffer.byteLength(html);
          const cut = bytes > config.maxBytes ? Buffer.from(html).subarray(0, config.maxBytes).toString() : html;
          const { title, text } = readableText(cut);
          const links = await page.$$eval("a[href]", (anchors) =>
            anchors.map((a) => ({ text: ((a as HTMLElement).innerText ?? "").trim().replace(/\s+/g, " "), href: (a as HTMLAnchorElement).href })),
          );
          const limit = maxChars ?? config.maxChars;
          return {
            tab,
            url: page.url(),
            title: title || (await page.title()),
            text: text.slice(0, limit),
            truncated: bytes > config.maxBytes || text.length > limit,
            links: links.filter((l) => l.text && /^https?:/.test(l.href)).slice(0, MAX_LINKS),
          };
        }),
    }),
    defineTool({
      name: "browser_click",
      description: "Click a link, button or other element, found by its visible text or by a CSS selector; waits for any page it opens.",
      input: z.union([z.strictObject({ text: z.string().min(1).max(500), tab: Tab }), z.strictObject({ selector: z.string().min(1).max(1000), tab: Tab })]),
      run: (args) =>
        act(async () => {
          const { id: tab, page } = tabs.get(args.tab);
          const target = "selector" in args ? page.locator(args.selector) : byVisibleText(page, args.text);
          await exists(target, "selector" in args ? `selector ${args.selector}` : `"${args.text}"`);
          await target.first().click();
          await page.waitForLoadState("load");
          return where(tab, page);
        }),
    }),
    defineTool({
      name: "browser_type",
      description: "Fill a text field, found by its label, placeholder or name (into) or by a CSS selector; submit: true presses Enter afterwards.",
      input: z.union([
        z.strictObject({ into: z.string().min(1).max(500), text: z.string().max(10_000), submit: z.boolean().default(false), tab: Tab }),
        z.strictObject({ selector: z.string().min(1).max(1000), text: z.string().max(10_000), submit: z.boolean().default(false), tab: Tab }),
      ]),
      run: (args) =>
        act(async () => {
          const { id: tab, page } = tabs.get(args.tab);
          const field =
            "selector" in args
              ? page.locator(args.selector)
              : page
                  .getByLabel(args.into)
                  .or(page.getByPlaceholder(args.into))
                  .or(page.getByRole("textbox", { name: args.into }));
          await exists(field, "selector" in args ? `selector ${args.selector}` : `a field "${args.into}"`);
          await field.first().fill(args.text);
          if (args.submit) {
            await field.first().press("Enter");
            await page.waitForLoadState("load");
          }
          return where(tab, page);
        }),
    }),
    defineTool({
      name: "browser_screenshot",
      description: "A PNG screenshot of the tab's viewport (fullPage: true for the whole page), as an image.",
      input: z.object({ tab: Tab, fullPage: z.boolean().default(false) }),
      run: ({ tab: id, fullPage }) =>
        act(async () => {
          const { id: tab, page } = tabs.get(id);
          const png = await page.screenshot({ type: "png", fullPage });
          // PNG's IHDR: width and height are the big-endian words at bytes 16 and 20.
          const view = new DataView(png.buffer, png.byteOffset, png.byteLength);
          return new ImageOutput({ data: png, mimeType: "image/png" }, { ...(await where(tab, page)), width: view.getUint32(16), height: view.getUint32(20), bytes: png.length });
        }),
    }),
    defineTool({
      name: "browser_close",
      description: "Close a tab (or every tab); the browser itself closes with its last tab.",
      input: z.object({ tab: z.string().min(1).max(20).optional().describe("tab id; absent: every tab") }),
      run: async ({ tab }) => ({ closed: await tabs.close(tab) }),
    }),
  ];
}

/** A link or button named `text`, else any element showing it. */
function byVisibleText(page: Page, text: string): Locator {
  return page
    .getByRole("link", { name: text })
    .or(page.getByRole("button", { name: text }))
    .or(page.getByText(text));
}

async function exists(locator: Locator, what: string): Promise<void> {
  if ((await locator.count()) === 0) throw new ToolFailure("not_found", `Nothing on the page matches ${what}`, { next_action: "call browser_read to see the page's text and links" });
}

/** Playwright's failures as the model's codes: a deadline is `timeout`, a refused load `network`. */
async function act<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof ToolFailure) throw error;
    const message = (error as Error).message.split("\n")[0] ?? "";
    if ((error as Error).name === "TimeoutError") throw new ToolFailure("timeout", message);
    if (/net::ERR_/.test(message)) throw new ToolFailure("network", message);
    throw error;
  }
}

/**
 * The plugin's one headless Chromium, started on first use and closed when no tool has touched
 * it for `idleMs`. Each tab is its own browser context (its own cookies), so two conversations
 * that each open a tab do not see each other's logins. Only http(s) pages load: every other
 * request (file:, chrome:, …) is aborted in the context's router.
 */
import { chromium, type Browser, type BrowserContext, type Page } from "playwright-core";
import { ToolFailure } from "../sdk/index.ts";
import { findChromium, INSTALL_HINT } from "./chromium.ts";

export type TabSettings = { executablePath?: string; timeoutMs: number; idleMs: number; maxTabs: number; viewport: { width: number; height: number } };

type Tab = { id: string; context: BrowserContext; page: Page };

const ALLOWED = /^(https?|data|blob|about):/;

export class Tabs {
  private browser?: Promise<Browser>;
  private readonly tabs = new Map<string, Tab>();
  private latest?: string;
  private idle?: ReturnType<typeof setTimeout>;
  private counter = 0;
  /** How many times a browser was started (a test sees the idle close through it). */
  launches = 0;

  constructor(private readonly settings: TabSettings) {}

  /** A new tab; `launched` says whether a browser had to be started for it. */
  async open(): Promise<{ tab: Tab; launched: boolean }> {
    if (this.tabs.size >= this.settings.maxTabs) throw new ToolFailure("too_many_tabs", `Cannot open a tab: ${this.settings.maxTabs} are open; close one with browser_close`);
    const launched = !this.browser;
    const browser = await this.ensureBrowser();
    const context = await browser.newContext({ viewport: this.settings.viewport, acceptDownloads: false, serviceWorkers: "block" });
    context.setDefaultTimeout(this.settings.timeoutMs);
    context.setDefaultNavigationTimeout(this.settings.timeoutMs);
    await context.route("**/*", (route) => (ALLOWED.test(route.request().url()) ? route.continue() : route.abort("blockedbyclient")));
    const page = await context.newPage();
    const tab = { id: `tab${++this.counter}`, context, page };
    this.tabs.set(tab.id, tab);
    this.latest = tab.id;
    this.touch();
    return { tab, launched };
  }

  /** The named tab, or the one used last. */
  get(id?: string): Tab {
    const tab = this.tabs.get(id ?? this.latest ?? "");
    if (!tab) {
      throw new ToolFailure("no_tab", id ? `No tab ${id}: it was closed (or the browser closed when idle)` : "No tab is open", { next_action: "call browser_open with a URL" });
    }
    this.latest = tab.id;
    this.touch();
    return tab;
  }

  async close(id?: string): Promise<string[]> {
    const ids = id ? [this.get(id).id] : [...this.tabs.keys()];
    for (const tabId of ids) {
      const tab = this.tabs.get(tabId)!;
      this.tabs.delete(tabId);
      await tab.context.close().catch(() => {});
    }
    if (this.tabs.size === 0) await this.shutdown();
    return ids;
  }

  async shutdown(): Promise<void> {
    clearTimeout(this.idle);
    const browser = this.browser;
    this.browser = undefined;
    this.tabs.clear();
    this.latest = undefined;
    if (browser) await (await browser.catch(() => undefined))?.close().catch(() => {});
  }

  private ensureBrowser(): Promise<Browser> {
    if (!this.browser) {
      const executablePath = this.settings.executablePath ?? findChromium();
      if (!executablePath) throw new ToolFailure("no_browser", `No Chromium on this machine: ${INSTALL_HINT}`);
      this.launches++;
      this.browser = chromium.launch({ executablePath, headless: true, timeout: this.settings.timeoutMs }).catch((error: unknown) => {
        this.browser = undefined;
        throw new ToolFailure("no_browser", `Cannot start Chromium at ${executablePath}: ${(error as Error).message.split("\n")[0]}`);
      });
      // A browser that crashed or was killed is started afresh on the next call.
      void this.browser.then((b) => b.on("disconnected", () => void this.forget(b))).catch(() => {});
    }
    return this.browser;
  }

  private async forget(browser: Browser): Promise<void> {
    if (this.browser && (await this.browser.catch(() => undefined)) === browser) {
      this.browser = undefined;
      this.tabs.clear();
    }
  }

  private touch(): void {
    clearTimeout(this.idle);
    this.idle = setTimeout(() => void this.shutdown(), this.settings.idleMs);
  }
}

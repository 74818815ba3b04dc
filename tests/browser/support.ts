/**
 * Browser-test support: Debian's Chromium driven by playwright-core (never a downloaded
 * browser), a fresh profile per run, a daemon from source with a scripted provider, and a log of
 * every request the page makes so a test can prove nothing left 127.0.0.1.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { chromium, type BrowserContext, type Page } from "playwright-core";
import { ROOT, run, SOURCE_HOMED, startDaemon, type Daemon } from "../support/process.ts";
import { startScriptedProvider, type Script, type ScriptedAudio, type ScriptedProvider } from "../support/scripted-provider.ts";
import { tempDir } from "../support/temp-dir.ts";

export const CHROMIUM = "/usr/bin/chromium";
export const chromiumMissing = !existsSync(CHROMIUM);
/** Screenshots land here (git-ignored), one per page and width. */
export const ARTIFACTS = join(ROOT, "tests/browser/artifacts");

export const DESKTOP = { width: 1280, height: 800 };
export const PHONE = { width: 390, height: 844 };

export type Console = {
  daemon: Daemon;
  provider: ScriptedProvider;
  context: BrowserContext;
  page: Page;
  dataDir: string;
  token: string;
  /** Every URL the browser requested, in order. */
  requests: string[];
  close(): Promise<void>;
};

/**
 * Debian's Chromium with a fresh profile; every URL it requests is recorded. `locale` is the
 * browser's language (navigator.languages), which the console follows until one is chosen.
 */
export async function launchChromium(locale = "en-US", extraArgs: readonly string[] = []): Promise<{ context: BrowserContext; page: Page; requests: string[]; close(): Promise<void> }> {
  const profile = tempDir("homed-chromium-");
  const context = await chromium.launchPersistentContext(profile.path, {
    executablePath: CHROMIUM,
    headless: true,
    viewport: DESKTOP,
    locale,
    args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync", ...extraArgs],
  });
  const page = context.pages()[0] ?? (await context.newPage());
  const requests: string[] = [];
  context.on("request", (r) => void requests.push(r.url()));
  mkdirSync(ARTIFACTS, { recursive: true });
  // The profile goes once Chromium has exited: it writes there until then.
  const close = async () => {
    await context.close();
    profile.remove();
  };
  return { context, page, requests, close };
}

/**
 * `audio`: the provider's audio endpoints; `chromiumArgs`: more switches (a fake microphone);
 * `config`: the daemon's homed.json, when the test needs one (plugins to enable…); `env`: the
 * daemon's environment on top of this one's.
 */
export async function openConsole(
  script: Script,
  options: { history?: object[]; locale?: string; audio?: ScriptedAudio; chromiumArgs?: readonly string[]; config?: object; env?: Record<string, string> } = {},
): Promise<Console> {
  const provider = await startScriptedProvider(script, options.audio);
  const data = tempDir("homed-browser-");
  const dataDir = data.path;
  if (options.history) {
    const file = join(dataDir, "history.jsonl");
    writeFileSync(file, options.history.map((m) => JSON.stringify(m)).join("\n"));
    const imported = await run([...SOURCE_HOMED, "import", "-data", dataDir, file]);
    if (imported.code !== 0) throw new Error(`import failed: ${imported.stderr}`);
  }
  if (options.config) writeFileSync(join(dataDir, "homed.json"), JSON.stringify(options.config));
  const env = { ...process.env, ...options.env };
  for (const name of ["HOMED_BASE_URL", "HOMED_MODEL", "HOMED_API_KEY", "HOMED_DATA"]) delete env[name];
  const daemon = await startDaemon([...SOURCE_HOMED, "-data", dataDir, "-addr", "127.0.0.1:0"], { env });
  const token = readFileSync(join(dataDir, "admin.token"), "utf8").trim();
  const browser = await launchChromium(options.locale, options.chromiumArgs);
  const { context, page, requests } = browser;
  return {
    daemon,
    provider,
    context,
    page,
    dataDir,
    token,
    requests,
    async close() {
      await browser.close();
      await daemon.stop();
      await provider.close();
      data.remove();
    },
  };
}

export async function logIn(c: { page: Page; token: string; daemon: { url: string } }): Promise<void> {
  await c.page.goto(c.daemon.url);
  await c.page.getByLabel("Admin token").fill(c.token);
  // Wait for the login's answer and for the form to go: the navigation is in the page from the
  // start, so waiting for it alone raced the login on a loaded machine (no cookie yet).
  const answered = c.page.waitForResponse((r) => r.url().endsWith("/api/login") && r.request().method() === "POST");
  await c.page.getByLabel("Admin token").press("Enter");
  await answered;
  await c.page.getByLabel("Admin token").waitFor({ state: "detached" });
  await c.page.getByRole("navigation", { name: "Console" }).waitFor();
}

/** The scripted provider added through the Providers page, as a person would; waits for its row. */
export async function addScriptedProvider(c: { page: Page; provider: { url: string } }): Promise<void> {
  await c.page.getByRole("link", { name: "Providers" }).click();
  await c.page.getByLabel("Name").fill("Scripted");
  await c.page.getByLabel("Base URL").fill(c.provider.url);
  await c.page.getByLabel("Model").fill("scripted-model");
  await c.page.getByRole("button", { name: "Add provider" }).click();
  await c.page.locator("tr[data-provider=Scripted]").waitFor();
}

export async function screenshot(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: join(ARTIFACTS, `${name}.png`), fullPage: true });
}

/** axe-core (npm), evaluated into the page through the browser's debugging protocol (the console's CSP forbids any other script). */
const AXE = readFileSync(join(ROOT, "node_modules/axe-core/axe.min.js"), "utf8");

/** The page's serious and critical accessibility violations by axe-core, each with where. */
export async function axeSerious(page: Page): Promise<string[]> {
  await page.evaluate(AXE);
  return await page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run(context: Document, options: object): Promise<{ violations: { id: string; impact: string; nodes: { target: string[] }[] }[] }> } }).axe;
    const { violations } = await axe.run(document, { resultTypes: ["violations"] });
    return violations
      .filter((v) => v.impact === "serious" || v.impact === "critical")
      .map(
        (v) =>
          `${v.id} (${v.impact}): ${v.nodes
            .slice(0, 3)
            .map((n) => n.target.join(" "))
            .join(", ")}`,
      );
  });
}

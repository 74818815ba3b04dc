/**
 * What the everyday-tool plugins cost per call, each through a real plugin process (from
 * source) against loopback: web_fetch of a page (the baseline: plain HTTP, no browser) beside
 * browser_open of the same page cold (Chromium started) and warm, browser_read and a screenshot,
 * Chromium's memory while open; rss_read of an unchanged feed (a 304) beside a changed one;
 * code_run of a one-line Python snippet without a sandbox (the baseline) and in bubblewrap.
 *
 *   bun bench/plugins/tools.ts
 */
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { randomUUID } from "node:crypto";
import { builtinSpec } from "../../plugins/index.ts";
import { createPluginHost } from "../../src/plugins/index.ts";
import { SOURCE_HOMED } from "../../tests/support/process.ts";

const RUNS = 15;
const PAGE = `<html><head><title>Bench</title></head><body><article><h1>Bench page</h1><p>${"Some text to read. ".repeat(200)}</p></article></body></html>`;
let feedVersion = 0;
const feed = () =>
  `<?xml version="1.0"?><rss version="2.0"><channel><title>B</title>${Array.from({ length: 50 }, (_, i) => `<item><title>Item ${i + feedVersion}</title><guid>g${i + feedVersion}</guid></item>`).join("")}</channel></rss>`;
const server = createServer((req, res) => {
  if (req.url === "/feed.xml") {
    const etag = `"v${feedVersion}"`;
    if (req.headers["if-none-match"] === etag) return res.writeHead(304, { etag }).end();
    return res.writeHead(200, { "content-type": "application/rss+xml", etag }).end(feed());
  }
  res.writeHead(200, { "content-type": "text/html" }).end(PAGE);
});
await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
const dir = mkdtempSync(join(tmpdir(), "homed-tools-bench-"));
const marker = `tools-bench-${randomUUID()}`;
const withMarker = (spec: ReturnType<typeof builtinSpec>) => ({ ...spec, env: { ...spec.env, HOMED_BENCH_MARKER: marker } });
const host = createPluginHost(
  [
    builtinSpec("web_fetch", SOURCE_HOMED, {}),
    withMarker(builtinSpec("browser", SOURCE_HOMED, {})),
    builtinSpec("rss", SOURCE_HOMED, { dir: join(dir, "rss") }),
    builtinSpec("code", SOURCE_HOMED, { dir: join(dir, "code") }),
    { ...builtinSpec("code", SOURCE_HOMED, { dir: join(dir, "code"), sandbox: false }), name: "code_plain", provides: [] },
  ],
  { graceMs: 2000 },
);
await host.start();

const time = async (call: () => Promise<unknown>) => {
  const started = performance.now();
  const result = (await call()) as { isError?: boolean; content?: unknown };
  if (result.isError) throw new Error(JSON.stringify(result.content));
  return performance.now() - started;
};
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const row = (label: string, ms: number[]) => console.log(`| ${label} | ${median(ms).toFixed(1)} ms | ${Math.max(...ms).toFixed(1)} ms | ${ms.length} |`);
/** Resident memory of the browser's processes (the plugin's children carrying the marker). */
const chromiumRssMb = () =>
  readdirSync("/proc")
    .filter((pid) => /^\d+$/.test(pid))
    .filter((pid) => {
      try {
        return readFileSync(`/proc/${pid}/environ`, "utf8").includes(marker) && readFileSync(`/proc/${pid}/cmdline`, "utf8").includes("chrom");
      } catch {
        return false;
      }
    })
    .reduce((sum, pid) => sum + Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1] ?? 0), 0) / 1024;

console.log("| call | median | max | runs |");
console.log("|---|---:|---:|---:|");
const runs = async (call: () => Promise<unknown>, n = RUNS) => {
  const ms: number[] = [];
  for (let i = 0; i < n; i++) ms.push(await time(call));
  return ms;
};
row("web_fetch of the page (baseline)", await runs(() => host.callTool("web_fetch", "web_fetch", { url: `${base}/` })));
row("browser_open, cold (Chromium starts)", [await time(() => host.callTool("browser", "browser_open", { url: `${base}/` }))]);
row("browser_open, warm (same tab)", await runs(() => host.callTool("browser", "browser_open", { url: `${base}/`, tab: "tab1" })));
row("browser_read", await runs(() => host.callTool("browser", "browser_read", {})));
row("browser_screenshot (1280×800 PNG)", await runs(() => host.callTool("browser", "browser_screenshot", {})));
console.log(`\nChromium resident memory with one tab open: ${chromiumRssMb().toFixed(0)} MB (sum of its processes' VmRSS)\n`);
await host.callTool("rss", "rss_subscribe", { url: `${base}/feed.xml` });
console.log("| call | median | max | runs |");
console.log("|---|---:|---:|---:|");
row("rss_read, feed unchanged (304)", await runs(() => host.callTool("rss", "rss_read", {})));
row("rss_read, feed changed (200, 50 items parsed)", await runs(() => (feedVersion++, host.callTool("rss", "rss_read", {}))));
row("code_run: print(1) in Python, no sandbox (baseline)", await runs(() => host.callTool("code_plain", "code_run", { language: "python", code: "print(1)" })));
row("code_run: print(1) in Python, in bubblewrap", await runs(() => host.callTool("code", "code_run", { language: "python", code: "print(1)" })));

await host.stopAll();
server.close();
rmSync(dir, { recursive: true, force: true });

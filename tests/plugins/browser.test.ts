/**
 * browser as a real plugin process driving the machine's Chromium against pages served on
 * 127.0.0.1: a link followed, a form filled and sent, a screenshot whose pixels are checked;
 * refusals as data; the browser closed when idle; a clear answer when there is no Chromium.
 */
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { randomUUID } from "node:crypto";
import { decode } from "fast-png";
import { builtinSpec } from "../../plugins/index.ts";
import { findChromium } from "../../plugins/browser/chromium.ts";
import { createPluginHost, type CallToolResult, type PluginHost } from "../../src/plugins/index.ts";
import { processesWhose, SOURCE_HOMED } from "../support/process.ts";

const HOME = `<!doctype html><html><head><title>Otter shop</title><style>body{margin:0} #banner{width:200px;height:100px;background:#ff0000}</style></head>
<body><div id="banner"></div><main><h1>Otter shop</h1><p>${"We sell stones for otters to keep under their arm. ".repeat(6)}</p>
<p><a href="/next">Next page</a> · <a href="/form">Order form</a></p></main></body></html>`;
const NEXT = `<!doctype html><html><head><title>Next</title></head><body><article><h1>The second page</h1><p>${"You followed the link to the second page of the otter shop. ".repeat(5)}</p></article></body></html>`;
const FORM = `<!doctype html><html><head><title>Order</title></head><body><form action="/thanks" method="get">
<label for="n">Your name</label> <input id="n" name="name"> <input name="stone" placeholder="Stone colour"> <button type="submit">Send order</button></form></body></html>`;

/** Live processes whose environment holds `marker` (the plugin, and the Chromium it started). */
const processesWith = (marker: string) => processesWhose("environ", marker);

describe("browser plugin", { skip: findChromium() ? false : "no Chromium on this machine" }, () => {
  let server: Server;
  let base = "";
  let host: PluginHost;
  const marker = `browser-test-${randomUUID()}`;
  before(async () => {
    server = createServer((req, res) => {
      const url = new URL(req.url ?? "/", "http://x");
      const html = (body: string) => res.writeHead(200, { "content-type": "text/html; charset=utf-8" }).end(body);
      if (url.pathname === "/") return html(HOME);
      if (url.pathname === "/next") return html(NEXT);
      if (url.pathname === "/form") return html(FORM);
      if (url.pathname === "/thanks")
        return html(`<html><head><title>Thanks</title></head><body><p>Thanks, ${url.searchParams.get("name")}: one ${url.searchParams.get("stone")} stone.</p></body></html>`);
      if (url.pathname === "/slow") return void res.writeHead(200, { "content-type": "text/html" }).write("<html><body>loading");
      res.writeHead(404).end("no");
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const spec = builtinSpec("browser", SOURCE_HOMED, { timeoutMs: 1000, width: 640, height: 400, idleMs: 60_000 });
    host = createPluginHost([{ ...spec, env: { ...spec.env, HOMED_TEST_MARKER: marker } }], { graceMs: 2000 });
    await host.start();
  });
  after(async () => {
    await host?.stopAll();
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });
  const raw = (tool: string, args: Record<string, unknown> = {}) => host.callTool("browser", tool, args);
  const call = async (tool: string, args: Record<string, unknown> = {}) => {
    const result: CallToolResult = await raw(tool, args);
    return { isError: result.isError ?? false, ...(result.structuredContent as Record<string, any>) } as Record<string, any>;
  };

  test("open, read (readable text and links), follow a link by its text", async () => {
    const opened = await call("browser_open", { url: `${base}/` });
    assert.equal(opened.isError, false, JSON.stringify(opened));
    assert.deepEqual([opened.tab, opened.status, opened.title, opened.launched], ["tab1", 200, "Otter shop", true]);
    const page = await call("browser_read");
    assert.match(page.text, /We sell stones for otters/);
    assert.deepEqual(page.links, [
      { text: "Next page", href: `${base}/next` },
      { text: "Order form", href: `${base}/form` },
    ]);
    const clicked = await call("browser_click", { text: "Next page" });
    assert.deepEqual([clicked.url, clicked.title], [`${base}/next`, "Next"]);
    assert.match((await call("browser_read", { tab: "tab1" })).text, /^The second page\n\nYou followed the link/);
  });

  test("a form filled by label and by placeholder, sent by its button", async () => {
    const opened = await call("browser_open", { url: `${base}/form` });
    assert.equal(opened.tab, "tab2");
    await call("browser_type", { into: "Your name", text: "Ada" });
    await call("browser_type", { into: "Stone colour", text: "grey" });
    const sent = await call("browser_click", { text: "Send order" });
    assert.equal(sent.title, "Thanks");
    assert.match((await call("browser_read")).text, /Thanks, Ada: one grey stone\./);
    const bySelector = await call("browser_open", { url: `${base}/form`, tab: "tab2" });
    assert.equal(bySelector.isError, false);
    const submitted = await call("browser_type", { selector: "#n", text: "Grace", submit: true });
    assert.match(submitted.url, /name=Grace/);
  });

  test("a screenshot is an image block: a PNG of the viewport with the red banner at its top left", async () => {
    await call("browser_open", { url: `${base}/`, tab: "tab1" });
    const result = await raw("browser_screenshot", { tab: "tab1" });
    const image = result.content[0] as unknown as { type: string; data: string; mimeType: string };
    assert.deepEqual([image.type, image.mimeType], ["image", "image/png"]);
    const png = decode(Buffer.from(image.data, "base64"));
    assert.deepEqual([png.width, png.height], [640, 400]);
    const at = (x: number, y: number) => Array.from(png.data.slice((y * png.width + x) * png.channels, (y * png.width + x) * png.channels + 3));
    assert.deepEqual(at(10, 10), [255, 0, 0], "inside the banner");
    assert.deepEqual(at(400, 10), [255, 255, 255], "beside it");
    assert.deepEqual((result.structuredContent as { width: number; height: number }).width, 640);
  });

  test("refused as data: other schemes, pages that never finish, what is not on the page, closed tabs", async () => {
    assert.equal((await call("browser_open", { url: "file:///etc/passwd" })).error, "bad_url");
    assert.equal((await call("browser_open", { url: "chrome://settings" })).error, "bad_url");
    assert.equal((await call("browser_click", { text: "Buy a submarine" })).error, "not_found");
    assert.equal((await call("browser_type", { into: "Credit card", text: "1" })).error, "not_found");
    assert.equal((await call("browser_click", { text: "Next page", selector: "a" })).error, "invalid_arguments", "text or selector, not both");
    assert.equal((await call("browser_open", { url: `${base}/slow`, tab: "tab1" })).error, "timeout");
    assert.equal((await call("browser_open", { url: "http://127.0.0.1:1/" })).error, "network");
    assert.deepEqual((await call("browser_close", { tab: "tab2" })).closed, ["tab2"]);
    assert.equal((await call("browser_read", { tab: "tab2" })).error, "no_tab");
  });

  test("closing the last tab ends Chromium", async () => {
    assert.ok(processesWith(marker).length > 2, "the plugin and Chromium's processes");
    await call("browser_close");
    const until = Date.now() + 5000;
    while (processesWith(marker).length > 1 && Date.now() < until) await new Promise((r) => setTimeout(r, 50));
    assert.equal(processesWith(marker).length, 1, "only the plugin is left");
  });

  test("idle: the browser closes by itself, its tabs with it", async () => {
    const idleMarker = `browser-idle-${randomUUID()}`;
    const spec = builtinSpec("browser", SOURCE_HOMED, { timeoutMs: 1000, idleMs: 300 });
    const idle = createPluginHost([{ ...spec, env: { ...spec.env, HOMED_TEST_MARKER: idleMarker } }], { graceMs: 2000 });
    await idle.start();
    try {
      const first = (await idle.callTool("browser", "browser_open", { url: `${base}/` })).structuredContent as { launched: boolean };
      assert.equal(first.launched, true);
      assert.ok(processesWith(idleMarker).length > 2, "the plugin and Chromium's processes");
      const until = Date.now() + 5000;
      while (processesWith(idleMarker).length > 1 && Date.now() < until) await new Promise((r) => setTimeout(r, 50));
      assert.equal(processesWith(idleMarker).length, 1, "Chromium ended without a call");
      const read = (await idle.callTool("browser", "browser_read", {})).structuredContent as { error: string };
      assert.equal(read.error, "no_tab", "its tabs went with it");
    } finally {
      await idle.stopAll();
    }
  });
});

describe("browser plugin without Chromium", () => {
  test("every call says there is no browser and how to install one", async () => {
    const host = createPluginHost([builtinSpec("browser", SOURCE_HOMED, { executablePath: "/nonexistent/chromium" })], { graceMs: 1000 });
    await host.start();
    try {
      const result = (await host.callTool("browser", "browser_open", { url: "http://127.0.0.1:9/" })).structuredContent as { error: string; message: string };
      assert.equal(result.error, "no_browser");
      assert.match(result.message, /Cannot start Chromium at \/nonexistent\/chromium/);
    } finally {
      await host.stopAll();
    }
  });
});

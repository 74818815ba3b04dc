/** web_fetch as a real plugin process against a real HTTP server on 127.0.0.1. */
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { builtinSpec } from "../../plugins/index.ts";
import { createPluginHost, type CallToolResult, type PluginHost } from "../../src/plugins/index.ts";
import { SOURCE_HOMED } from "../support/process.ts";

const ARTICLE = `<!doctype html><html><head><title>Site | Otters</title><style>p{color:red}</style></head><body>
<nav><a href="/">Home</a> <a href="/about">About</a> <a href="/shop">Shop</a></nav>
<article><h1>Sea otters hold hands</h1>
<p>${"Sea otters sleep on the water and hold hands so that they do not drift apart. ".repeat(8)}</p>
<p>They also keep a favourite stone in a pouch of skin under the arm.</p>
<ul><li>Weight: up to 45 kg</li><li>Range: North Pacific</li></ul></article>
<script>document.write("tracking")</script><footer>© 2026 Ads Inc.</footer></body></html>`;

describe("web_fetch plugin", () => {
  let server: Server;
  let base = "";
  let host: PluginHost;
  before(async () => {
    server = createServer((req, res) => {
      if (req.url === "/article") return res.writeHead(200, { "content-type": "text/html; charset=utf-8" }).end(ARTICLE);
      if (req.url === "/big") return res.writeHead(200, { "content-type": "text/plain" }).end("z".repeat(3_000_000));
      if (req.url === "/json") return res.writeHead(200, { "content-type": "application/json" }).end('{"ok":true}');
      if (req.url === "/png") return res.writeHead(200, { "content-type": "image/png" }).end(Buffer.from([0x89, 0x50, 0x4e, 0x47]));
      if (req.url === "/latin1") return res.writeHead(200, { "content-type": "text/plain; charset=iso-8859-1" }).end(Buffer.from([0x63, 0x61, 0x66, 0xe9]));
      if (req.url === "/slow") return void res.writeHead(200, { "content-type": "text/plain" }).write("partial...");
      res.writeHead(404).end("not here");
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    host = createPluginHost([builtinSpec("web_fetch", SOURCE_HOMED, { timeoutMs: 400, maxBytes: 4000, maxChars: 5000 })], { graceMs: 1000 });
    await host.start();
  });
  after(async () => {
    await host?.stopAll();
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });
  const fetchPage = async (url: string, extra: Record<string, unknown> = {}) => {
    const result: CallToolResult = await host.callTool("web_fetch", "web_fetch", { url, ...extra });
    return { isError: result.isError ?? false, ...(result.structuredContent as Record<string, unknown>) } as Record<string, unknown>;
  };

  test("HTML comes back as readable text: the article with its breaks, no menu, script or style", async () => {
    const page = await fetchPage(`${base}/article`);
    assert.equal(page.status, 200);
    assert.equal(page.title, "Site | Otters");
    const text = String(page.text);
    assert.match(text, /Sea otters hold hands\n\nSea otters sleep/);
    assert.match(text, /under the arm\./);
    assert.match(text, /- Weight: up to 45 kg\n/);
    assert.doesNotMatch(text, /tracking|color:red|Shop|Ads Inc/);
    assert.equal(page.truncated, false);
  });

  test("a body over the byte limit is cut and marked truncated; text over the character limit too", async () => {
    const page = await fetchPage(`${base}/big`);
    assert.equal(page.truncated, true);
    assert.equal(String(page.text).length, 4000);
    const few = await fetchPage(`${base}/big`, { maxChars: 10 });
    assert.equal(few.text, "zzzzzzzzzz");
  });

  test("a server that never finishes runs into the time limit", async () => {
    const page = await fetchPage(`${base}/slow`);
    assert.equal(page.isError, true);
    assert.equal(page.error, "timeout");
  });

  test("JSON and other text pass as they are; charsets are honoured; binary is refused", async () => {
    assert.equal((await fetchPage(`${base}/json`)).text, '{"ok":true}');
    assert.equal((await fetchPage(`${base}/latin1`)).text, "café");
    const png = await fetchPage(`${base}/png`);
    assert.equal(png.error, "unsupported_content");
  });

  test("only http(s) URLs are fetched; errors come back as data", async () => {
    assert.equal((await fetchPage("file:///etc/passwd")).error, "bad_url");
    assert.equal((await fetchPage("not a url")).error, "bad_url");
    const refused = await fetchPage("http://127.0.0.1:1/");
    assert.equal(refused.error, "network");
    assert.equal((await fetchPage(`${base}/missing`)).status, 404);
  });
});

/**
 * CORS from a real browser (issue 31.5): a page served from another loopback origin (a second
 * HTTP server, another port) calls a daemon with the default CORS settings, in headless Chromium.
 * With an app key it chats over `/v1/chat/completions` (scripted provider), initialises an MCP
 * session on `/mcp` and reads the agent card — each a cross-origin request with a preflight the
 * browser itself checks. The console's `/api` stays same-origin: the page's fetch there fails,
 * with the admin token as a bearer and with the console's own cookie alike, and a cookie request
 * that would change something is never sent.
 */
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import { join } from "node:path";
import { startApiDaemon, type ApiDaemon } from "../support/api-daemon.ts";
import { startScriptedProvider, type ScriptedProvider } from "../support/scripted-provider.ts";
import { tempDir, type TempDir } from "../support/temp-dir.ts";
import { chromiumMissing, launchChromium } from "./support.ts";

/** What a fetch in the page came to: its status and body, or the browser's refusal. */
type Outcome = { status: number; body: string } | { blocked: string };

describe("CORS in Chromium: a page of another origin", { skip: chromiumMissing ? "no /usr/bin/chromium" : false }, () => {
  let dir: TempDir;
  let provider: ScriptedProvider;
  let daemon: ApiDaemon;
  let pageServer: Server;
  let pageOrigin: string;
  let browser: Awaited<ReturnType<typeof launchChromium>>;
  let key: string;
  const admin = () => daemon.headers.authorization!.slice("Bearer ".length);

  before(async () => {
    dir = tempDir("homed-cors-browser-");
    writeFileSync(join(dir.path, "homed.json"), JSON.stringify({ channels: { a2a: { enabled: true, name: "homed-cors" } } }));
    provider = await startScriptedProvider(() => ({ content: "hello from the scripted model" }));
    daemon = await startApiDaemon(dir.path, provider.url);
    const made = await fetch(`${daemon.url}/api/keys`, { method: "POST", headers: daemon.headers, body: JSON.stringify({ name: "webapp", scopes: ["v1", "mcp", "a2a"] }) });
    key = ((await made.json()) as { key: string }).key;
    // The web app's own origin: the same loopback address, another port.
    pageServer = createServer((_req, res) => {
      res.writeHead(200, { "content-type": "text/html; charset=utf-8" });
      res.end("<!doctype html><title>web app</title><p>a web app of another origin</p>");
    });
    await new Promise<void>((resolve) => pageServer.listen(0, "127.0.0.1", resolve));
    pageOrigin = `http://127.0.0.1:${(pageServer.address() as { port: number }).port}`;
    browser = await launchChromium();
    await browser.page.goto(pageOrigin);
  });
  after(async () => {
    await browser?.close();
    await new Promise((resolve) => pageServer?.close(resolve));
    await daemon?.stop();
    await provider?.close();
    dir?.remove();
  });

  /** fetch(`url`, init) run in the page. */
  const pageFetch = (url: string, init: RequestInit): Promise<Outcome> =>
    browser.page.evaluate(
      async ({ url, init }) => {
        try {
          const response = await fetch(url, init);
          return { status: response.status, body: await response.text() };
        } catch (error) {
          return { blocked: String(error) };
        }
      },
      { url, init: init as Record<string, unknown> },
    );
  const json = (outcome: Outcome) => {
    assert.ok("status" in outcome, `blocked: ${"blocked" in outcome ? outcome.blocked : ""}`);
    assert.equal(outcome.status, 200, outcome.body);
    return JSON.parse(outcome.body);
  };

  test("with a bearer key: chat completions, MCP initialize and the agent card all answer", async () => {
    assert.notEqual(pageOrigin, daemon.url);
    const bearer = { authorization: `Bearer ${key}`, "content-type": "application/json" };
    const chat = json(
      await pageFetch(`${daemon.url}/v1/chat/completions`, {
        method: "POST",
        headers: bearer,
        body: JSON.stringify({ model: "homed", messages: [{ role: "user", content: "hi from a web app" }] }),
      }),
    );
    assert.equal(chat.choices[0].message.content, "hello from the scripted model");

    const initialize = json(
      await pageFetch(`${daemon.url}/mcp`, {
        method: "POST",
        headers: { ...bearer, accept: "application/json, text/event-stream", "mcp-protocol-version": "2025-06-18" },
        body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "web-app", version: "1" } } }),
      }),
    );
    assert.equal(initialize.result.serverInfo.name, "homed");

    const card = json(await pageFetch(`${daemon.url}/.well-known/agent-card.json`, { headers: { "a2a-version": "1.0" } }));
    assert.equal(card.name, "homed-cors");
  });

  test("the console's /api stays same-origin: blocked with the admin token and with the console's cookie; a cookie write is never sent", async () => {
    const withToken = await pageFetch(`${daemon.url}/api/sessions`, { headers: { authorization: `Bearer ${admin()}` } });
    assert.ok("blocked" in withToken, JSON.stringify(withToken));

    // Log the browser in to the console (the cookie is the daemon's; the page's origin only shares its host).
    const login = await browser.context.request.post(`${daemon.url}/api/login`, { data: { token: admin() }, headers: { "x-homed-request": "1" } });
    assert.equal(login.status(), 200, await login.text());
    assert.ok((await browser.context.cookies(daemon.url)).length > 0, "the console's cookie is set");
    const before = (await (await fetch(`${daemon.url}/api/sessions`, { headers: daemon.headers })).json()) as unknown[];
    for (const path of ["/api/sessions", "/v1/models"]) {
      const withCookie = await pageFetch(`${daemon.url}${path}`, { credentials: "include" });
      assert.ok("blocked" in withCookie, `${path}: ${JSON.stringify(withCookie)}`);
    }
    const write = await pageFetch(`${daemon.url}/api/sessions`, {
      method: "POST",
      credentials: "include",
      headers: { "content-type": "application/json", "x-homed-request": "1" },
      body: JSON.stringify({ partner: "mallory" }),
    });
    assert.ok("blocked" in write, JSON.stringify(write));
    const afterWrite = (await (await fetch(`${daemon.url}/api/sessions`, { headers: daemon.headers })).json()) as unknown[];
    assert.equal(afterWrite.length, before.length, "no session was opened");
    // The same cookie works from the console's own origin: the refusal above is the origin's.
    await browser.page.goto(`${daemon.url}/healthz`);
    const own = await pageFetch(`${daemon.url}/api/sessions`, { credentials: "include" });
    assert.ok("status" in own && own.status === 200, JSON.stringify(own));
  });
});

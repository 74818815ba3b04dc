/**
 * What the daemon log says about faults and changes (issue 14.7): audit lines for logins
 * (good and failed), wrong Bearer tokens, logouts, provider changes (never the key) and manual
 * plugin restarts; model errors and cancelled turns; and the session id on per-turn lines.
 */
import { describe, test, afterEach } from "node:test";
import assert from "node:assert/strict";
import { createLogger } from "../../src/log/index.ts";
import { join } from "node:path";
import { createPluginHost, PluginSpecSchema, type PluginHost } from "../../src/plugins/index.ts";
import { createApp } from "../../src/server/index.ts";
import { FIXTURES } from "../plugins/support.ts";
import { kernelHarness, type Harness } from "../kernel/support.ts";
import { scriptSpec } from "../support/process.ts";

const TOKEN = "k".repeat(40);
const HOST = "127.0.0.1:8080";
const bearer = { authorization: `Bearer ${TOKEN}`, "content-type": "application/json" };
const fromConsole = { host: HOST, origin: `http://${HOST}`, "x-homed-request": "1", "content-type": "application/json" };
const KEY = "sk-do-not-log-me-4821";

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

function appFor(harness: Harness, lines: string[], plugins?: PluginHost) {
  const log = createLogger({ level: "info", stderr: (line) => void lines.push(line.replace(/^\S+ /, "").trimEnd()) });
  return createApp({ version: "0.0.0-test", store: harness.store, log, kernel: harness.kernel, adminToken: TOKEN, ...(plugins ? { plugins } : {}) });
}

describe("audit lines", () => {
  test("a failed login is a WARN line, a login and a logout INFO lines, a wrong Bearer token a WARN line with the route", async () => {
    h = await kernelHarness([]);
    const lines: string[] = [];
    const app = appFor(h, lines);
    const login = (token: string) => app.request("/api/login", { method: "POST", headers: fromConsole, body: JSON.stringify({ token }) });
    assert.equal((await login("wrong")).status, 401);
    const ok = await login(TOKEN);
    const cookie = /homed_session=[^;]+/.exec(ok.headers.get("set-cookie") ?? "")![0];
    await app.request("/api/logout", { method: "POST", headers: { ...fromConsole, cookie } });
    assert.equal((await app.request("/api/sessions", { headers: { authorization: "Bearer nope" } })).status, 401);
    const audit = lines.filter((l) => l.includes("audit:"));
    assert.deepEqual(audit, [
      "WARN  audit: failed console login from unknown: wrong token",
      "INFO  audit: console login from unknown",
      "INFO  audit: console logout from unknown",
      "WARN  audit: wrong admin token from unknown for GET /api/sessions",
    ]);
    assert.ok(!lines.join("\n").includes(TOKEN), "the token is never logged");
  });

  test("adding, changing, activating and removing a provider are audit lines that never carry the key", async () => {
    h = await kernelHarness([]);
    const lines: string[] = [];
    const app = appFor(h, lines);
    const body = { name: "Deep", baseUrl: "https://api.example.com/v1", model: "m1", apiKey: KEY };
    const created = (await (await app.request("/api/providers", { method: "POST", headers: bearer, body: JSON.stringify(body) })).json()) as { id: string };
    await app.request(`/api/providers/${created.id}`, { method: "PUT", headers: bearer, body: JSON.stringify({ ...body, model: "m2", apiKey: undefined }) });
    await app.request(`/api/providers/${created.id}/activate`, { method: "POST", headers: bearer });
    await app.request(`/api/providers/${created.id}`, { method: "DELETE", headers: bearer });
    const id = created.id;
    assert.deepEqual(
      lines.filter((l) => l.includes("audit:")),
      [
        `INFO  audit: provider added: ${id} ("Deep": https://api.example.com/v1, model m1, key set)`,
        `INFO  audit: provider changed: ${id} ("Deep": https://api.example.com/v1, model m2)`,
        `INFO  audit: provider activated: ${id} ("Deep": https://api.example.com/v1, model m2)`,
        `INFO  audit: provider removed: ${id}`,
      ],
    );
    assert.ok(!lines.join("\n").includes(KEY), "the key is never logged");
  });
});

describe("plugin lines", () => {
  test("a restart by hand is an audit line", async () => {
    h = await kernelHarness([]);
    const spec = PluginSpecSchema.parse({ name: "pinger", ...scriptSpec(join(FIXTURES, "misbehave.ts"), "ok") });
    const plugins = createPluginHost([spec], { graceMs: 300 });
    try {
      await plugins.start();
      const lines: string[] = [];
      const app = appFor(h, lines, plugins);
      assert.equal((await app.request("/api/plugins/pinger/restart", { method: "POST", headers: bearer })).status, 200);
      assert.deepEqual(
        lines.filter((l) => l.includes("audit:")),
        ["INFO  audit: plugin pinger restarted by hand (now running)"],
      );
    } finally {
      await plugins.stopAll();
    }
  });
});

describe("turn lines", () => {
  test("a model error is a WARN line with the session id and the provider's status", async () => {
    h = await kernelHarness([{ status: 400, body: '{"error":{"message":"bad model"}}' }]);
    const session = await h.kernel.sessions.open("test", "ann");
    await assert.rejects(h.kernel.turn({ session, input: "hello" }));
    const line = h.logs.find((l) => l.includes("model error"));
    assert.match(line ?? h.logs.join("\n"), new RegExp(`^session ${session.id}: model error \\w+ \\(HTTP 400\\): `));
  });

  test("a cancelled turn is logged with its session and reason; the overflow check carries the session id", async () => {
    h = await kernelHarness([{ content: "a long streamed answer", delayMs: 30 }]);
    const session = await h.kernel.sessions.open("test", "bob");
    const controller = new AbortController();
    const result = await h.kernel.turn({
      session,
      input: "tell me",
      signal: controller.signal,
      onEvent: (e) => {
        if (e.type === "content") controller.abort(new Error("client disconnected"));
      },
    });
    assert.equal(result.stopReason, "cancelled");
    assert.ok(h.logs.includes(`session ${session.id}: turn cancelled after 1 rounds (client disconnected); what was said is kept`), h.logs.join("\n"));
    assert.ok(
      h.logs.some((l) => l.startsWith(`session ${session.id}: overflow check #1: ratio=`)),
      h.logs.join("\n"),
    );
  });
});

/**
 * The Host header check (src/server/host-check.ts), the defence against DNS rebinding: a real
 * daemon on 127.0.0.1 answers requests naming the loopback and refuses any other Host with 421,
 * before auth and before any route; HOMED_ALLOWED_HOSTS adds names. On a non-loopback address
 * nothing is restricted unless names are listed.
 */
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { request } from "node:http";
import { Hono } from "hono";
import { hostCheck } from "../../src/server/host-check.ts";
import { SOURCE_HOMED, startDaemon, type Daemon } from "../support/process.ts";
import { tempDir, type TempDir } from "../support/temp-dir.ts";

/** A GET with this exact Host header (fetch would not let us set it). */
function get(url: string, path: string, host: string): Promise<{ status: number; body: string }> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const req = request({ hostname, port, path, headers: { host } }, (res) => {
      let body = "";
      res.on("data", (d) => (body += d));
      res.on("end", () => resolve({ status: res.statusCode!, body }));
    });
    req.on("error", reject);
    req.end();
  });
}

describe("Host check", () => {
  let dir: TempDir;
  let daemon: Daemon;
  let port = "";
  before(async () => {
    dir = tempDir("homed-host-");
    daemon = await startDaemon([...SOURCE_HOMED, "-data", dir.path, "-addr", "127.0.0.1:0"], { env: { ...process.env, HOMED_ALLOWED_HOSTS: "homed.lan, proxy.example" } });
    port = new URL(daemon.url).port;
  });
  after(async () => {
    await daemon?.stop();
    dir?.remove();
  });

  test("a loopback daemon answers loopback names and the listed ones; a rebinding name gets 421 on every route", async () => {
    for (const host of [`127.0.0.1:${port}`, `localhost:${port}`, `LOCALHOST:${port}`, `app.localhost:${port}`, `homed.lan:${port}`, "proxy.example"]) {
      assert.equal((await get(daemon.url, "/healthz", host)).status, 200, host);
    }
    for (const host of [`evil.example:${port}`, "evil.example", `127.0.0.1.evil.example:${port}`, `localhost.evil.example:${port}`]) {
      for (const path of ["/healthz", "/api/sessions", "/v1/models", "/"]) {
        const answer = await get(daemon.url, path, host);
        assert.equal(answer.status, 421, `${host} ${path}`);
        // In each surface's own error shape: {error, message}, or OpenAI's under /v1.
        const error = JSON.parse(answer.body).error;
        assert.equal(typeof error === "string" ? error : error.code, "misdirected_request");
      }
    }
  });

  test("on a non-loopback address any Host passes, unless names are listed", async () => {
    const open = new Hono().use("*", hostCheck("0.0.0.0", [])).get("/", (c) => c.text("ok"));
    assert.equal((await open.request("/", { headers: { host: "whatever.example" } })).status, 200);
    const listed = new Hono().use("*", hostCheck("0.0.0.0", ["homed.lan"])).get("/", (c) => c.text("ok"));
    assert.equal((await listed.request("/", { headers: { host: "homed.lan:8080" } })).status, 200);
    assert.equal((await listed.request("/", { headers: { host: "evil.example" } })).status, 421);
  });
});

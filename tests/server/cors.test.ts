/**
 * CORS (issue 31.5, src/server/cors.ts) over real HTTP: a daemon with the default (any origin)
 * answers preflights on `/v1`, `/mcp`, the agent card and `/a2a` — never with
 * `Access-Control-Allow-Credentials`, never allowing `X-Homed-Request` — and gives its answers
 * (refusals included) an `Access-Control-Allow-Origin`; `/api` answers no preflight and carries no
 * CORS header. A daemon whose homed.json lists origins approves only those. HOMED_CORS_ORIGINS
 * wins over the file; a bad origin stops start-up naming it.
 */
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { corsConfig, CorsConfigSchema } from "../../src/server/cors.ts";
import { run, SOURCE_HOMED } from "../support/process.ts";
import { docSnippet } from "../support/docs.ts";
import { startApiDaemon, type ApiDaemon } from "../support/api-daemon.ts";
import { tempDir, type TempDir } from "../support/temp-dir.ts";

const PAGE = "http://127.0.0.1:5173";
const OTHER = "https://elsewhere.example";

/** A browser's preflight for `method` with `headers` from `origin`. */
const preflight = (url: string, origin: string, method = "POST", headers = "authorization,content-type") =>
  fetch(url, { method: "OPTIONS", headers: { origin, "access-control-request-method": method, "access-control-request-headers": headers } });

const list = (value: string | null) => (value ?? "").split(",").map((h) => h.trim().toLowerCase());

describe("CORS with the default (any origin)", () => {
  let dir: TempDir;
  let daemon: ApiDaemon;
  before(async () => {
    dir = tempDir("homed-cors-");
    writeFileSync(join(dir.path, "homed.json"), JSON.stringify({ channels: { a2a: { enabled: true } } }));
    daemon = await startApiDaemon(dir.path);
  });
  after(async () => {
    await daemon?.stop();
    dir?.remove();
  });

  test("preflights of /v1, /mcp, the agent card and /a2a: 204 with the origin, methods, the clients' headers; no credentials", async () => {
    for (const [path, method] of [
      ["/v1/chat/completions", "POST"],
      ["/v1/embeddings", "POST"],
      ["/v1/models", "GET"],
      ["/mcp", "POST"],
      ["/mcp", "DELETE"],
      ["/.well-known/agent-card.json", "GET"],
      ["/a2a", "POST"],
    ] as const) {
      const answer = await preflight(`${daemon.url}${path}`, PAGE, method, "authorization,content-type,mcp-session-id,mcp-protocol-version,last-event-id");
      assert.equal(answer.status, 204, path);
      assert.equal(answer.headers.get("access-control-allow-origin"), "*", path);
      assert.ok(list(answer.headers.get("access-control-allow-methods")).includes(method.toLowerCase()), path);
      const allowed = list(answer.headers.get("access-control-allow-headers"));
      for (const header of ["authorization", "content-type", "mcp-session-id", "mcp-protocol-version", "last-event-id", "a2a-version", "x-stainless-os"]) {
        assert.ok(allowed.includes(header), `${path}: ${header} in ${allowed}`);
      }
      assert.ok(!allowed.includes("x-homed-request"), path);
      assert.ok(list(answer.headers.get("access-control-expose-headers")).includes("mcp-session-id"), path);
      assert.equal(answer.headers.get("access-control-allow-credentials"), null, path);
    }
  });

  test("answers carry the origin, refusals too (so a page can read why); /api has no CORS at all", async () => {
    const models = await fetch(`${daemon.url}/v1/models`, { headers: { ...daemon.headers, origin: PAGE } });
    assert.equal(models.status, 200);
    assert.equal(models.headers.get("access-control-allow-origin"), "*");
    assert.ok(list(models.headers.get("access-control-expose-headers")).includes("mcp-session-id"));
    const refused = await fetch(`${daemon.url}/v1/models`, { headers: { origin: PAGE } });
    assert.equal(refused.status, 401);
    assert.equal(refused.headers.get("access-control-allow-origin"), "*");
    const card = await fetch(`${daemon.url}/.well-known/agent-card.json`, { headers: { origin: PAGE } });
    assert.equal(card.status, 200);
    assert.equal(card.headers.get("access-control-allow-origin"), "*");

    // The console's API: a preflight is refused (the auth answer, no CORS headers), answers carry none.
    for (const path of ["/api/sessions", "/api/login", "/api/keys"]) {
      const answer = await preflight(`${daemon.url}${path}`, PAGE);
      assert.notEqual(answer.status, 204, path);
      assert.equal(answer.headers.get("access-control-allow-origin"), null, path);
      assert.equal(answer.headers.get("access-control-allow-methods"), null, path);
    }
    const sessions = await fetch(`${daemon.url}/api/sessions`, { headers: { ...daemon.headers, origin: PAGE } });
    assert.equal(sessions.status, 200);
    assert.equal(sessions.headers.get("access-control-allow-origin"), null);
    assert.equal((await fetch(`${daemon.url}/healthz`, { headers: { origin: PAGE } })).headers.get("access-control-allow-origin"), null);
  });
});

describe("CORS with origins listed in homed.json", () => {
  let dir: TempDir;
  let daemon: ApiDaemon;
  before(async () => {
    dir = tempDir("homed-cors-listed-");
    // Written as a person might: a trailing slash, capitals.
    writeFileSync(join(dir.path, "homed.json"), JSON.stringify({ cors: { origins: ["HTTP://127.0.0.1:5173/"] } }));
    daemon = await startApiDaemon(dir.path);
  });
  after(async () => {
    await daemon?.stop();
    dir?.remove();
  });

  test("a listed origin is approved by name (Vary: Origin); another gets no Access-Control-Allow-Origin, on preflights and answers", async () => {
    const approved = await preflight(`${daemon.url}/mcp`, PAGE);
    assert.equal(approved.status, 204);
    assert.equal(approved.headers.get("access-control-allow-origin"), PAGE);
    assert.ok(list(approved.headers.get("vary")).includes("origin"));
    const answer = await fetch(`${daemon.url}/v1/models`, { headers: { ...daemon.headers, origin: PAGE } });
    assert.equal(answer.headers.get("access-control-allow-origin"), PAGE);
    assert.ok(list(answer.headers.get("vary")).includes("origin"));

    const other = await preflight(`${daemon.url}/mcp`, OTHER);
    assert.equal(other.headers.get("access-control-allow-origin"), null);
    const otherAnswer = await fetch(`${daemon.url}/v1/models`, { headers: { ...daemon.headers, origin: OTHER } });
    assert.equal(otherAnswer.status, 200);
    assert.equal(otherAnswer.headers.get("access-control-allow-origin"), null);
  });
});

describe("CORS settings", () => {
  const file = (origins: unknown) => CorsConfigSchema.safeParse({ origins });

  test("homed.json: '*' or origins without a path; a trailing slash and capitals are forgiven; the default is any origin", () => {
    assert.deepEqual(CorsConfigSchema.parse({}), { origins: ["*"] });
    assert.deepEqual(file(["https://App.example/", "http://localhost:5173", "chrome-extension://abcdef"]).data, {
      origins: ["https://app.example", "http://localhost:5173", "chrome-extension://abcdef"],
    });
    for (const bad of [["https://app.example/chat"], ["app.example"], ["*.example"], "*"]) assert.equal(file(bad).success, false, JSON.stringify(bad));
    assert.equal(CorsConfigSchema.safeParse({ origins: ["*"], credentials: true }).success, false, "no other keys (credentials never)");
  });

  test("the docs' homed.json example is a valid cors section", () => {
    const example = JSON.parse(docSnippet("**Browser apps (CORS).**", "json")) as { cors: unknown };
    assert.deepEqual(CorsConfigSchema.parse(example.cors), { origins: ["https://chat.example.org", "http://localhost:5173"] });
  });

  test("HOMED_CORS_ORIGINS wins over the file; 'none' turns CORS off; unset or empty keeps the file's", () => {
    const fromFile = { origins: ["https://app.example"] };
    assert.deepEqual(corsConfig(fromFile, "http://localhost:3000, https://b.example"), { origins: ["http://localhost:3000", "https://b.example"] });
    assert.deepEqual(corsConfig(fromFile, "none"), { origins: [] });
    assert.deepEqual(corsConfig(fromFile, undefined), fromFile);
    assert.deepEqual(corsConfig(fromFile, " "), fromFile);
  });

  test("a bad origin stops the daemon at start, naming where it came from", async () => {
    using dir = tempDir("homed-cors-bad-");
    const fromEnv = await run([...SOURCE_HOMED, "-data", dir.path, "-addr", "127.0.0.1:0"], { env: { ...process.env, HOMED_CORS_ORIGINS: "https://ok.example https://app.example/chat" } });
    assert.equal(fromEnv.code, 1);
    assert.match(fromEnv.stderr, /HOMED_CORS_ORIGINS: https:\/\/app\.example\/chat: expected '\*' or an origin/);
    writeFileSync(join(dir.path, "homed.json"), JSON.stringify({ cors: { origins: ["app.example"] } }));
    const fromFile = await run([...SOURCE_HOMED, "-data", dir.path, "-addr", "127.0.0.1:0"]);
    assert.equal(fromFile.code, 1);
    assert.match(fromFile.stderr, /homed\.json: cors\.origins\.0: expected '\*' or an origin/);
  });
});

/**
 * Every route caps its body while reading it (issue 14.3). Before: `/api/login` read any body —
 * six concurrent 120 MB bodies without credentials took the daemon from 95 MB to 1.24 GB of RSS.
 */
import { after, afterEach, describe, test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { createLogger } from "../../src/log/index.ts";
import { createApp } from "../../src/server/index.ts";
import { BODY_LIMITS, bodyLimitFor, DEFAULT_BODY_LIMIT } from "../../src/server/body-limits.ts";
import { kernelHarness, type Harness } from "../kernel/support.ts";
import { startApiDaemon, type ApiDaemon } from "../support/api-daemon.ts";
import { tempDir } from "../support/temp-dir.ts";

const TOKEN = "t".repeat(40);
const auth = { authorization: `Bearer ${TOKEN}`, "content-type": "application/json" };
const KIB = 1024;
const MIB = 1024 * KIB;

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

/** A body that never ends, counting what the server pulled from it. */
function endlessBody(chunkBytes = 64 * KIB): { stream: ReadableStream<Uint8Array>; pulled: () => number } {
  let pulled = 0;
  const chunk = new Uint8Array(chunkBytes).fill(0x20);
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      pulled += chunk.length;
      controller.enqueue(chunk);
    },
  });
  return { stream, pulled: () => pulled };
}

async function appFor() {
  h = await kernelHarness([]);
  const log = createLogger({ level: "error", stderr: () => {} });
  return createApp({ version: "0.0.0-test", store: h.store, log, kernel: h.kernel, adminToken: TOKEN });
}

/** Routes with a body, the headers that get them past authentication, and the limit expected. */
const ROUTES: { method: string; path: string; headers: Record<string, string>; limit: number }[] = [
  { method: "POST", path: "/api/login", headers: { "x-homed-request": "1" }, limit: 4 * KIB },
  { method: "POST", path: "/api/logout", headers: { "x-homed-request": "1" }, limit: 4 * KIB },
  { method: "POST", path: "/api/sessions", headers: auth, limit: 64 * KIB },
  { method: "POST", path: "/api/sessions/s1/messages", headers: auth, limit: 12 * MIB },
  { method: "POST", path: "/v1/chat/completions", headers: auth, limit: 16 * MIB },
  { method: "POST", path: "/v1/responses", headers: auth, limit: 16 * MIB },
  { method: "POST", path: "/api/memory/tools/memory_note", headers: auth, limit: 256 * KIB },
  { method: "POST", path: "/api/providers", headers: auth, limit: 64 * KIB },
  { method: "PUT", path: "/api/providers/p1", headers: auth, limit: 64 * KIB },
  { method: "POST", path: "/api/providers/test", headers: auth, limit: 64 * KIB },
  { method: "POST", path: "/api/audit/replay", headers: auth, limit: 64 * KIB },
  { method: "POST", path: "/api/doctor", headers: auth, limit: 64 * KIB },
  { method: "POST", path: "/api/plugins/notes/restart", headers: auth, limit: 64 * KIB },
];

describe("body limits", () => {
  test("the table: unauthenticated routes tightest, each other route what it needs", () => {
    for (const route of ROUTES) assert.equal(bodyLimitFor(route.path).maxSize, route.limit, route.path);
    assert.equal(bodyLimitFor("/api/memory/import").maxSize, 64 * MIB);
    const smallest = Math.min(...BODY_LIMITS.map((l) => l.maxSize), DEFAULT_BODY_LIMIT.maxSize);
    assert.equal(bodyLimitFor("/api/login").maxSize, smallest);
  });

  for (const route of ROUTES) {
    test(`${route.method} ${route.path}: an endless body is cut off at ${route.limit / KIB} KiB with 413 too_large`, async () => {
      const app = await appFor();
      const body = endlessBody();
      const res = await app.request(route.path, { method: route.method, headers: route.headers, body: body.stream, duplex: "half" } as RequestInit);
      assert.equal(res.status, 413);
      const json = (await res.json()) as any;
      // /v1 answers in OpenAI's shape (src/server/errors.ts), the rest in homed's.
      const { code, message } = route.path.startsWith("/v1/") ? json.error : { code: json.error, message: json.message };
      assert.equal(code, "too_large");
      assert.match(message, /The request body is over \d+ (KiB|MiB), the most/);
      assert.ok(body.pulled() <= route.limit + 256 * KIB, `read ${body.pulled()} bytes`);
    });
  }

  test("a declared Content-Length over the limit is refused before reading; at the limit it is not", async () => {
    const app = await appFor();
    const over = await app.request("/api/login", { method: "POST", headers: { "x-homed-request": "1", "content-length": String(4 * KIB + 1) }, body: "x".repeat(4 * KIB + 1) });
    assert.equal(over.status, 413);
    const fits = await app.request("/api/login", { method: "POST", headers: { "x-homed-request": "1" }, body: JSON.stringify({ token: "x".repeat(100) }) });
    assert.equal(fits.status, 401);
  });

  test("without credentials, a route with a large limit reads nothing: 401", async () => {
    const app = await appFor();
    const body = endlessBody();
    const res = await app.request("/api/memory/import", { method: "POST", body: body.stream, duplex: "half" } as RequestInit);
    assert.equal(res.status, 401);
    assert.ok(body.pulled() <= 256 * KIB, `read ${body.pulled()} bytes`);
  });
});

describe("body limits on a real daemon", () => {
  let daemon: ApiDaemon;
  const scratch = tempDir("homed-limits-");
  after(async () => {
    await daemon?.stop();
    scratch.remove();
  });

  test("six concurrent 64 MB login bodies: each 413, and the daemon's memory does not follow", async () => {
    daemon = await startApiDaemon(join(scratch.path, "data"));
    const rss = () => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${daemon.child.pid}/status`, "utf8"))![1]) / 1024;
    const before = rss();
    const sent = Array.from({ length: 6 }, async () => {
      const chunk = new Uint8Array(MIB).fill(0x20);
      let left = 64;
      const stream = new ReadableStream<Uint8Array>({
        pull(controller) {
          if (left-- > 0) controller.enqueue(chunk);
          else controller.close();
        },
      });
      const res = await fetch(`${daemon.url}/api/login`, { method: "POST", headers: { "x-homed-request": "1" }, body: stream, duplex: "half" } as RequestInit);
      await res.body?.cancel();
      return res.status;
    });
    assert.deepEqual(await Promise.all(sent), [413, 413, 413, 413, 413, 413]);
    const grown = rss() - before;
    // Before: 1.14 GB for six 120 MB bodies. Now each read stops at 4 KiB.
    assert.ok(grown < 100, `RSS grew ${grown.toFixed(0)} MB`);
    assert.equal((await fetch(`${daemon.url}/healthz`)).status, 200);
  });
});

/**
 * Routes throw; the app's one error handler answers `{error, message}` with the status from the
 * error table. Known codes say what went wrong; anything else is `internal`, and in the log.
 */
import { describe, test, afterEach } from "node:test";
import assert from "node:assert/strict";
import { createLogger } from "../../src/log/index.ts";
import { createApp } from "../../src/server/index.ts";
import { kernelHarness, type Harness } from "../kernel/support.ts";

const TOKEN = "t".repeat(40);
const auth = { authorization: `Bearer ${TOKEN}`, "content-type": "application/json" };

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

async function appWithLog() {
  h = await kernelHarness([]);
  const lines: string[] = [];
  const log = createLogger({ level: "error", stderr: (line) => void lines.push(line) });
  return { app: createApp({ version: "0.0.0-test", store: h.store, log, kernel: h.kernel, adminToken: TOKEN }), lines };
}

const answer = async (res: Response) => ({ status: res.status, body: (await res.json()) as { error: string; message: string } });

describe("error answers", () => {
  test("a missing memory, provider or route is a 404 with its code", async () => {
    const { app } = await appWithLog();
    const memory = await answer(await app.request("/api/memory/records/no-such-id", { headers: auth }));
    assert.equal(memory.status, 404);
    assert.equal(memory.body.error, "not_found", "the same code as /api/memory/tools says for a missing record");
    const provider = await answer(await app.request("/api/providers/nope", { method: "PUT", headers: auth, body: JSON.stringify({ name: "x", baseUrl: "http://127.0.0.1:9/v1", model: "m" }) }));
    assert.deepEqual(provider, { status: 404, body: { error: "provider_not_found", message: "No provider with id nope" } });
    const route = await answer(await app.request("/api/nothing-here", { headers: auth }));
    assert.deepEqual(route, { status: 404, body: { error: "not_found", message: "No route for GET /api/nothing-here" } });
  });

  test("a failure the table does not know is internal: 500, no details, the stack in the log", async () => {
    const { app, lines } = await appWithLog();
    h!.store.close();
    const broken = await answer(await app.request("/api/memory/stats", { headers: auth }));
    assert.deepEqual(broken, { status: 500, body: { error: "internal", message: "The server failed to handle this request; see the log." } });
    assert.ok(
      lines.some((l) => l.includes("GET /api/memory/stats failed:")),
      lines.join(""),
    );
  });
});

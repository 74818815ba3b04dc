/**
 * POST /api/memory/import with a chat export as the body: a Claude conversations.json streams to
 * `done` like JSON Lines; a bad conversation refuses the upload naming it (or is skipped with
 * ?skipInvalid=1); a JSON array that is no export is refused as invalid_history naming the formats.
 */
import { describe, test, afterEach } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { createLogger } from "../../src/log/index.ts";
import { createApp } from "../../src/server/index.ts";
import { ROOT } from "../support/process.ts";
import { kernelHarness, type Harness } from "../kernel/support.ts";

const TOKEN = "k".repeat(40);
const headers = { authorization: `Bearer ${TOKEN}`, "content-type": "application/json" };
const CLAUDE = readFileSync(join(ROOT, "tests/fixtures/chat-exports/claude-conversations.json"), "utf8");

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

async function appOf() {
  h = await kernelHarness([]);
  const app = createApp({ version: "0.0.0-test", store: h.store, log: createLogger({ level: "info", stderr: () => {} }), kernel: h.kernel, adminToken: TOKEN, adminTokenPath: "/data/admin.token" });
  return (body: string, query = "") => app.request(`/api/memory/import${query}`, { method: "POST", headers, body });
}
const lastEvent = (text: string) => {
  const block = text
    .split("\n\n")
    .filter((b) => b.includes("data:"))
    .at(-1)!;
  return { event: /^event: (.*)$/m.exec(block)![1], data: JSON.parse(/^data: (.*)$/m.exec(block)![1]!) };
};

describe("console import of chat exports", () => {
  test("a Claude export imports; a bad conversation refuses it, named, unless skipped", async () => {
    const post = await appOf();
    assert.deepEqual(lastEvent(await (await post(CLAUDE)).text()), { event: "done", data: { added: 4, present: 0, skipped: 0 } });
    const broken = JSON.parse(CLAUDE);
    broken[0].created_at = "last spring";
    const refused = await post(JSON.stringify(broken));
    assert.equal(refused.status, 400);
    const answer = (await refused.json()) as { error: string; message: string };
    assert.equal(answer.error, "invalid_history");
    assert.match(answer.message, /^Cannot import: conversation 1 \(Sourdough starter\): not a Claude conversation: "created_at".*\(nothing was imported; 1 bad conversations in all\)$/);
    assert.deepEqual(lastEvent(await (await post(JSON.stringify(broken), "?skipInvalid=1")).text()), { event: "done", data: { added: 0, present: 2, skipped: 1 } });
  });

  test("a JSON array that is no chat export is refused naming the formats homed reads", async () => {
    const post = await appOf();
    const refused = await post(JSON.stringify([{ id: 1, messages: ["hi"] }]));
    assert.equal(refused.status, 400);
    const answer = (await refused.json()) as { error: string; message: string };
    assert.equal(answer.error, "invalid_history");
    assert.match(answer.message, /homed's JSON Lines .* ChatGPT export's conversations\.json .* Claude export's conversations\.json/);
  });
});

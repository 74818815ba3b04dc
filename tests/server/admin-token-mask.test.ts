/**
 * homed's own admin token, pasted into a chat, is masked like any other secret (src/text/secrets.ts
 * `maskKnownSecret`, registered by the daemon at start): the model's request and the stored
 * conversation never hold it, whether it came as the console's message or in an OpenAI client's.
 */
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { startApiDaemon, type ApiDaemon } from "../support/api-daemon.ts";
import { startScriptedProvider, type ScriptedProvider } from "../support/scripted-provider.ts";
import { tempDir, type TempDir } from "../support/temp-dir.ts";

describe("the admin token pasted into a chat", () => {
  let dir: TempDir;
  let provider: ScriptedProvider;
  let daemon: ApiDaemon;
  let token = "";

  before(async () => {
    dir = tempDir("homed-token-mask-");
    provider = await startScriptedProvider(() => ({ content: "noted" }));
    daemon = await startApiDaemon(dir.path, provider.url);
    token = readFileSync(join(dir.path, "admin.token"), "utf8").trim();
  });
  after(async () => {
    await daemon?.stop();
    await provider?.close();
    dir?.remove();
  });

  test("a console message and an OpenAI client's request: neither the provider nor the stored session sees it", async () => {
    const session = await daemon.openSession("me");
    await daemon.send(session, `here is my homed token ${token} keep it`);
    const response = await fetch(`${daemon.url}/v1/chat/completions`, {
      method: "POST",
      headers: daemon.headers,
      body: JSON.stringify({
        model: "homed",
        messages: [
          { role: "user", content: `earlier: ${token}` },
          { role: "assistant", content: "ok" },
          { role: "user", content: `and again ${token}` },
        ],
      }),
    });
    assert.equal(response.status, 200);
    assert.equal(provider.requests.length, 2);
    for (const r of provider.requests) {
      const sent = JSON.stringify(r.body);
      assert.equal(sent.includes(token), false, `the provider never gets the token: ${sent.replaceAll(token, "<TOKEN>")}`);
      assert.match(sent, /\[secret masked: homed-admin-token\]/);
    }
    const sessions = (await (await fetch(`${daemon.url}/api/sessions`, { headers: daemon.headers })).json()) as { sessions: { id: string }[] };
    for (const s of sessions.sessions) {
      const stored = await (await fetch(`${daemon.url}/api/sessions/${s.id}/context`, { headers: daemon.headers })).text();
      assert.equal(stored.includes(token), false, `session ${s.id} stores no token`);
    }
  });
});

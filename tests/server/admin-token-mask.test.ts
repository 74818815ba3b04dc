/**
 * homed's own admin token, pasted into a chat, is masked like any other secret (src/text/secrets.ts
 * `maskKnownSecret`, registered by the daemon at start): the model's request and the stored
 * conversation never hold it, whether it came as the console's message or in an OpenAI client's.
 * So is an app key (`hk-…`, caught by its shape), even in a request made with that very key.
 */
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { startApiDaemon, type ApiDaemon } from "../support/api-daemon.ts";
import { startScriptedProvider, type ScriptedProvider } from "../support/scripted-provider.ts";
import { tempDir, type TempDir } from "../support/temp-dir.ts";

describe("the admin token and an app key pasted into a chat", () => {
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

  /** Every session's stored conversation, as the console reads it. */
  const storedSessions = async () => {
    const sessions = (await (await fetch(`${daemon.url}/api/sessions`, { headers: daemon.headers })).json()) as { sessions: { id: string }[] };
    return Promise.all(sessions.sessions.map(async (s) => ({ id: s.id, text: await (await fetch(`${daemon.url}/api/sessions/${s.id}/context`, { headers: daemon.headers })).text() })));
  };

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
    for (const stored of await storedSessions()) assert.equal(stored.text.includes(token), false, `session ${stored.id} stores no token`);
  });

  test("an app key in a console message and in an OpenAI client's request made with it: neither the provider nor any stored session sees it", async () => {
    const created = await fetch(`${daemon.url}/api/keys`, { method: "POST", headers: daemon.headers, body: JSON.stringify({ name: "pasted", scopes: ["v1"] }) });
    const key = ((await created.json()) as { key: string }).key;
    assert.match(key, /^hk-/);
    const before = provider.requests.length;
    await daemon.send(await daemon.openSession("me"), `the app key is ${key}, remember it`);
    const response = await fetch(`${daemon.url}/v1/chat/completions`, {
      method: "POST",
      headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
      body: JSON.stringify({ model: "homed", messages: [{ role: "user", content: `my key: ${key}` }] }),
    });
    assert.equal(response.status, 200);
    const sentNow = provider.requests.slice(before);
    assert.equal(sentNow.length, 2);
    for (const r of sentNow) {
      const sent = JSON.stringify(r.body);
      assert.equal(sent.includes(key), false, `the provider never gets the key: ${sent.replaceAll(key, "<KEY>")}`);
      assert.match(sent, /\[secret masked: homed-app-key\]/);
    }
    for (const stored of await storedSessions()) assert.equal(stored.text.includes(key), false, `session ${stored.id} stores no app key`);
    // Nor any file of the data folder: the database (and its write-ahead log), the logs.
    for (const file of readdirSync(dir.path, { recursive: true, encoding: "utf8" })) {
      const path = join(dir.path, file);
      if (statSync(path).isFile()) assert.equal(readFileSync(path).includes(key), false, `${file} holds no app key`);
    }
  });
});

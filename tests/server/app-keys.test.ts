/**
 * Per-app API keys against a real daemon: made, listed and revoked by `homed key` (a child
 * process on the same data folder, while the daemon runs) and by `/api/keys`; used by the
 * official `openai` SDK. A key opens /v1 and nothing else, and each app is its own partner.
 */
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import OpenAI from "openai";
import { join } from "node:path";
import { AppKeys, LAST_USED_RESOLUTION_MS } from "../../src/server/app-keys.ts";
import { openStore } from "../../src/store/index.ts";
import { startApiDaemon, type ApiDaemon } from "../support/api-daemon.ts";
import { run, SOURCE_HOMED } from "../support/process.ts";
import { startScriptedProvider, type ReceivedRequest, type ScriptedProvider } from "../support/scripted-provider.ts";
import { tempDir, type TempDir } from "../support/temp-dir.ts";

const lastUser = (r: ReceivedRequest) => String([...r.body.messages].reverse().find((m: any) => m.role === "user")?.content ?? "");

describe("app keys", () => {
  let dir: TempDir;
  let provider: ScriptedProvider;
  let daemon: ApiDaemon;
  const homedKey = (...args: string[]) => run([...SOURCE_HOMED, "key", ...args, "-data", dir.path]);
  const sdk = (apiKey: string) => new OpenAI({ baseURL: `${daemon.url}/v1`, apiKey, maxRetries: 0 });
  const ask = (apiKey: string, content: string, user?: string) => sdk(apiKey).chat.completions.create({ model: "homed", messages: [{ role: "user", content }], ...(user ? { user } : {}) });
  const admin = (path: string, init: RequestInit = {}) => fetch(`${daemon.url}${path}`, { ...init, headers: daemon.headers });

  before(async () => {
    dir = tempDir("homed-app-keys-");
    provider = await startScriptedProvider((r) => ({ content: `answer to ${lastUser(r)}` }));
    daemon = await startApiDaemon(dir.path, provider.url);
  });
  after(async () => {
    await daemon?.stop();
    await provider?.close();
    dir?.remove();
  });

  test("homed key: create (shown once), use with the SDK, list, revoke while the daemon runs", async () => {
    const made = await homedKey("create", "webui", "-partner", "alice", "-scopes", "v1");
    assert.equal(made.code, 0, made.stderr);
    const key = made.stdout.trim();
    assert.match(key, /^hk-[A-Za-z0-9_-]{43}$/);
    assert.match(made.stderr, /key 'webui' made for \/v1 \(partner alice\); it is shown this once/);

    const answer = await ask(key, "hello from webui");
    assert.equal(answer.choices[0]!.message.content, "answer to hello from webui");
    const sessions = (await (await admin("/api/sessions")).json()) as { sessions: { channel: string; partner: string }[] };
    assert.ok(
      sessions.sessions.some((s) => s.channel === "openai" && s.partner === "alice"),
      "the key's partner holds the turn",
    );

    const listed = await homedKey("list");
    assert.equal(listed.code, 0, listed.stderr);
    assert.match(listed.stdout, /^webui\tpartner=alice\tscopes=v1\tcreated=\d{4}-\d\d-\d\d \d\d:\d\d\tlast-used=\d{4}-/);
    assert.equal(listed.stdout.includes(key), false);

    const revoked = await homedKey("revoke", "webui");
    assert.equal(revoked.code, 0, revoked.stderr);
    const refused = await sdk(key)
      .models.list()
      .catch((e) => e);
    assert.ok(refused instanceof OpenAI.AuthenticationError, String(refused));
    assert.match(refused.message, /^401 The key matches neither the admin token nor a live app key/);

    const again = await homedKey("revoke", "webui");
    assert.equal(again.code, 1);
    assert.match(again.stderr, /No key named 'webui'/);
    const badScope = await homedKey("create", "x", "-scopes", "api");
    assert.equal(badScope.code, 2);
    assert.match(badScope.stderr, /-scopes api: give v1, mcp or v1,mcp/);
  });

  test("a /v1 key cannot reach /api, nor a key without the v1 scope /v1", async () => {
    const v1 = ((await (await admin("/api/keys", { method: "POST", body: JSON.stringify({ name: "script", scopes: ["v1"] }) })).json()) as { key: string }).key;
    for (const [method, path] of [
      ["GET", "/api/sessions"],
      ["GET", "/api/keys"],
      ["POST", "/api/keys"],
      ["GET", "/api/memory/stats"],
      ["GET", "/api/providers"],
    ] as const) {
      const res = await fetch(`${daemon.url}${path}`, { method, headers: { authorization: `Bearer ${v1}`, "content-type": "application/json" }, body: method === "POST" ? "{}" : undefined });
      assert.equal(res.status, 403, path);
      assert.deepEqual(await res.json(), { error: "key_scope", message: "The app key 'script' opens /v1 only; this route needs the admin token" });
    }
    const mcpOnly = ((await (await admin("/api/keys", { method: "POST", body: JSON.stringify({ name: "ide", scopes: ["mcp"] }) })).json()) as { key: string }).key;
    const refused = await sdk(mcpOnly)
      .models.list()
      .catch((e) => e);
    assert.ok(refused instanceof OpenAI.PermissionDeniedError, String(refused));
    assert.equal(refused.message, "403 The app key 'ide' opens /mcp only; /v1 needs a key with that scope or the admin token");
  });

  test("/api/keys: the key only in the creating answer; duplicates 409; revoke 204 then 404", async () => {
    const created = await admin("/api/keys", { method: "POST", body: JSON.stringify({ name: "librechat", partner: "bob" }) });
    assert.equal(created.status, 201);
    const view = (await created.json()) as { key: string; name: string; partner: string; scopes: string[] };
    assert.deepEqual([view.name, view.partner, view.scopes], ["librechat", "bob", ["v1", "mcp"]]);
    const list = await (await admin("/api/keys")).text();
    assert.equal(list.includes(view.key), false);
    assert.ok((JSON.parse(list) as { keys: { name: string }[] }).keys.some((k) => k.name === "librechat"));
    const dup = await admin("/api/keys", { method: "POST", body: JSON.stringify({ name: "librechat" }) });
    assert.equal(dup.status, 409);
    assert.equal(((await dup.json()) as { error: string }).error, "key_exists");
    const badName = await admin("/api/keys", { method: "POST", body: JSON.stringify({ name: "no spaces" }) });
    assert.equal(badName.status, 400);
    assert.equal((await admin("/api/keys/librechat", { method: "DELETE" })).status, 204);
    assert.equal((await admin("/api/keys/librechat", { method: "DELETE" })).status, 404);
    assert.equal(
      (
        await sdk(view.key)
          .models.list()
          .catch((e) => e)
      ).status,
      401,
    );
  });

  test("last used: null until a request comes with the key, then its time; written at most once a minute", async () => {
    const created = (await (await admin("/api/keys", { method: "POST", body: JSON.stringify({ name: "used-later" }) })).json()) as { key: string; lastUsedAt: number | null };
    assert.equal(created.lastUsedAt, null);
    const listed = async () => ((await (await admin("/api/keys")).json()) as { keys: { name: string; lastUsedAt: number | null }[] }).keys.find((k) => k.name === "used-later")!;
    assert.equal((await listed()).lastUsedAt, null);
    const before = Date.now();
    await sdk(created.key).models.list();
    const used = (await listed()).lastUsedAt!;
    assert.ok(used >= before && used <= Date.now(), `last used ${used}`);

    // The throttle, on a store of its own: a use within the minute writes nothing.
    const store = await openStore({ url: `file:${join(dir.path, "throttle.db")}` });
    try {
      const keys = new AppKeys(store.client);
      const { key } = await keys.create({ name: "busy" });
      const t0 = 1_800_000_000_000;
      assert.equal((await keys.verify(key, t0))!.lastUsedAt, t0);
      assert.equal((await keys.verify(key, t0 + LAST_USED_RESOLUTION_MS - 1))!.lastUsedAt, t0);
      assert.equal((await keys.list())[0]!.lastUsedAt, t0, "the second use within the minute was not written");
      assert.equal((await keys.verify(key, t0 + LAST_USED_RESOLUTION_MS))!.lastUsedAt, t0 + LAST_USED_RESOLUTION_MS);
      assert.equal((await keys.list())[0]!.lastUsedAt, t0 + LAST_USED_RESOLUTION_MS);
    } finally {
      store.close();
    }
  });

  test("two apps without `user` never see each other's turns; `user` narrows the key's partner, never replaces it", async () => {
    const make = async (name: string) => ((await (await admin("/api/keys", { method: "POST", body: JSON.stringify({ name }) })).json()) as { key: string }).key;
    const one = await make("app-one");
    const two = await make("app-two");
    await ask(one, "app one's secret: the vault code is 4417");
    await ask(two, "what is the vault code?");
    const asked = provider.requests.find((r) => lastUser(r) === "what is the vault code?")!;
    assert.doesNotMatch(JSON.stringify(asked.body.messages), /\b4417\b/, "app two's request carries nothing of app one's turn");
    const stored = async (partner: string) => {
      const list = (await (await admin("/api/sessions")).json()) as { sessions: { id: string; channel: string; partner: string }[] };
      const session = list.sessions.find((s) => s.channel === "openai" && s.partner === partner)!;
      return await (await admin(`/api/sessions/${session.id}/context`)).text();
    };
    assert.ok((await stored("app-one")).includes("4417"), "app one's turn is stored in its own session");
    assert.equal((await stored("app-two")).includes("4417"), false, "and not in app two's");

    await ask(two, "hi, I am carol", "carol");
    const sessions = (await (await admin("/api/sessions")).json()) as { sessions: { channel: string; partner: string }[] };
    const partners = sessions.sessions
      .filter((s) => s.channel === "openai")
      .map((s) => s.partner)
      .sort();
    assert.deepEqual(
      partners.filter((p) => ["app-one", "app-two", "carol", "app-two/carol", "default"].includes(p)),
      ["app-one", "app-two", "app-two/carol"],
    );
  });

  test("homed key create on a folder homed has never started: it makes the database; the key works once the daemon runs there", async () => {
    const fresh = tempDir("homed-app-keys-fresh-");
    try {
      const folder = join(fresh.path, "not-yet");
      const listed = await run([...SOURCE_HOMED, "key", "list", "-data", folder]);
      assert.equal(listed.code, 2, listed.stderr);
      assert.match(listed.stderr, /there is no homed database in .*not-yet yet \(homed key create NAME makes one\)/);
      const made = await run([...SOURCE_HOMED, "key", "create", "early-app", "-data", folder]);
      assert.equal(made.code, 0, made.stderr);
      const early = await startApiDaemon(folder, provider.url);
      try {
        const answer = await new OpenAI({ baseURL: `${early.url}/v1`, apiKey: made.stdout.trim(), maxRetries: 0 }).chat.completions.create({
          model: "homed",
          messages: [{ role: "user", content: "made before the first start" }],
        });
        assert.equal(answer.choices[0]!.message.content, "answer to made before the first start");
      } finally {
        await early.stop();
      }
    } finally {
      fresh.remove();
    }
  });
});

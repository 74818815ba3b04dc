/**
 * Hostile values at every JSON route of a real daemon (issue 14.4): generated bodies — any JSON,
 * broken JSON, and each route's own fields filled with control characters, NUL, lone surrogates,
 * huge numbers, wrong types — must never answer 500 or more, and the daemon must still answer
 * afterwards. Before: `memory_recall {"query":"a\u0000b"}` and `/api/memory/search?q=a%00b`
 * answered 500 "SQLITE_ERROR: unterminated string"; a provider key with CR/LF was stored and
 * every later chat failed with 502.
 */
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { join } from "node:path";
import fc from "fast-check";
import { startApiDaemon, type ApiDaemon } from "../support/api-daemon.ts";
import { startScriptedProvider, type ScriptedProvider } from "../support/scripted-provider.ts";
import { tempDir } from "../support/temp-dir.ts";

let provider: ScriptedProvider;
let daemon: ApiDaemon;
let session: string;
let tools: string[];

const scratch = tempDir("homed-fuzz-");

before(async () => {
  provider = await startScriptedProvider(() => ({ content: "ok" }));
  daemon = await startApiDaemon(join(scratch.path, "data"), provider.url);
  session = await daemon.openSession("fuzz");
  const listed = (await (await fetch(`${daemon.url}/api/memory/tools`, { headers: daemon.headers })).json()) as { tools: { name: string }[] };
  tools = listed.tools.map((t) => t.name);
});
after(async () => {
  await daemon?.stop();
  await provider?.close();
  scratch.remove();
});

/** Strings a careless boundary breaks on. */
const hostileString = fc.oneof(
  fc.string({ unit: "binary", maxLength: 40 }),
  fc.string({ unit: fc.constantFrom("\u0000", "\r", "\n", "\t", "\u001b", "\u007f", "\ud800", "\udfff", "\u2028", "'", '"', "*", "(", ")", "NEAR", "OR", "a", "中"), maxLength: 30 }),
  fc.constantFrom("a\u0000b", "\u0000", "sk-key\r\nX-Injected: 1", "https://x.test/v1\r\n", "' OR 1=1 --", '"unterminated', "NEAR(a b)", "😀".repeat(50)),
);
const hostileValue = fc.oneof(
  hostileString,
  fc.integer(),
  fc.double(),
  fc.boolean(),
  fc.constant(null),
  fc.array(hostileString, { maxLength: 3 }),
  fc.dictionary(hostileString, hostileString, { maxKeys: 3 }),
);

/** Each route's own field names, so that generated bodies reach past "wrong shape" into the handlers. */
const FIELDS: Record<string, string[]> = {
  login: ["token"],
  session: ["partner", "channel"],
  message: ["content"],
  completion: ["model", "messages", "user", "stream"],
  provider: ["name", "preset", "baseUrl", "model", "apiKey"],
  test: ["id", "baseUrl", "model", "apiKey"],
  tool: ["query", "k", "conversation", "id", "text", "subject", "predicate", "object", "scope", "importance", "layer", "limit", "offset", "session"],
};

const shaped = (fields: string[]) => fc.dictionary(fc.constantFrom(...fields), hostileValue, { maxKeys: fields.length });
const chatMessages = fc.array(fc.record({ role: fc.oneof(fc.constantFrom("user", "assistant", "system", "tool"), hostileString), content: fc.oneof(hostileString, fc.constant(null)) }), {
  maxLength: 3,
});

/** Any JSON, broken JSON, the route's fields with values of any type, or with the right types. */
const body = (fields: string[], typed?: fc.Arbitrary<object>) =>
  fc.oneof(
    { weight: 1, arbitrary: fc.json() },
    { weight: 1, arbitrary: fc.string({ maxLength: 30 }) },
    { weight: 2, arbitrary: shaped(fields).map((o) => JSON.stringify(o)) },
    { weight: typed ? 3 : 0, arbitrary: (typed ?? fc.constant({})).map((o) => JSON.stringify(o)) },
  );
const text = hostileString.filter((s) => s.trim().length > 0);
const TYPED = {
  message: () => fc.record({ content: text }),
  session: () => fc.record({ partner: text, channel: text }, { requiredKeys: ["partner"] }),
  // The scripted provider's URL: a provider saved (and maybe made active) must still answer turns.
  provider: () => fc.record({ name: text, baseUrl: fc.constant(provider.url), model: text, apiKey: hostileString, preset: hostileString }, { requiredKeys: ["name", "baseUrl", "model"] }),
  tool: () =>
    fc.oneof(
      fc.record({ query: text, k: fc.integer({ min: -5, max: 100 }), conversation: hostileString }, { requiredKeys: ["query"] }),
      fc.record({ text, subject: text, predicate: text, object: text, scope: hostileString, importance: fc.double() }, { requiredKeys: ["text"] }),
      fc.record({ id: hostileString }),
      fc.record({ layer: fc.constantFrom("L2", "L3"), conversation: hostileString, limit: fc.integer(), offset: fc.integer() }),
    ),
};

type Request = { method: string; path: string; body?: string; auth: boolean };

function requests(): fc.Arbitrary<Request> {
  const id = fc.oneof(fc.constant("x"), fc.string({ unit: "binary", minLength: 1, maxLength: 12 }).map(encodeURIComponent));
  return fc.oneof(
    body(FIELDS.login!).map((b) => ({ method: "POST", path: "/api/login", body: b, auth: false })),
    body(FIELDS.session!, TYPED.session()).map((b) => ({ method: "POST", path: "/api/sessions", body: b, auth: true })),
    body(FIELDS.message!, TYPED.message()).map((b) => ({ method: "POST", path: `/api/sessions/${session}/messages`, body: b, auth: true })),
    fc.record({ id, b: body(FIELDS.message!) }).map(({ id, b }) => ({ method: "POST", path: `/api/sessions/${id}/messages`, body: b, auth: true })),
    fc
      .oneof(
        body(FIELDS.completion!),
        fc.record({ model: hostileString, messages: chatMessages, user: hostileString }).map((o) => JSON.stringify(o)),
      )
      .map((b) => ({ method: "POST", path: "/v1/chat/completions", body: b, auth: true })),
    body(FIELDS.provider!, TYPED.provider()).map((b) => ({ method: "POST", path: "/api/providers", body: b, auth: true })),
    fc.record({ id, b: body(FIELDS.provider!) }).map(({ id, b }) => ({ method: "PUT", path: `/api/providers/${id}`, body: b, auth: true })),
    fc.record({ id }).map(({ id }) => ({ method: "POST", path: `/api/providers/${id}/activate`, auth: true })),
    fc.record({ id }).map(({ id }) => ({ method: "DELETE", path: `/api/providers/${id}`, auth: true })),
    // Only bodies without a usable baseUrl: a valid one would make a real network call.
    fc.record({ id: hostileString }).map((o) => ({ method: "POST", path: "/api/providers/test", body: JSON.stringify(o), auth: true })),
    fc.record({ tool: fc.constantFrom(...tools), b: body(FIELDS.tool!, TYPED.tool()) }).map(({ tool, b }) => ({ method: "POST", path: `/api/memory/tools/${tool}`, body: b, auth: true })),
    fc
      .record({ q: hostileString, layer: fc.oneof(fc.constantFrom("all", "L1", "L2", "L3"), hostileString), limit: fc.oneof(fc.constant("5"), hostileString) }, { requiredKeys: ["q"] })
      .map((q) => ({ method: "GET", path: `/api/memory/search?${new URLSearchParams(q)}`, auth: true })),
    fc.record({ id }).map(({ id }) => ({ method: "GET", path: `/api/memory/records/${id}`, auth: true })),
    fc.record({ id }).map(({ id }) => ({ method: "GET", path: `/api/inspect/${id}`, auth: true })),
  );
}

async function send(r: Request): Promise<{ status: number; text: string }> {
  const headers: Record<string, string> = r.auth ? { ...daemon.headers } : { "content-type": "application/json", "x-homed-request": "1" };
  const response = await fetch(`${daemon.url}${r.path}`, { method: r.method, headers, body: r.body });
  return { status: response.status, text: await response.text() };
}

describe("hostile values", () => {
  test("NUL in a recall query is searched as text, not a 500", async () => {
    const recall = await send({ method: "POST", path: "/api/memory/tools/memory_recall", body: JSON.stringify({ query: "a\u0000b" }), auth: true });
    assert.equal(recall.status, 200, recall.text);
    const search = await send({ method: "GET", path: "/api/memory/search?q=a%00b", auth: true });
    assert.equal(search.status, 200, search.text);
  });

  test("a provider key or URL with a line break is refused at input with 400", async () => {
    const key = await send({ method: "POST", path: "/api/providers", body: JSON.stringify({ name: "p", baseUrl: "https://x.test/v1", model: "m", apiKey: "sk-abc\r\n" }), auth: true });
    assert.equal(key.status, 400, key.text);
    assert.match(key.text, /apiKey must be printable ASCII, without line breaks or tabs/);
    const url = await send({ method: "POST", path: "/api/providers", body: JSON.stringify({ name: "p", baseUrl: "https://x.test/v1\r\n", model: "m" }), auth: true });
    assert.equal(url.status, 400, url.text);
    assert.match(url.text, /baseUrl must not contain control characters/);
  });

  test("2,000 generated bodies at every JSON route: no answer of 500 or more, and the daemon still answers", async () => {
    const failures: string[] = [];
    await fc.assert(
      fc.asyncProperty(requests(), async (r) => {
        const { status, text } = await send(r);
        if (status >= 500) failures.push(`${r.method} ${r.path} ${JSON.stringify(r.body)} → ${status} ${text.slice(0, 200)}`);
        return status < 500;
      }),
      { numRuns: 2000, seed: 20261130, endOnFailure: true },
    );
    assert.deepEqual(failures, []);
    assert.equal((await fetch(`${daemon.url}/healthz`)).status, 200);
    assert.match(await daemon.send(session, "still there?"), /event: done/);
  });
});

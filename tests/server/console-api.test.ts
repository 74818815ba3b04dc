/** The console's side of the API: cookie login, same-origin rule, wrong tokens slowed, memory, inspector, audit. */
import { describe, test, afterEach } from "node:test";
import assert from "node:assert/strict";
import { sinkToL2 } from "../../src/context/index.ts";
import { auditInjection } from "../../src/memory/index.ts";
import { createLogger } from "../../src/log/index.ts";
import { toolSpecTokens } from "../../src/kernel/index.ts";
import { createApp } from "../../src/server/index.ts";
import { FREE_FAILURES, LoginThrottle, SOURCE_GUESSES_PER_S } from "../../src/server/login-throttle.ts";
import { kernelHarness, type Harness } from "../kernel/support.ts";

const TOKEN = "k".repeat(40);
const HOST = "127.0.0.1:8080";
const bearer = { authorization: `Bearer ${TOKEN}`, "content-type": "application/json" };
const fromConsole = { host: HOST, origin: `http://${HOST}`, "x-homed-request": "1", "content-type": "application/json" };

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

function appFor(harness: Harness, lines: string[] = [], throttle?: LoginThrottle) {
  const log = createLogger({ level: "info", stderr: (line) => void lines.push(line) });
  return createApp({ version: "0.0.0-test", store: harness.store, log, kernel: harness.kernel, adminToken: TOKEN, adminTokenPath: "/data/admin.token", throttle });
}

async function login(app: ReturnType<typeof appFor>): Promise<string> {
  const res = await app.request("/api/login", { method: "POST", headers: fromConsole, body: JSON.stringify({ token: TOKEN }) });
  assert.equal(res.status, 200);
  return /homed_session=[^;]+/.exec(res.headers.get("set-cookie") ?? "")![0];
}

describe("console login", () => {
  test("the cookie is HttpOnly and SameSite=Strict, and lets the console read and (with the header, same origin) write", async () => {
    h = await kernelHarness([]);
    const app = appFor(h);
    const status = await (await app.request("/api/auth")).json();
    assert.deepEqual(status, { loggedIn: false, tokenFile: "/data/admin.token" });
    const wrong = await app.request("/api/login", { method: "POST", headers: fromConsole, body: JSON.stringify({ token: "nope" }) });
    assert.equal(wrong.status, 401);
    assert.equal(wrong.headers.get("set-cookie"), null);

    const res = await app.request("/api/login", { method: "POST", headers: fromConsole, body: JSON.stringify({ token: TOKEN }) });
    const setCookie = res.headers.get("set-cookie") ?? "";
    assert.match(setCookie, /HttpOnly/);
    assert.match(setCookie, /SameSite=Strict/);
    assert.doesNotMatch(setCookie, new RegExp(TOKEN), "the cookie is a session id, not the token");
    const cookie = /homed_session=[^;]+/.exec(setCookie)![0];

    assert.equal((await app.request("/api/sessions", { headers: { cookie } })).status, 200);
    assert.equal(((await (await app.request("/api/auth", { headers: { cookie } })).json()) as { loggedIn: boolean }).loggedIn, true);
    const create = (headers: Record<string, string>) => app.request("/api/sessions", { method: "POST", headers: { ...headers, cookie }, body: JSON.stringify({ partner: "p" }) });
    const noHeader = await create({ host: HOST, origin: `http://${HOST}`, "content-type": "application/json" });
    assert.equal(noHeader.status, 403);
    assert.equal(((await noHeader.json()) as { error: string }).error, "cross_site");
    assert.equal((await create({ ...fromConsole, origin: "http://evil.example" })).status, 403);
    assert.equal((await create(fromConsole)).status, 201);
    // Scripts with the token need no console header.
    assert.equal((await app.request("/api/sessions", { method: "POST", headers: bearer, body: JSON.stringify({ partner: "q" }) })).status, 201);

    await app.request("/api/logout", { method: "POST", headers: { ...fromConsole, cookie } });
    assert.equal((await app.request("/api/sessions", { headers: { cookie } })).status, 401);
  });

  test("a cross-site login attempt is refused before the token is even checked", async () => {
    h = await kernelHarness([]);
    const res = await appFor(h).request("/api/login", { method: "POST", headers: { ...fromConsole, origin: "http://evil.example" }, body: JSON.stringify({ token: TOKEN }) });
    assert.equal(res.status, 403);
  });

  test("a cross-site logout is refused and the login stays", async () => {
    h = await kernelHarness([]);
    const app = appFor(h);
    const cookie = await login(app);
    const res = await app.request("/api/logout", { method: "POST", headers: { ...fromConsole, cookie, origin: "http://evil.example" } });
    assert.equal(res.status, 403);
    assert.equal((await res.json()).error, "cross_site");
    assert.equal((await app.request("/api/sessions", { headers: { cookie } })).status, 200);
  });

  test("after many wrong tokens from one address the right token is still accepted at once; only the wrong ones wait", async () => {
    h = await kernelHarness([]);
    const waits: number[] = [];
    // The clock stands still: each wrong token adds its whole cost to the source's debt.
    const throttle = new LoginThrottle({ now: () => 0, sleep: async (ms) => void waits.push(ms) });
    const app = appFor(h, [], throttle);
    const from = (address: string) => ({ remoteAddress: address });
    for (let i = 0; i < 10; i++) {
      const res = await app.request("/api/login", { method: "POST", headers: fromConsole, body: JSON.stringify({ token: `guess${i}` }) }, from("10.0.0.7"));
      assert.equal(res.status, 401);
      const bearer = await app.request("/api/sessions", { headers: { authorization: `Bearer guess${i}` } }, from("10.0.0.7"));
      assert.equal(bearer.status, 401);
    }
    const expected = Array.from({ length: 20 }, (_, i) => ((i + 1 - FREE_FAILURES) * 1000) / SOURCE_GUESSES_PER_S).filter((ms) => ms > 0);
    assert.deepEqual(waits, expected, "login and Bearer failures share the source's count");
    assert.ok(waits.length > 10);
    waits.length = 0;
    assert.equal((await app.request("/api/login", { method: "POST", headers: fromConsole, body: JSON.stringify({ token: TOKEN }) }, from("10.0.0.7"))).status, 200);
    assert.equal((await app.request("/api/sessions", { headers: bearer }, from("10.0.0.7"))).status, 200);
    assert.deepEqual(waits, [], "a correct token never waits");
    // Another address starts at full speed.
    assert.equal((await app.request("/api/login", { method: "POST", headers: fromConsole, body: JSON.stringify({ token: "nope" }) }, from("10.0.0.8"))).status, 401);
    assert.deepEqual(waits, []);
  });
});

describe("console memory, inspector and audit", () => {
  test("search finds a sunk memory ranked, delete removes it everywhere and writes an audit line", async () => {
    h = await kernelHarness([{ content: "Noted: the harbour boat is blue." }, { content: "ok" }]);
    const lines: string[] = [];
    const app = appFor(h, lines);
    const cookie = await login(app);
    const session = (await (await app.request("/api/sessions", { method: "POST", headers: { ...fromConsole, cookie }, body: JSON.stringify({ partner: "pat" }) })).json()) as { id: string };
    await (
      await app.request(`/api/sessions/${session.id}/messages`, { method: "POST", headers: { ...fromConsole, cookie }, body: JSON.stringify({ content: "Remember the harbour boat colour" }) })
    ).text();
    const first = (await h.store.client.execute({ sql: "SELECT id FROM events WHERE session_id = ? ORDER BY seq LIMIT 1", args: [session.id] })).rows[0]!.id as string;
    await sinkToL2(h.store.client, [first]);

    const stats = (await (await app.request("/api/memory/stats", { headers: { cookie } })).json()) as any;
    assert.equal(stats.layers.L1.events, 1);
    assert.equal(stats.layers.L2.events, 1);
    assert.ok(stats.storageBytes > 0);
    assert.equal(typeof stats.embedder.modelId, "string");

    const search = (await (await app.request("/api/memory/search?q=harbour&layer=L2", { headers: { cookie } })).json()) as any;
    assert.deepEqual(
      search.records.map((r: any) => r.id),
      [first],
    );
    assert.ok(search.records[0].score > 0);
    assert.equal(search.records[0].provenance.session, session.id);

    const inspect = (await (await app.request(`/api/inspect/${session.id}`, { headers: { cookie } })).json()) as any;
    assert.equal(inspect.budget, h.kernel.budget);
    // The memory tools alone are sent with every request and take their share of the budget.
    assert.ok(h.kernel.tools.specs().length > 0);
    assert.equal(inspect.toolTokens, toolSpecTokens(h.kernel.tools.specs()));
    assert.ok(inspect.toolTokens > 100);
    assert.deepEqual(
      inspect.sunk.map((e: any) => e.id),
      [first],
    );
    assert.ok(inspect.sunk[0].sunkAt >= inspect.sunk[0].time, "when it sank is recorded, not only when it was said");
    assert.equal(inspect.live.length, 1);
    assert.equal(inspect.live[0].pinned, true);
    assert.ok(inspect.live[0].tokens > 0);

    // A turn that recalls the sunk memory shows up in the audit.
    await (await app.request(`/api/sessions/${session.id}/messages`, { method: "POST", headers: { ...fromConsole, cookie }, body: JSON.stringify({ content: "Which harbour boat?" }) })).text();
    const audit = (await (await app.request("/api/audit", { headers: { cookie } })).json()) as any;
    assert.equal(audit.entries[0].query, "Which harbour boat?");
    assert.deepEqual(
      audit.entries[0].ids.map((i: any) => i.id),
      [first],
    );

    const record = (await (await app.request(`/api/memory/records/${first}`, { headers: { cookie } })).json()) as any;
    assert.equal(record.kind, "event");
    // Recall was sure of it (first in both channels, every word of the question): the turn moved
    // it back into the session's context (peek → confirm → move), and the audit says so.
    assert.equal(record.layer, "L1");
    assert.equal(audit.entries[0].ids[0].band, "RESTORED");
    assert.equal(record.session, session.id);
    assert.equal((await app.request(`/api/memory/records/${first}`, { method: "DELETE", headers: { host: HOST, cookie } })).status, 403);
    const suffix = first.replace(/[^a-zA-Z0-9]/g, "").slice(-8);
    assert.equal((await app.request(`/api/memory/records/${suffix}`, { method: "DELETE", headers: { ...fromConsole, cookie } })).status, 404, "no delete by a suffix");
    assert.equal((await app.request(`/api/memory/records/${first}`, { method: "DELETE", headers: { ...fromConsole, cookie } })).status, 204);
    const after = (await (await app.request("/api/memory/search?q=harbour", { headers: { cookie } })).json()) as any;
    assert.deepEqual(
      after.records.filter((r: any) => r.id === first),
      [],
    );
    const blocks = await h.store.client.execute({ sql: "SELECT COUNT(*) AS n FROM blocks WHERE event_id = ?", args: [first] });
    assert.equal(Number(blocks.rows[0]!.n), 0);
    assert.ok(
      lines.some((l) => l.includes(`audit: console deleted memory ${first}`)),
      lines.join(""),
    );
    assert.equal((await app.request(`/api/memory/records/${first}`, { method: "DELETE", headers: { ...fromConsole, cookie } })).status, 404);
  });
});

describe("console history import", () => {
  const line = (id: string, text: string) => JSON.stringify({ conversation: "pat", session: "s1", time: "2026-02-01T09:00:00Z", speaker: "pat", role: "user", text, id });
  const events = (text: string) =>
    text
      .split("\n\n")
      .filter((b) => b.includes("data:"))
      .map((b) => ({ event: /^event: (.*)$/m.exec(b)![1], data: JSON.parse(/^data: (.*)$/m.exec(b)![1]!) }));

  test("streams progress then the result; a bad line refuses the file unless skipped; re-import adds nothing", async () => {
    h = await kernelHarness([]);
    const app = appFor(h);
    const cookie = await login(app);
    const post = (body: string, query = "") => app.request(`/api/memory/import${query}`, { method: "POST", headers: { ...fromConsole, "content-type": "application/x-ndjson", cookie }, body });
    const file = [line("a", "The kettle is in the loft."), line("b", "The spare key is under the mat."), line("c", "Bins go out on Tuesday.")].join("\n");

    const first = events(await (await post(file)).text());
    assert.ok(first.some((e) => e.event === "progress" && e.data.total === 3));
    assert.deepEqual(first.at(-1), { event: "done", data: { added: 3, present: 0, skipped: 0 } });
    const search = (await (await app.request("/api/memory/search?q=kettle", { headers: { cookie } })).json()) as any;
    assert.equal(search.records[0].text, "The kettle is in the loft.");

    const bad = `${file}\n{"not":"a message"}`;
    const refused = await post(bad);
    assert.equal(refused.status, 400);
    assert.match(((await refused.json()) as { message: string }).message, /line 4/);
    const skipped = events(await (await post(bad, "?skipInvalid=1")).text());
    assert.deepEqual(skipped.at(-1), { event: "done", data: { added: 0, present: 3, skipped: 1 } });
  });

  test("?scope= makes the imported history private to a partner or project; a bad scope is refused", async () => {
    h = await kernelHarness([]);
    const app = appFor(h);
    const cookie = await login(app);
    const post = (id: string, scope: string) =>
      app.request(`/api/memory/import?scope=${encodeURIComponent(scope)}`, {
        method: "POST",
        headers: { ...fromConsole, "content-type": "application/x-ndjson", cookie },
        body: line(id, `note ${id}`),
      });
    const refused = await post("x", "everyone");
    assert.equal(refused.status, 400);
    assert.match(((await refused.json()) as { message: string }).message, /scope must be "user", "partner:NAME" or "project:NAME"/);
    for (const [id, scope] of [
      ["a", "partner:Mia"],
      ["b", "project:roof"],
      ["c", "user"],
    ] as const)
      events(await (await post(id, scope)).text());
    const rows = await h.store.client.execute("SELECT text, private_to FROM events ORDER BY text");
    assert.deepEqual(
      rows.rows.map((r) => [r.text, r.private_to]),
      [
        ["note a", "partner:Mia"],
        ["note b", "project:roof"],
        ["note c", null],
      ],
    );
    // The console shows each memory's scope.
    const search = (await (await app.request("/api/memory/search?q=note", { headers: { cookie } })).json()) as { records: { text: string; privateTo: string | null }[] };
    assert.deepEqual(search.records.map((r) => [r.text, r.privateTo]).sort(), [
      ["note a", "partner:Mia"],
      ["note b", "project:roof"],
      ["note c", null],
    ]);
    // ... and changes it.
    const id = String((await h.store.client.execute("SELECT id FROM events WHERE text = 'note a'")).rows[0]!.id);
    const patch = (scope: unknown) =>
      app.request(`/api/memory/records/${id}`, { method: "PATCH", headers: { ...fromConsole, "content-type": "application/json", cookie }, body: JSON.stringify({ scope }) });
    assert.equal((await patch("everyone")).status, 400);
    for (const [scope, stored] of [
      ["project:roof", "project:roof"],
      ["user", null],
    ] as const) {
      assert.equal((await patch(scope)).status, 200);
      assert.equal((await h.store.client.execute({ sql: "SELECT private_to FROM events WHERE id = ?", args: [id] })).rows[0]!.private_to, stored);
    }
  });
});

describe("console recall audit by conversation", () => {
  test("?session= lists only that conversation's turns; a bad value is refused", async () => {
    h = await kernelHarness([]);
    const app = appFor(h);
    const cookie = await login(app);
    const injection = (query: string) => ({ query, text: "", lines: [], counts: { L2: 0, L3: 0 }, chars: 0 });
    await auditInjection(h.store.client, "session-a", injection("asked in a"), 100);
    await auditInjection(h.store.client, "session-b", injection("asked in b"), 100);
    const entries = async (query: string) => ((await (await app.request(`/api/audit${query}`, { headers: { cookie } })).json()) as { entries: { query: string }[] }).entries.map((e) => e.query);
    assert.deepEqual(await entries("?session=session-a"), ["asked in a"]);
    assert.deepEqual((await entries("")).sort(), ["asked in a", "asked in b"]);
    assert.equal((await app.request(`/api/audit?session=${"x".repeat(201)}`, { headers: { cookie } })).status, 400);
  });
});

import { describe, test, after } from "node:test";
import assert from "node:assert/strict";
import { readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { join } from "node:path";
import { run, SOURCE_HOMED, startDaemon } from "../support/process.ts";
import { startApiDaemon } from "../support/api-daemon.ts";
import { testDir } from "../support/temp-dir.ts";

const tmp = () => testDir("homed-daemon-");

describe("daemon", () => {
  test("serves /healthz and the console, logs to the day's file (a second start appends), and stops cleanly on SIGTERM", async () => {
    const data = join(tmp(), "data");
    const daemon = await startDaemon([...SOURCE_HOMED, "-data", data, "-addr", "127.0.0.1:0"]);
    const health = await fetch(`${daemon.url}/healthz`);
    assert.equal(health.status, 200);
    const body = (await health.json()) as { ok: boolean; version: string };
    assert.equal(body.ok, true);
    assert.match(body.version, /^\d+\.\d+\.\d+/);

    const page = await fetch(`${daemon.url}/`);
    assert.match(page.headers.get("content-type") ?? "", /text\/html/);
    assert.match(await page.text(), /<title>homed<\/title>/);
    const script = await fetch(`${daemon.url}/assets/console.js`);
    assert.match(script.headers.get("content-type") ?? "", /javascript/);

    const anonymous = await fetch(`${daemon.url}/api/sessions`);
    assert.equal(anonymous.status, 401);
    assert.deepEqual(Object.keys((await anonymous.json()) as object).sort(), ["error", "message"]);

    const tokenFile = join(data, "admin.token");
    assert.equal(statSync(tokenFile).mode & 0o777, 0o600);
    // The start says where to point the browser and what to sign in with.
    assert.ok(daemon.stderr().includes(`console: open ${daemon.url}/ and sign in with the admin token in ${tokenFile}`), daemon.stderr());
    const token = readFileSync(tokenFile, "utf8").trim();
    const auth = { authorization: `Bearer ${token}` };
    const missing = await fetch(`${daemon.url}/api/nothing-here`, { headers: auth });
    assert.equal(missing.status, 404);
    assert.deepEqual(Object.keys((await missing.json()) as object).sort(), ["error", "message"]);
    const wrong = await fetch(`${daemon.url}/api/sessions`, { headers: { authorization: "Bearer nope" } });
    assert.equal(wrong.status, 401);

    const { code, ms } = await daemon.stop("SIGTERM");
    assert.equal(code, 0);
    assert.ok(ms < 5000, `exit took ${ms} ms`);

    // A second start the same day appends to the same file: one file a day, not one a start.
    await (await startDaemon([...SOURCE_HOMED, "-data", data, "-addr", "127.0.0.1:0"])).stop("SIGTERM");
    const logs = readdirSync(join(data, "logs"));
    assert.equal(logs.length, 1);
    assert.match(logs[0]!, /^homed_\d{8}\.log$/);
    const log = readFileSync(join(data, "logs", logs[0]!), "utf8");
    assert.equal(log.match(/listening on/g)?.length, 2);
    assert.equal(log.match(/stopped cleanly/g)?.length, 2);
    assert.match(log, /WARN {2}audit: wrong admin token from 127\.0\.0\.1 for GET \/api\/sessions/);
    assert.equal(log.includes(token), false, "the admin token is never logged in full");
  });

  test("SIGINT stops it too, with exit 0", async () => {
    const daemon = await startDaemon([...SOURCE_HOMED, "-data", join(tmp(), "d"), "-addr", "127.0.0.1:0"]);
    const { code } = await daemon.stop("SIGINT");
    assert.equal(code, 0);
  });
});

describe("start-up failures: one clear line and a non-zero exit", () => {
  const blocker = createServer();
  after(() => blocker.close());

  test("a port already in use", async () => {
    await new Promise<void>((resolve) => blocker.listen(0, "127.0.0.1", resolve));
    const port = (blocker.address() as { port: number }).port;
    const result = await run([...SOURCE_HOMED, "-data", join(tmp(), "d"), "-addr", `127.0.0.1:${port}`]);
    assert.notEqual(result.code, 0);
    const errors = result.stderr.split("\n").filter((l) => l.startsWith("homed:"));
    assert.equal(errors.length, 1, result.stderr);
    assert.match(errors[0]!, new RegExp(`Cannot listen on 127\\.0\\.0\\.1:${port}: address already in use`));
  });

  test("a data folder that cannot be created", async () => {
    const file = join(tmp(), "a-file");
    writeFileSync(file, "not a folder");
    const result = await run([...SOURCE_HOMED, "-data", join(file, "data"), "-addr", "127.0.0.1:0"]);
    assert.equal(result.code, 1);
    assert.equal(result.stderr.trim().split("\n").length, 1, result.stderr);
    assert.match(result.stderr, /^homed: Cannot use data folder .*a-file\/data: a part of the path is a file/);
  });

  test("a memory threshold or fusion setting out of range in homed.json names the file and the field", async () => {
    const data = tmp();
    writeFileSync(join(data, "homed.json"), JSON.stringify({ injection: { minScore: 2 }, cooling: { maxAccesses: 2 } }));
    const result = await run([...SOURCE_HOMED, "-data", data, "-addr", "127.0.0.1:0"]);
    assert.equal(result.code, 1);
    assert.equal(result.stderr.trim().split("\n").length, 1, result.stderr);
    assert.match(result.stderr, /^homed: Cannot start: .*homed\.json: injection\.minScore: /);
    writeFileSync(join(data, "homed.json"), JSON.stringify({ kernel: { budget: 10 } }));
    assert.match((await run([...SOURCE_HOMED, "-data", data, "-addr", "127.0.0.1:0"])).stderr, /^homed: Cannot start: .*homed\.json: kernel\.budget: /);
    // Fusion: a negative weight, an unknown method — refused at start, the field named.
    writeFileSync(join(data, "homed.json"), JSON.stringify({ fusion: { weights: { vector: -1 } } }));
    assert.match((await run([...SOURCE_HOMED, "-data", data, "-addr", "127.0.0.1:0"])).stderr, /^homed: Cannot start: .*homed\.json: fusion\.weights\.vector: /);
    writeFileSync(join(data, "homed.json"), JSON.stringify({ fusion: { method: "borda" } }));
    assert.match((await run([...SOURCE_HOMED, "-data", data, "-addr", "127.0.0.1:0"])).stderr, /^homed: Cannot start: .*homed\.json: fusion\.method: .*"coverage"\|"rrf"\|"linear"/);
    writeFileSync(join(data, "homed.json"), "{ not json");
    assert.match((await run([...SOURCE_HOMED, "-data", data, "-addr", "127.0.0.1:0"])).stderr, /^homed: Cannot read .*homed\.json: /);
  });

  test("homed.json sets the context budget the kernel renders under", async () => {
    const data = tmp();
    writeFileSync(join(data, "homed.json"), JSON.stringify({ kernel: { budget: 6000 }, plugins: { enabled: [] } }));
    const daemon = await startApiDaemon(data);
    const session = await daemon.openSession("p");
    const inspect = (await (await fetch(`${daemon.url}/api/inspect/${session}`, { headers: daemon.headers })).json()) as { budget: number };
    assert.equal(inspect.budget, 6000);
    assert.equal((await daemon.stop()).code, 0);
  });

  test("an unknown flag", async () => {
    const result = await run([...SOURCE_HOMED, "-verbose"]);
    assert.equal(result.code, 2);
    assert.equal(result.stderr.trim(), "homed: unknown flag -verbose (see homed --help)");
  });

  test("an unknown command", async () => {
    const result = await run([...SOURCE_HOMED, "frobnicate"]);
    assert.equal(result.code, 2);
    assert.match(result.stderr, /unknown command "frobnicate"/);
  });
});

describe("doctor", () => {
  test("every check passes on a fresh data folder; the fallback embedder is a warning", async () => {
    const result = await run([...SOURCE_HOMED, "doctor", "-data", join(tmp(), "d")]);
    assert.equal(result.code, 0, result.stdout + result.stderr);
    const lines = result.stdout.trim().split("\n");
    assert.ok(lines.length >= 8);
    // No model is installed in a fresh folder: recall works without meaning, which doctor warns about.
    for (const line of lines) assert.match(line, line.slice(5).startsWith("embedder") ? /^WARN embedder +fallback-hash-v1/ : /^ok {3}/);
  });

  test("a database from a newer homed fails the check with the reason, exit non-zero", async () => {
    const data = join(tmp(), "d");
    assert.equal((await run([...SOURCE_HOMED, "doctor", "-data", data])).code, 0);
    const { createClient } = await import("@libsql/client");
    const client = createClient({ url: `file:${join(data, "homed.db")}` });
    await client.execute("INSERT INTO homed_migrations (idx, tag, hash, applied_at) VALUES (999, '0999_future', 'x', 0)");
    client.close();
    const result = await run([...SOURCE_HOMED, "doctor", "-data", data]);
    assert.equal(result.code, 1);
    assert.match(result.stdout, /^FAIL database opens .*newer homed/m);
    assert.match(result.stdout, /^ok {3}jieba/m);
  });

  test("a corrupted database file fails", async () => {
    const data = tmp();
    writeFileSync(join(data, "homed.db"), Buffer.alloc(8192, 0x5a));
    const result = await run([...SOURCE_HOMED, "doctor", "-data", data]);
    assert.equal(result.code, 1);
    assert.match(result.stdout, /^FAIL database/m);
  });
});

/** `homed token reset -data DIR`: a lost token is replaced, privately, and printed once. */
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { run, SOURCE_HOMED } from "../support/process.ts";
import { testDir } from "../support/temp-dir.ts";

describe("homed token reset", () => {
  test("writes a new 0600 token, prints it on stdout, and the old one is gone", async () => {
    const dir = testDir("homed-token-");
    writeFileSync(join(dir, "admin.token"), `${"o".repeat(43)}\n`, { mode: 0o644 });
    const done = await run([...SOURCE_HOMED, "token", "reset", "-data", dir]);
    assert.equal(done.code, 0, done.stderr);
    const stored = readFileSync(join(dir, "admin.token"), "utf8").trim();
    assert.equal(done.stdout.trim(), stored);
    assert.notEqual(stored, "o".repeat(43));
    assert.ok(stored.length >= 32);
    assert.equal(statSync(join(dir, "admin.token")).mode & 0o777, 0o600);
    assert.doesNotMatch(done.stderr, new RegExp(stored), "the token goes to stdout only");
    assert.deepEqual(readdirSync(dir).sort(), ["admin.token", "audit.log", "logs"], "no database is created where there was none");
    // …and a line of audit.log, which the daemon log's rotation never removes.
    const audit = JSON.parse(readFileSync(join(dir, "audit.log"), "utf8").trim()) as { event: string; who: string; outcome: string };
    assert.deepEqual([audit.event, audit.who, audit.outcome], ["admin_token_reset", "cli", "ok"]);
    // The reset is an audit line in the day's log, with the token's hint only.
    const [logFile] = readdirSync(join(dir, "logs"));
    const log = readFileSync(join(dir, "logs", logFile!), "utf8");
    assert.match(log, new RegExp(`INFO  audit: admin token reset from the command line \\(now …${stored.slice(-4)}\\); 0 console login\\(s\\) ended`));
    assert.doesNotMatch(log, new RegExp(stored), "the token is never logged");
  });

  test("an empty folder holds no homed data: it says so and changes nothing", async () => {
    const dir = testDir("homed-token-");
    const done = await run([...SOURCE_HOMED, "token", "reset", "-data", dir]);
    assert.equal(done.code, 2);
    assert.match(done.stderr, /Cannot reset the admin token: there is no homed data in .*; nothing was changed/);
    assert.equal(done.stdout, "");
    assert.deepEqual(readdirSync(dir), []);
  });

  test("anything but `reset` is a usage error", async () => {
    const done = await run([...SOURCE_HOMED, "token", "show", "-data", testDir("homed-token-")]);
    assert.equal(done.code, 2);
    assert.match(done.stderr, /usage is homed token reset -data DIR/);
  });
});

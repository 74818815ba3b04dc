/**
 * `<data>/audit.log` (issue 31.7): one JSON line per change, failures only as per-minute counts
 * (bounded per minute however many addresses), rotation by its own size only.
 */
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { AuditFile, createLogger, MAX_SUMMARIES_PER_MINUTE } from "../../src/log/index.ts";
import { testDir } from "../support/temp-dir.ts";

const linesOf = (path: string) =>
  readFileSync(path, "utf8")
    .trimEnd()
    .split("\n")
    .filter(Boolean)
    .map((l) => JSON.parse(l) as Record<string, unknown>);

describe("audit file", () => {
  test("a change is one JSON line: time, event, who, remote, outcome, detail", () => {
    const path = join(testDir("homed-audit-"), "audit.log");
    const audit = new AuditFile(path, { now: () => new Date("2026-03-05T12:00:00Z") });
    audit.write({ event: "console_login", who: "console", remote: "127.0.0.1", outcome: "ok", detail: "console login from 127.0.0.1" });
    audit.close();
    assert.deepEqual(linesOf(path), [{ time: "2026-03-05T12:00:00.000Z", event: "console_login", who: "console", remote: "127.0.0.1", outcome: "ok", detail: "console login from 127.0.0.1" }]);
  });

  test("failures are counted, one line per event and address a minute, written when the minute ends", () => {
    const path = join(testDir("homed-audit-"), "audit.log");
    let now = new Date("2026-03-05T12:00:10Z");
    const audit = new AuditFile(path, { now: () => now });
    for (let i = 0; i < 10_000; i++) audit.count({ event: "console_login", who: "unknown", remote: `10.0.0.${i % 3}`, outcome: "failed" });
    audit.count({ event: "console_login", who: "unknown", remote: "10.0.0.0", outcome: "refused" });
    assert.deepEqual(linesOf(path), [], "nothing is written per failure");
    now = new Date("2026-03-05T12:01:00Z");
    audit.write({ event: "provider_added", who: "admin", remote: "127.0.0.1", outcome: "ok" });
    const lines = linesOf(path);
    assert.deepEqual(
      lines.map((l) => [l.event, l.remote, l.outcome, l.count]),
      [
        ["console_login", "10.0.0.0", "failed", 3334],
        ["console_login", "10.0.0.1", "failed", 3333],
        ["console_login", "10.0.0.2", "failed", 3333],
        ["console_login", "10.0.0.0", "refused", 1],
        ["provider_added", "127.0.0.1", "ok", undefined],
      ],
    );
    assert.equal(lines[0]!.since, "2026-03-05T12:00:10.000Z");
    audit.close();
  });

  test("a minute of failures from 10,000 addresses is at most MAX_SUMMARIES_PER_MINUTE + 1 lines", () => {
    const path = join(testDir("homed-audit-"), "audit.log");
    const audit = new AuditFile(path, { now: () => new Date("2026-03-05T12:00:00Z") });
    for (let i = 0; i < 10_000; i++) audit.count({ event: "wrong_key", who: "unknown", remote: `10.${i >> 8}.0.${i & 255}`, outcome: "failed" });
    audit.close();
    const lines = linesOf(path);
    assert.equal(lines.length, MAX_SUMMARIES_PER_MINUTE + 1);
    const others = lines.find((l) => l.remote === "(others)")!;
    assert.equal(others.count, 10_000 - MAX_SUMMARIES_PER_MINUTE);
    assert.equal(others.addresses, 10_000 - MAX_SUMMARIES_PER_MINUTE);
  });

  test("it rotates only at its own size: audit.1.log … audit.<keep>.log, the oldest removed", () => {
    const dir = testDir("homed-audit-");
    const audit = new AuditFile(join(dir, "audit.log"), { maxBytes: 1024, keepRotated: 2 });
    for (let i = 0; i < 100; i++) audit.write({ event: "app_key_created", who: "cli", outcome: "ok", detail: `key ${i} ${"x".repeat(40)}` });
    audit.close();
    assert.deepEqual(readdirSync(dir).sort(), ["audit.1.log", "audit.2.log", "audit.log"]);
    const newest = linesOf(join(dir, "audit.log"));
    assert.equal(newest.at(-1)!.detail, `key 99 ${"x".repeat(40)}`);
  });

  test("the logger writes an audit entry to the audit file and as an `audit:` line of the log; a failure only counted", () => {
    const dir = testDir("homed-audit-");
    const lines: string[] = [];
    const log = createLogger({ level: "info", dir: join(dir, "logs"), stderr: (l) => void lines.push(l), audit: { path: join(dir, "audit.log") } });
    log.audit({ event: "provider_removed", who: "admin", remote: "127.0.0.1", outcome: "ok", detail: "provider removed: p1" });
    log.auditFailure({ event: "console_login", who: "unknown", remote: "127.0.0.9", outcome: "failed", detail: "failed console login from 127.0.0.9: wrong token" });
    log.close();
    assert.deepEqual(
      lines.map((l) => l.replace(/^\S+ /, "").trimEnd()),
      ["INFO  audit: provider removed: p1", "WARN  audit: failed console login from 127.0.0.9: wrong token"],
    );
    assert.deepEqual(
      linesOf(join(dir, "audit.log")).map((l) => [l.event, l.outcome, l.count]),
      [
        ["provider_removed", "ok", undefined],
        ["console_login", "failed", 1],
      ],
    );
  });
});

/**
 * The daemon log on disk (issue 14.7): one file a day that every start that day appends to,
 * rotation at a size cap, and old days removed — never a new file per start.
 */
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { createLogger } from "../../src/log/index.ts";
import { testDir } from "../support/temp-dir.ts";

const quiet = () => {};
const at = (iso: string) => () => new Date(iso);
const fresh = () => testDir("homed-logger-");
const files = (dir: string) => readdirSync(dir).sort();

describe("log files", () => {
  test("two starts on one day append to one file, homed_<YYYYmmdd>.log", () => {
    const dir = fresh();
    for (const n of [1, 2]) {
      const log = createLogger({ level: "info", dir, stderr: quiet, now: at(`2026-03-05T12:0${n}:00`) });
      assert.equal(log.file, join(dir, "homed_20260305.log"));
      log.info(`start ${n}`);
      log.close();
    }
    assert.deepEqual(files(dir), ["homed_20260305.log"]);
    assert.match(readFileSync(join(dir, "homed_20260305.log"), "utf8"), /INFO {2}start 1\n.*INFO {2}start 2\n$/);
  });

  test("a new day opens a new file, and days older than keepDays are removed", () => {
    const dir = fresh();
    for (const name of ["homed_20260220.log", "homed_20260220.1.log", "homed_20260224.log", "notes.txt"]) writeFileSync(join(dir, name), "old\n");
    let now = new Date("2026-03-08T23:59:59");
    const log = createLogger({ level: "info", dir, stderr: quiet, now: () => now, keepDays: 14 });
    log.info("before midnight");
    now = new Date("2026-03-09T00:00:01");
    log.info("after midnight");
    log.close();
    // 14 days counting 9 March reach back to 24 February.
    assert.deepEqual(files(dir), ["homed_20260224.log", "homed_20260308.log", "homed_20260309.log", "notes.txt"]);
    assert.match(readFileSync(join(dir, "homed_20260309.log"), "utf8"), /after midnight/);
    assert.doesNotMatch(readFileSync(join(dir, "homed_20260309.log"), "utf8"), /before midnight/);
  });

  test("a file at its size cap is rotated to .1, .2, .3; the oldest part goes; nothing exceeds the cap", () => {
    const dir = fresh();
    const log = createLogger({ level: "info", dir, stderr: quiet, now: at("2026-03-05T08:00:00"), maxFileBytes: 400, keepRotated: 3 });
    for (let i = 0; i < 60; i++) log.info(`line ${String(i).padStart(3, "0")} ${"x".repeat(40)}`);
    log.close();
    assert.deepEqual(files(dir), ["homed_20260305.1.log", "homed_20260305.2.log", "homed_20260305.3.log", "homed_20260305.log"]);
    for (const name of files(dir)) assert.ok(statSync(join(dir, name)).size <= 400, `${name} is over the cap`);
    const kept = ["3", "2", "1"].map((n) => readFileSync(join(dir, `homed_20260305.${n}.log`), "utf8")).join("") + readFileSync(join(dir, "homed_20260305.log"), "utf8");
    const numbers = [...kept.matchAll(/line (\d{3})/g)].map((m) => Number(m[1]));
    // What is kept is the newest lines, in order, ending with the last one written.
    assert.equal(numbers.at(-1), 59);
    assert.deepEqual(
      numbers,
      numbers.map((_, i) => numbers[0]! + i),
    );
  });
});

/**
 * Test temp folders come from one helper, tests/support/temp-dir.ts (issue 22): `testDir()` is
 * removed when its test or file ends, `tempDir()` by `using` or its `remove()`. A direct mkdtemp
 * elsewhere in tests/ or packaging/tests/ made folders nobody removed (84 made, 48 removed before
 * the helper): this test fails on one.
 */
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { ROOT } from "../support/process.ts";

const HELPER = "tests/support/temp-dir.ts";

/** A call of node:fs's mkdtemp, mkdtempSync or fs/promises' mkdtemp. */
const MKDTEMP = /\bmkdtemp(Sync)?\s*\(/;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    if (name === "node_modules" || name === "artifacts") return [];
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return /\.(ts|js|mjs)$/.test(path) ? [path] : [];
  });
}

function filesMakingTempFolders(): string[] {
  return [join(ROOT, "tests"), join(ROOT, "packaging/tests")]
    .flatMap(sourceFiles)
    .map((file) => relative(ROOT, file))
    .filter((file) => file !== HELPER)
    .filter((file) =>
      readFileSync(join(ROOT, file), "utf8")
        .split("\n")
        .some((line) => MKDTEMP.test(line) && !/^\s*(\*|\/\/)/.test(line)),
    );
}

describe("test temp folders", () => {
  test("no mkdtemp in tests/ or packaging/tests/ but in the one helper", () => {
    assert.deepEqual(filesMakingTempFolders(), [], `make the folder with testDir() or tempDir() from ${HELPER}, which remove it`);
  });
});

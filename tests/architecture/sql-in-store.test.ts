/**
 * SQL lives in src/store/ (issue 22): per-table modules with typed rows, queries through drizzle's
 * query builder, FTS5/vector/PRAGMA SQL as typed `sql` templates in the module that owns the
 * table. The search engine (src/search/, issue 28) owns its own tables — segments and postings,
 * the facts' FTS5 channels — and their SQL stays with it. Anywhere else in src/, a raw
 * `client.execute(` / `.batch(` / `tx.execute(` fails this test.
 *
 * PENDING: the files that still hold raw SQL, each moved by whoever owns it now. A new file with
 * SQL fails; so does a listed file that no longer has any (delete it here): the list only shrinks.
 */
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { ROOT } from "../support/process.ts";

const PENDING = new Set<string>([]);

/** A call of a libSQL client's or transaction's raw-SQL methods. */
const RAW_SQL = /\.(execute|batch|executeMultiple)\(/;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return path.endsWith(".ts") ? [path] : [];
  });
}

/** Where raw SQL may be: the tables' modules and the search engine's. */
const SQL_HOMES = ["src/store/", "src/search/"];

/** Files outside SQL_HOMES that run raw SQL, as paths from the repository's root. */
function filesWithRawSql(): string[] {
  return sourceFiles(join(ROOT, "src"))
    .map((file) => relative(ROOT, file))
    .filter((file) => !SQL_HOMES.some((home) => file.startsWith(home)))
    .filter((file) =>
      readFileSync(join(ROOT, file), "utf8")
        .split("\n")
        .some((line) => RAW_SQL.test(line) && !/^\s*(\*|\/\/)/.test(line)),
    );
}

describe("SQL lives in src/store/ and src/search/", () => {
  test("no raw execute or batch outside them but in the pending files", () => {
    const found = filesWithRawSql();
    assert.deepEqual(
      found.filter((file) => !PENDING.has(file)),
      [],
      "move these files' SQL into a table module in src/store/",
    );
    assert.deepEqual(
      [...PENDING].filter((file) => !found.includes(file)),
      [],
      "these hold no raw SQL any more: delete them from PENDING",
    );
  });
});

/**
 * A history line of any length ends in a line-numbered error, never a crash. Before: `homed import`
 * of a file with one 50 MB line died after 13 s at 3.5 GB with jieba's wasm error "Unreachable code
 * should not be executed".
 */
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { MAX_LINE_CHARS } from "../../src/memory/import-format.ts";
import { parseHistory } from "../../src/memory/index.ts";
import { run, SOURCE_HOMED } from "../support/process.ts";
import { testDir } from "../support/temp-dir.ts";

const line = (id: string, text: string) => JSON.stringify({ conversation: "c", session: "s", time: "2024-05-08T13:56:00Z", speaker: "Ann", role: "user", text, id });

function fileWithLongLine(chars: number): string {
  const file = join(testDir("homed-long-line-"), "history.jsonl");
  writeFileSync(file, `${[line("1", "before the paste"), line("2", "x".repeat(chars)), line("3", "after the paste")].join("\n")}\n`);
  return file;
}

describe("history lines of any length", () => {
  test("homed import of a 50 MB line: the line's number and the limit, nothing imported", async () => {
    const file = fileWithLongLine(50 * 1024 * 1024);
    const data = join(testDir("homed-long-line-"), "data");
    const result = await run([...SOURCE_HOMED, "import", "-data", data, file]);
    assert.equal(result.code, 1, result.stderr);
    assert.match(result.stderr, /line 2: 52,428,9\d\d characters, over the 8,388,608 a line may hold \(split the message\) \(nothing was imported/);
    assert.doesNotMatch(result.stderr, /Unreachable|RuntimeError/);

    const skipped = await run([...SOURCE_HOMED, "import", "-data", data, "--skip-invalid", file]);
    assert.equal(skipped.code, 0, skipped.stderr);
    assert.match(skipped.stderr, /skipped line 2: 52,428,9\d\d characters/);
    assert.match(skipped.stdout, /2 added, 0 already present, 1 invalid skipped/);
  });

  test("a line at the limit is imported; the console's upload names a longer one", async () => {
    const atLimit = fileWithLongLine(MAX_LINE_CHARS - 200);
    const data = join(testDir("homed-long-line-"), "data");
    const result = await run([...SOURCE_HOMED, "import", "-data", data, atLimit]);
    assert.equal(result.code, 0, result.stderr);
    assert.match(result.stdout, /3 added/);

    const upload = [line("1", "hi"), line("2", "y".repeat(MAX_LINE_CHARS))].join("\n");
    const parsed = parseHistory(upload);
    assert.equal(parsed.messages.length, 1);
    assert.deepEqual(
      parsed.invalid.map((i) => i.line),
      [2],
    );
    assert.match(parsed.invalid[0]!.reason, /over the 8,388,608 a line may hold/);
  });
});

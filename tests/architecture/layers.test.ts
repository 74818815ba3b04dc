/**
 * The architecture, checked: lower layers never import higher ones (DESIGN §2), and only
 * src/runtime/ touches Bun's own APIs.
 */
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { ROOT } from "../support/process.ts";

const SRC = join(ROOT, "src");

/** Rank of each top-level folder; a file may import only from folders of equal or lower rank. */
const RANK: Record<string, number> = {
  runtime: 0,
  errors: 0,
  log: 1,
  config: 1,
  text: 1,
  embed: 1,
  store: 1,
  context: 2,
  memory: 2,
  llm: 2,
  doctor: 3,
  kernel: 3,
  plugins: 3,
  server: 4,
  cli: 5,
  "(root)": 5,
};

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return /\.ts$/.test(name) && !name.endsWith(".d.ts") ? [path] : [];
  });
}

const areaOf = (path: string) => {
  const parts = relative(SRC, path).split("/");
  return parts.length === 1 ? "(root)" : parts[0]!;
};

const importsOf = (source: string) => [...source.matchAll(/from\s+"(\.[^"]+)"/g)].map((m) => m[1]!);

describe("architecture", () => {
  const files = sourceFiles(SRC);

  test("every top-level folder of src/ has a rank", () => {
    for (const file of files) assert.ok(areaOf(file) in RANK, `src/${areaOf(file)} has no rank in this test`);
  });

  test("no file imports from a higher layer", () => {
    const violations: string[] = [];
    for (const file of files) {
      const from = areaOf(file);
      for (const spec of importsOf(readFileSync(file, "utf8"))) {
        const target = join(file, "..", spec);
        if (!target.startsWith(SRC)) continue;
        const to = areaOf(target);
        if (RANK[to]! > RANK[from]!) violations.push(`${relative(ROOT, file)} imports ${spec} (${from} → ${to})`);
      }
    }
    assert.deepEqual(violations, []);
  });

  test("only src/runtime/ uses Bun's APIs", () => {
    const offenders = files
      .filter((f) => areaOf(f) !== "runtime")
      .filter((f) => /\bBun\.|from\s+"bun(:[a-z]+)?"/.test(readFileSync(f, "utf8")))
      .map((f) => relative(ROOT, f));
    assert.deepEqual(offenders, []);
  });
});

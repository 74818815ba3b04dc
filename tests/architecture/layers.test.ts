/**
 * The architecture, checked (DESIGN §2): lower layers never import higher ones, folders import
 * each other in one direction only (no cycle, even between folders of one rank), across folders
 * only through the folder's index.ts, production code never imports tests/, and only
 * src/runtime/ touches Bun's own APIs. Covers src/, plugins/ and web/ (the console's code; not
 * its generated bundle, web/dist/), which takes only types from src/. The rank of each area is
 * in scripts/layers.ts, which also draws it into docs/architecture.md (scripts/gen-architecture.ts).
 */
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { areaOf, codeAndImports, isCodeIn, rankOf, ROOT, SRC } from "../../scripts/layers.ts";

/**
 * Imports across folders that do not go through the folder's index.ts, known and pinned (by the
 * importing area and the file imported): a new one fails the test, and so does one that is gone
 * (delete it here). Each says why it stays.
 */
const NOT_THROUGH_INDEX: Record<string, string> = {
  // A plugin process must not load the server to set its file modes (runtime/index.ts does).
  "src/main.ts -> src/runtime/file-modes.ts": "startup cost of plugin processes",
  "src/cli -> src/runtime/file-modes.ts": "startup cost of plugin processes",
  // store/index.ts loads libSQL; the embedders need only the vector size.
  "src/embed -> src/store/vector.ts": "embedders must not load the database client",
  // homed doctor's plugin lines reuse the plugins' own probes; plugins share helpers by file.
  "src/doctor -> plugins/browser/chromium.ts": "a plugin's index.ts starts the plugin",
  "src/doctor -> plugins/code/sandbox.ts": "a plugin's index.ts starts the plugin",
  "src/doctor -> plugins/music/player.ts": "a plugin's index.ts starts the plugin",
  "plugins/browser -> plugins/web-fetch/readable.ts": "a plugin's index.ts starts the plugin",
  "plugins/code -> plugins/shell/run.ts": "a plugin's index.ts starts the plugin",
  "plugins/rss -> plugins/web-fetch/fetch-limited.ts": "a plugin's index.ts starts the plugin",
};

describe("architecture", () => {
  const { files, imports } = codeAndImports();

  test("every area has a rank", () => {
    const unranked = [...new Set(files.map(areaOf))].filter((a) => rankOf(a) === undefined);
    assert.deepEqual(unranked, []);
  });

  test("no file imports from a higher layer", () => {
    const violations = imports
      .filter((i) => isCodeIn(i.to) && i.fromArea !== i.toArea && rankOf(i.toArea)! > rankOf(i.fromArea)!)
      .map((i) => `${i.from} imports ${i.to} (${i.fromArea} → ${i.toArea})`);
    assert.deepEqual(violations, []);
  });

  test("areas import each other in one direction only: no cycle", () => {
    const edges = new Map<string, Set<string>>();
    for (const i of imports) {
      if (!isCodeIn(i.to) || i.fromArea === i.toArea) continue;
      if (!edges.has(i.fromArea)) edges.set(i.fromArea, new Set());
      edges.get(i.fromArea)!.add(i.toArea);
    }
    const cycles: string[] = [];
    const state = new Map<string, "open" | "done">();
    const visit = (area: string, path: string[]) => {
      if (state.get(area) === "done") return;
      if (state.get(area) === "open") {
        cycles.push([...path.slice(path.indexOf(area)), area].join(" → "));
        return;
      }
      state.set(area, "open");
      for (const next of edges.get(area) ?? []) visit(next, [...path, area]);
      state.set(area, "done");
    };
    for (const area of edges.keys()) visit(area, []);
    assert.deepEqual(cycles, []);
  });

  test("across folders, imports go through the folder's index.ts (known exceptions pinned)", () => {
    const found = imports
      .filter((i) => isCodeIn(i.to) && i.fromArea !== i.toArea && !/\.(ts|tsx|js)$/.test(i.toArea))
      .filter((i) => !/\/index\.(ts|tsx|js)$/.test(i.to) && i.toArea !== "web" && i.toArea !== "plugins/(root)")
      .map((i) => `${i.fromArea} -> ${i.to}`);
    assert.deepEqual([...new Set(found)].sort(), Object.keys(NOT_THROUGH_INDEX).sort());
  });

  test("the console takes only types from src/: nothing of the daemon is bundled into it", () => {
    const values = files
      .filter((f) => areaOf(f) === "web")
      .flatMap((f) =>
        [...readFileSync(f, "utf8").matchAll(/^(?:import|export)\s+(type\s+)?[^;]*?from\s+"(\.[^"]+)"/gm)]
          .filter((m) => !m[1] && !resolve(dirname(f), m[2]!).startsWith(join(ROOT, "web")))
          .map((m) => `${relative(ROOT, f)} -> ${m[2]}`),
      );
    assert.deepEqual(values, []);
  });

  test("the plugin SDK takes of src/ only the protocol and the runtime: a plugin process loads none of the host", () => {
    const host = imports
      .filter((i) => i.from.startsWith("plugins/sdk/") && i.to.startsWith("src/"))
      .filter((i) => !/^src\/(protocol|runtime)\/index\.ts$/.test(i.to))
      .map((i) => `${i.from} -> ${i.to}`);
    assert.deepEqual(host, []);
    const protocol = imports.filter((i) => i.fromArea === "src/protocol" && isCodeIn(i.to) && i.toArea !== "src/protocol" && i.toArea !== "src/errors");
    assert.deepEqual(
      protocol.map((i) => `${i.from} -> ${i.to}`),
      [],
      "src/protocol is a leaf: it imports only src/errors",
    );
  });

  test("production code never imports tests/", () => {
    const offenders = imports.filter((i) => i.to.startsWith("tests/")).map((i) => `${i.from} -> ${i.to}`);
    assert.deepEqual(offenders, []);
  });

  test("only src/runtime/ uses Bun's APIs", () => {
    const offenders = files
      .filter((f) => f.startsWith(SRC) && areaOf(f) !== "src/runtime")
      .filter((f) => /\bBun\.|from\s+"bun(:[a-z]+)?"/.test(readFileSync(f, "utf8")))
      .map((f) => relative(ROOT, f));
    assert.deepEqual(offenders, []);
  });
});

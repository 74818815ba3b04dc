/**
 * docs/architecture.md draws the layers from the code (scripts/gen-architecture.ts): the ranks of
 * scripts/layers.ts and the imports between areas as they are now. A new area, or a new import
 * between two areas, without `bun scripts/gen-architecture.ts` fails here, not as a diagram that
 * quietly shows an older code. Like the console's bundle (tests/web/assets.test.ts).
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { ARCHITECTURE_DOC, architectureDoc, areaGraph, label, renderLayers } from "../../scripts/gen-architecture.ts";
import { ROOT } from "../../scripts/layers.ts";

test("docs/architecture.md's layer drawing is the code's now (bun scripts/gen-architecture.ts)", () => {
  const onDisk = readFileSync(join(ROOT, ARCHITECTURE_DOC), "utf8");
  assert.ok(onDisk === architectureDoc(onDisk), `${ARCHITECTURE_DOC} is stale: run bun scripts/gen-architecture.ts`);
});

test("the drawing names every area and every import between areas", () => {
  const drawn = renderLayers();
  for (const [area, imports] of areaGraph()) {
    const row = drawn.split("\n").find((l) => l.startsWith("| ") && l.split(" | ")[1] === `\`${label(area)}\``);
    assert.ok(row, `no row for ${area}`);
    assert.equal((row.match(/`[^`]+`/g) ?? []).length - 1, imports.size, `${area}: ${row}`);
  }
});

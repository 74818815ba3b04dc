/**
 * The console's files and the served list agree: every file in web/ is served (and embedded in
 * the binary) under its own name, and every served console file exists. A new page file that
 * is not listed in src/runtime/asset-files.ts (and so not in assets-bun.ts, which
 * tests/runtime/assets.test.ts keeps in step) fails here, not as a 404 in someone's browser.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { ASSET_SOURCES, WEB_ASSETS } from "../../src/runtime/asset-files.ts";
import { ROOT } from "../support/process.ts";

test("every file in web/ is a served asset from web/, and every asset from web/ exists", () => {
  const files = readdirSync(join(ROOT, "web"))
    .filter((f) => !f.startsWith("."))
    .sort();
  const fromWeb = WEB_ASSETS.filter((name) => ASSET_SOURCES[name].startsWith("../../web/"));
  assert.deepEqual([...fromWeb].sort(), files);
  for (const name of fromWeb) assert.equal(ASSET_SOURCES[name], `../../web/${name}`, `${name} is served from another file`);
});

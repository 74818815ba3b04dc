/**
 * The console that is served is the console in web/: the asset tables (src/runtime/asset-files.ts,
 * src/runtime/assets-bun.ts) are what scripts/gen-console.ts writes from web/'s files, and the
 * committed bundle (web/dist/console.js) is what it bundles from web/'s code now. A page edited
 * without `make console`, or a file added to web/ and not served, fails here, not as a stale or
 * missing page in someone's browser. Like the migrations' index (tests/store/migrate.test.ts).
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { BUNDLE, bundleConsole, renderAssetFiles, renderBunAssets, webAssets } from "../../scripts/gen-console.ts";
import { RUNTIME } from "../../src/runtime/index.ts";
import { ROOT } from "../support/process.ts";

const onDisk = (path: string) => readFileSync(join(ROOT, path), "utf8");

test("the asset tables are generated from web/ and up to date (make console)", () => {
  assert.equal(onDisk("src/runtime/asset-files.ts"), renderAssetFiles());
  assert.equal(onDisk("src/runtime/assets-bun.ts"), renderBunAssets());
});

test("every console file is served under its own name and exists", () => {
  const served = webAssets();
  for (const name of ["index.html", "console.css", "favicon.svg", "console.js"])
    assert.ok(
      served.some(([n]) => n === name),
      `${name} is not served`,
    );
  for (const [name, source] of served) assert.ok(existsSync(join(ROOT, "src/runtime", source)), `${name}: ${source} is missing`);
  assert.deepEqual(
    served.filter(([name]) => /\.tsx?$/.test(name)),
    [],
    "source code is served",
  );
});

test("the committed bundle is web/'s code bundled now (make console)", { skip: RUNTIME === "bun" ? false : "Bun.build bundles the console; this check runs under Bun" }, async () => {
  assert.ok(onDisk(BUNDLE) === (await bundleConsole()), `${BUNDLE} is stale: run make console`);
});

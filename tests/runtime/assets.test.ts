/**
 * The files homed carries are the same under both runtimes: each asset read through the runtime
 * seam (Bun: its `with { type: "file" }` imports; Deno: the source tree) is byte for byte the file
 * asset-files.ts names. Under Bun this is what keeps assets-bun.ts's import list in step with
 * that table.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { ASSET_SOURCES, type AssetName } from "../../src/runtime/asset-files.ts";
import { readAsset, RUNTIME } from "../../src/runtime/index.ts";

test(`every asset read under ${RUNTIME} is the file asset-files.ts names`, async () => {
  for (const [name, source] of Object.entries(ASSET_SOURCES) as [AssetName, string][]) {
    const onDisk = readFileSync(fileURLToPath(new URL(source, new URL("../../src/runtime/", import.meta.url))));
    assert.ok(onDisk.length > 0, name);
    assert.ok(Buffer.from(await readAsset(name)).equals(onDisk), `${name} differs from ${source}`);
  }
});

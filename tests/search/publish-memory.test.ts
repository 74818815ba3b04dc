/**
 * Publishing an import's staged segments (the end of `homed import`) does not hold their rows in
 * memory: one UPDATE by state held every updated row until the commit — ~190 MiB at the end of a
 * 1M-message import while rows carried their term lists, 16.8 MiB for 280 rows of ~60 KB since the
 * lists have a table of their own (bench/openvocab/segment-update-heap.ts). Measured in a process
 * of its own (tests/fixtures/publish-heap.ts), as a test runner's own peak would hide it.
 */
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { scriptCommand } from "../../src/runtime/self.ts";

const PUBLISH_HEAP = fileURLToPath(new URL("../fixtures/publish-heap.ts", import.meta.url));

describe("publishing an import's segments", () => {
  test("280 staged segments of ~60 KB rows (a 1M import's) become live without their rows held in memory", () => {
    const [command, ...args] = scriptCommand(PUBLISH_HEAP);
    const run = spawnSync(command!, [...args, "280"], { encoding: "utf8" });
    assert.equal(run.status, 0, run.stderr);
    const { live, grewMiB } = JSON.parse(run.stdout.trim().split("\n").at(-1)!) as { live: number; grewMiB: number };
    assert.equal(live, 280);
    // The rows together are ~16 MiB: held by one UPDATE by state, the peak grew 9.5 MiB; by id, not at all.
    assert.ok(grewMiB < 4, `peak RSS grew ${grewMiB.toFixed(1)} MiB while publishing`);
  });
});

/**
 * Publishing an import's staged segments (the end of `homed import`) does not hold their rows in
 * memory: each row carries the segment's term list, and one UPDATE by state held them all until
 * the commit (~190 MiB at the end of a 1M-message import). Measured in a process of its own
 * (tests/fixtures/publish-heap.ts), as a test runner's own peak would hide it.
 */
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { scriptCommand } from "../../src/runtime/self.ts";

const PUBLISH_HEAP = fileURLToPath(new URL("../fixtures/publish-heap.ts", import.meta.url));

describe("publishing an import's segments", () => {
  test("60 staged segments of ~0.5 MB rows become live without their rows held in memory", () => {
    const [command, ...args] = scriptCommand(PUBLISH_HEAP);
    const run = spawnSync(command!, [...args, "60"], { encoding: "utf8" });
    assert.equal(run.status, 0, run.stderr);
    const { live, grewMiB } = JSON.parse(run.stdout.trim().split("\n").at(-1)!) as { live: number; grewMiB: number };
    assert.equal(live, 60);
    // The rows together are ~30 MiB: held, the peak grows by about that; by id, by a few MiB at most.
    assert.ok(grewMiB < 10, `peak RSS grew ${grewMiB.toFixed(1)} MiB while publishing`);
  });
});

/** The tokenizer's rank table and the whole render path work inside the compiled binary, alone in a folder. */
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { copyFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { BINARY_SKIP, isolatedBinary } from "../binary/build-binary.ts";
import { run, SOURCE_HOMED } from "../support/process.ts";

const FIXTURE = fileURLToPath(new URL("./fixtures/session-dump.json", import.meta.url));

describe("homed context render in the compiled binary", { skip: BINARY_SKIP }, () => {
  test("gives the same messages and token counts as the source", async () => {
    const { dir, bin } = isolatedBinary();
    try {
      copyFileSync(FIXTURE, join(dir, "dump.json"));
      const fromBinary = await run([bin, "context", "render", "--budget", "2000", "dump.json"], { cwd: dir });
      const fromSource = await run([...SOURCE_HOMED, "context", "render", "--budget", "2000", FIXTURE]);
      assert.equal(fromBinary.code, 0, fromBinary.stderr);
      assert.equal(fromBinary.stderr, "messages=7 calls=2 answered=2 dangling=0 tokens=165\n");
      assert.equal(fromBinary.stderr, fromSource.stderr);
      assert.equal(fromBinary.stdout, fromSource.stdout);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

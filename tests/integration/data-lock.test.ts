/** One daemon per data folder (`<data>/homed.lock`), and no stale lock after `kill -9`. */
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { run, SOURCE_HOMED, startDaemon } from "../support/process.ts";
import { testDir } from "../support/temp-dir.ts";

describe("the data folder lock", () => {
  test("a second daemon on the folder is refused; after kill -9 of the first, a new one starts", async () => {
    const data = join(testDir("homed-lock-"), "data");
    const first = await startDaemon([...SOURCE_HOMED, "-data", data, "-addr", "127.0.0.1:0"]);
    try {
      const refused = await startDaemon([...SOURCE_HOMED, "-data", data, "-addr", "127.0.0.1:0"]).then(
        async (second) => `it started (exit ${(await second.stop()).code})`,
        (error: Error) => error.message,
      );
      assert.equal(refused, `daemon exited with 1 before listening; stderr:\nhomed: Cannot use data folder ${data}: homed (pid ${first.child.pid}) is serving it\n`);
      assert.equal(readdirSync(join(data, "logs")).length, 1, "the refused start leaves no log file");

      // Reading beside the daemon is allowed.
      const recall = await run([...SOURCE_HOMED, "recall", "-data", data, "anything"]);
      assert.equal(recall.code, 0, recall.stderr);
    } finally {
      // Its plugins (child processes) may outlive it for a moment; they must not hold the lock.
      await first.stop("SIGKILL");
    }
    const third = await startDaemon([...SOURCE_HOMED, "-data", data, "-addr", "127.0.0.1:0"]);
    assert.equal((await fetch(`${third.url}/healthz`)).status, 200);
    assert.equal((await third.stop()).code, 0);
  });
});

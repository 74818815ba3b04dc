/**
 * The one way to make a test's temporary folder (tests/architecture/temp-folders.test.ts fails
 * on a direct mkdtemp anywhere else): under the system's temp folder, removed whole
 * (recursively, even if a test left files or a read-only child in it).
 *
 * - `testDir()` in a test, a describe body or a file's top level: kept until that test ends (so
 *   a test may close a store and reopen the same folder), or the file ends; removed by an
 *   `after` hook it registers there. Deno runs those hooks at the file's end, Bun and Node at the
 *   test's.
 * - `tempDir()` anywhere else: `using` removes it when the block ends; `remove()` is for a folder
 *   that outlives one block (a before hook's, a harness's close). Not `testDir()` in a
 *   before/beforeEach hook: Bun runs an `after` registered there as soon as the hook ends.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after } from "node:test";

export type TempDir = { path: string; remove(): void; [Symbol.dispose](): void };

export function tempDir(prefix = "homed-test-"): TempDir {
  const path = mkdtempSync(join(tmpdir(), prefix));
  // Retried: a child that is still exiting may add a file while the folder is being emptied (ENOTEMPTY).
  const remove = () => rmSync(path, { recursive: true, force: true, maxRetries: 3, retryDelay: 50 });
  return { path, remove, [Symbol.dispose]: remove };
}

/** A fresh folder's path, removed when the test (or file) that made it ends. */
export function testDir(prefix = "homed-test-"): string {
  const dir = tempDir(prefix);
  after(dir.remove);
  return dir.path;
}

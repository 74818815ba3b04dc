/**
 * One way to make a test's temporary folder: under the system's temp folder, removed whole
 * (recursively, even if a test left files or a read-only child in it). `using` removes it when
 * the block ends; `remove()` is for a folder that outlives one block (a harness's close).
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

export type TempDir = { path: string; remove(): void; [Symbol.dispose](): void };

export function tempDir(prefix = "homed-test-"): TempDir {
  const path = mkdtempSync(join(tmpdir(), prefix));
  const remove = () => rmSync(path, { recursive: true, force: true });
  return { path, remove, [Symbol.dispose]: remove };
}

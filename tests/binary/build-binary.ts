/**
 * Builds the real binary once per test process (bun test runs every file in one process) and
 * hands out copies of it, each alone in a fresh empty folder with no node_modules nearby.
 */
import { execFileSync } from "node:child_process";
import { copyFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { RUNTIME } from "../../src/runtime/index.ts";
import { tempDir, type TempDir } from "../support/temp-dir.ts";

/**
 * Why a compiled-binary test cannot run here: the binary is Bun's (`bun build --compile`,
 * scripts/build.ts), so under Deno these tests skip, saying so (run them with bun test).
 */
export const BINARY_SKIP: string | undefined = RUNTIME === "deno" ? "the compiled binary is Bun's (bun build --compile): Bun only, run with bun test" : undefined;

// deno test shows a skipped test as "ignored" without the reason: say it once.
if (BINARY_SKIP) console.log(`compiled-binary tests skipped: ${BINARY_SKIP}`);

const root = fileURLToPath(new URL("../..", import.meta.url));
let built: string | undefined;
/** Each copy is ~145 MB: every folder made here is removed when the test process exits. */
const made: TempDir[] = [];
process.on("exit", () => {
  for (const dir of made) dir.remove();
});

function buildOnce(): string {
  if (!built) {
    const dir = tempDir("homed-build-");
    made.push(dir);
    const out = join(dir.path, "homed");
    execFileSync(process.execPath, [join(root, "scripts", "build.ts"), out], { cwd: root, stdio: "pipe" });
    built = out;
  }
  return built;
}

/** A copy of the compiled binary alone in a new empty folder; returns its folder and path. */
export function isolatedBinary(): { dir: string; bin: string } {
  const temp = tempDir("homed-bin-");
  made.push(temp);
  const dir = temp.path;
  const bin = join(dir, "homed");
  copyFileSync(buildOnce(), bin);
  execFileSync("chmod", ["755", bin]);
  return { dir, bin };
}

/**
 * Both runtimes, for tests where one side runs under the runtime running the tests and the
 * other side under the other one (a Deno kernel with a Bun plugin and the reverse). Both come
 * from npm (package.json: `bun`, and Deno's platform package @deno/linux-*-glibc), so they are in
 * node_modules.
 */
import { existsSync } from "node:fs";
import { join } from "node:path";
import { RUNTIME, scriptCommand, type RuntimeName } from "../../src/runtime/index.ts";
import { ROOT } from "./process.ts";

/** The runtime binaries npm installed: bun's own; deno's platform package's. */
export const RUNTIME_BINARIES: Record<RuntimeName, string> = {
  bun: join(ROOT, "node_modules/bun/bin/bun.exe"),
  deno: join(ROOT, "node_modules/@deno", `${process.platform}-${process.arch}-glibc`, "deno"),
};

export const OTHER_RUNTIME: RuntimeName = RUNTIME === "bun" ? "deno" : "bun";

/** The command that runs `script` under `runtime` (installed in node_modules). */
export function scriptCommandUnder(runtime: RuntimeName, script: string): string[] {
  if (!existsSync(RUNTIME_BINARIES[runtime])) throw new Error(`${RUNTIME_BINARIES[runtime]} is missing: npm ci installs ${runtime} (package.json)`);
  return scriptCommand(script, runtime, RUNTIME_BINARIES[runtime]);
}

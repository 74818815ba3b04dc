/**
 * How to run homed (or any of its TypeScript files) again with the runtime running now — how
 * the kernel launches built-in plugins (`<self> plugin run <name>`) and how tests start a
 * daemon or a plugin script. Compiled, homed is the binary alone; from source, Bun plus the
 * script, or Deno with `run`, all permissions (homed reads, writes, spawns, serves and calls
 * libc) and the project's deno.json (it says to use node_modules, whatever the working folder).
 */
import { fileURLToPath } from "node:url";
import { deno } from "./deno-api.ts";
import { RUNTIME, type RuntimeName } from "./which.ts";

const DENO_CONFIG = fileURLToPath(new URL("../../deno.json", import.meta.url));

/**
 * The command that runs the TypeScript file `script` (an absolute path): with this runtime by
 * default, or with `runtime` installed at `executable`.
 */
export function scriptCommand(script: string, runtime: RuntimeName = RUNTIME, executable = process.execPath): string[] {
  return runtime === "bun" ? [executable, script] : [executable, "run", "-A", DENO_GC_FLAG, "--config", DENO_CONFIG, script];
}

/**
 * V8's `gc` for collectGarbage (gc.ts): without it Deno collects on its own schedule, and a 100k
 * import peaked at 668 MiB (and 550 before its analysis had a worker thread); with it, 476 MiB,
 * for ~25 % more CPU (measured with `homed import`, one run each). deno.json's start task has it too.
 */
export const DENO_GC_FLAG = "--v8-flags=--expose-gc";

/** The command that runs the module source `source` given on the command line (`bun -e`, `deno eval`). */
export function evalCommand(source: string): string[] {
  return RUNTIME === "bun" ? [process.execPath, "-e", source] : [process.execPath, "eval", "--config", DENO_CONFIG, source];
}

/** Whether this is homed's binary compiled by Bun: its entry script lives in Bun's embedded file system. */
export const compiledBun = (): boolean => RUNTIME === "bun" && (Bun.main.startsWith("/$bunfs/") || /^[A-Z]:[\\/]~BUN[\\/]/.test(Bun.main));

export function selfCommand(): string[] {
  if (RUNTIME === "deno") return deno().build.standalone ? [process.execPath] : scriptCommand(fileURLToPath(deno().mainModule));
  return compiledBun() ? [process.execPath] : scriptCommand(Bun.main);
}

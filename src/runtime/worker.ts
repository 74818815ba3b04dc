/**
 * Worker threads of homed's own modules, from source and from the compiled binary alike. From
 * source a worker runs the module's file. The compiled binary holds each worker module as an
 * entrypoint of its own (scripts/build.ts lists them: Bun does not follow `new Worker(url)`),
 * bundled beside the main program in Bun's embedded file system under its path in src/, as .js.
 */
import { dirname } from "node:path";
import { compiledBun } from "./self.ts";

/** Starts a worker thread running `module`, a path under src/ (e.g. "memory/import-analysis-worker.ts"). */
export function startWorker(module: string): Worker {
  const url = compiledBun() ? `${dirname(Bun.main)}/${module.replace(/\.ts$/, ".js")}` : new URL(`../${module}`, import.meta.url).href;
  return new Worker(url, { type: "module" });
}

/**
 * Asks the engine to collect garbage now. Bun's collector lets a long batch job's short-lived
 * strings (segmentation, SQL arguments) pile up: a 100k-message import peaked at ~600-740 MB of
 * RSS without help. `full`: a synchronous full collection (tens of milliseconds); otherwise
 * an eager one that does not wait. Under Deno, V8's `gc` exists only with `--v8-flags=--expose-gc`
 * (homed runs itself again with it: self.ts' DENO_GC_FLAG): a full collection or a young-generation
 * one (a full one for every chunk of an import took ~45 % more CPU); without the flag, V8 collects
 * on its own schedule.
 */
import { RUNTIME } from "./which.ts";

export function collectGarbage(full: boolean): void {
  if (RUNTIME === "bun") Bun.gc(full);
  else (globalThis as { gc?: (options?: { type: "minor" | "major" }) => void }).gc?.({ type: full ? "major" : "minor" });
}

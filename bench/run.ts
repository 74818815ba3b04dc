/**
 * `make bench`: runs every `bench/<name>/run.ts` (or only those named on the command line) in
 * turn. Benchmarks print numbers and never fail the build.
 */
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const here = fileURLToPath(new URL(".", import.meta.url));
const wanted = process.argv.slice(2);
const names = readdirSync(here, { withFileTypes: true })
  .filter((d) => d.isDirectory() && existsSync(join(here, d.name, "run.ts")))
  .map((d) => d.name)
  .filter((name) => wanted.length === 0 || wanted.includes(name))
  .sort();

for (const name of names) {
  console.log(`\n=== bench/${name} ===`);
  const run = spawnSync(process.execPath, [join(here, name, "run.ts")], { stdio: "inherit" });
  if (run.status !== 0) console.log(`(bench/${name} exited with ${run.status}; numbers above are incomplete)`);
}

/**
 * Prints the test files that spawn nothing (no homed process, plugin child, browser or compiled
 * binary), for `make test-fast`: a test file counts as spawning when it, or a file under tests/
 * it imports, names a way to start a process. Loopback servers in the same process are fine.
 */
import { readFileSync, readdirSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";

const ROOT = resolve(import.meta.dir, "..");
const TESTS = join(ROOT, "tests");

/** Ways a test starts another process, directly or through homed's own code. */
const SPAWNS = /\bspawn\w*\(|execFile|Bun\.spawn|startDaemon|startApiDaemon|startFloodDaemon|SOURCE_HOMED|\bMAIN\b|chromium|FIXTURES|PluginHost|builtinPlugin|\brun\(|binaryPath|dist\/homed/;

/** Holds both process helpers and plain ones (ROOT): a test is judged by the names it uses. */
const BY_NAME = join(TESTS, "support", "process.ts");

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? files(path) : [path];
  });
}

const seen = new Map<string, boolean>();
function spawns(file: string): boolean {
  if (seen.has(file)) return seen.get(file)!;
  seen.set(file, false);
  const source = readFileSync(file, "utf8");
  const local = [...source.matchAll(/from\s+"(\.[^"]+)"/g)].map((m) => resolve(dirname(file), m[1]!)).filter((p) => p.startsWith(TESTS) && p !== BY_NAME);
  const result = SPAWNS.test(source) || local.some(spawns);
  seen.set(file, result);
  return result;
}

const fast = files(TESTS).filter((f) => f.endsWith(".test.ts") && !spawns(f));
console.log(fast.map((f) => relative(ROOT, f)).join("\n"));

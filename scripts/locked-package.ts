/**
 * A package that package-lock.json locks but `npm ci` skips because it is for another CPU (the
 * arm64 Bun runtime and libSQL addon, on an x64 build machine): fetched with `npm pack` at the
 * locked version, checked against the lock's integrity hash, unpacked once into
 * node_modules/.cache/homed-cross/ and reused. Nothing is downloaded that the lock does not name.
 */
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync } from "node:fs";
import { join } from "node:path";
import { z } from "zod";

const LockEntry = z.object({ version: z.string(), integrity: z.string().startsWith("sha512-") });
const Lock = z.object({ packages: z.record(z.string(), z.unknown()) });

/**
 * The package's folder: node_modules/<name> when npm installed it (this machine's CPU), else
 * its unpacked copy in the cache, fetched on first use.
 */
export function lockedPackage(root: string, name: string): string {
  const lock = Lock.parse(JSON.parse(readFileSync(join(root, "package-lock.json"), "utf8")));
  const raw = lock.packages[`node_modules/${name}`];
  if (!raw) throw new Error(`${name} is not in package-lock.json; add it to the lock first`);
  const { version, integrity } = LockEntry.parse(raw);
  const installed = join(root, "node_modules", name);
  if (existsSync(join(installed, "package.json")) && JSON.parse(readFileSync(join(installed, "package.json"), "utf8")).version === version) return installed;
  const cache = join(root, "node_modules", ".cache", "homed-cross");
  const dir = join(cache, `${name.replace("/", "+")}@${version}`);
  if (existsSync(join(dir, "package.json"))) return dir;

  mkdirSync(cache, { recursive: true });
  const work = mkdtempSync(join(cache, ".fetch-"));
  try {
    const out = execFileSync("npm", ["pack", `${name}@${version}`, "--json", "--pack-destination", work], { cwd: work, encoding: "utf8" });
    const [packed] = z.array(z.object({ filename: z.string() })).parse(JSON.parse(out));
    const tgz = join(work, packed!.filename);
    // Hashed here rather than trusting npm's report: this is the file that gets unpacked.
    const actual = `sha512-${createHash("sha512").update(readFileSync(tgz)).digest("base64")}`;
    if (actual !== integrity) throw new Error(`${name}@${version}: integrity ${actual} is not the locked ${integrity}`);
    execFileSync("tar", ["-xzf", tgz, "-C", work]);
    renameSync(join(work, "package"), dir);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
  return dir;
}

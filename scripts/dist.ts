/**
 * `make dist`: for linux-x64 and linux-arm64, the tarball (with install.sh), a .deb and an .rpm,
 * named per each format's convention, plus SHA256SUMS, all in dist/:
 *   homed-<v>-linux-x64.tar.gz   homed_<v>_amd64.deb   homed-<v>-1.x86_64.rpm
 *   homed-<v>-linux-arm64.tar.gz homed_<v>_arm64.deb   homed-<v>-1.aarch64.rpm
 * Needs dpkg-deb and rpmbuild (Debian's dpkg and rpm packages). The arm64 binary is
 * cross-compiled (scripts/build.ts --arch=arm64) and cannot run here; `make test-dist` checks its
 * ELF header and the addons it embeds instead.
 */
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { basename, join } from "node:path";
import { fileURLToPath } from "node:url";
import { makeDeb } from "./dist/deb.ts";
import { thirdPartyLicenses } from "./dist/licenses.ts";
import { ARCHES, type Release } from "./dist/release.ts";
import { makeRpm } from "./dist/rpm.ts";
import { stageSystemTree } from "./dist/system-tree.ts";
import { makeTarball } from "./dist/tarball.ts";

const root = fileURLToPath(new URL("..", import.meta.url));
const dist = join(root, "dist");
const { version } = JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as { version: string };

const onPath = (tool: string) => (process.env.PATH ?? "").split(":").some((dir) => existsSync(join(dir, tool)));
const missing = ["dpkg-deb", "rpmbuild", "tar", "sha256sum"].filter((tool) => !onPath(tool));
if (missing.length > 0) {
  console.error(`Cannot make the packages: ${missing.join(", ")} missing (Debian: apt-get install dpkg rpm coreutils tar)`);
  process.exit(1);
}

mkdirSync(dist, { recursive: true });
// Packages of any earlier version go too, so SHA256SUMS lists exactly this release.
for (const f of readdirSync(dist)) {
  if (/^homed[-_].*\.(tar\.gz|deb|rpm)$/.test(f) || f === "SHA256SUMS") rmSync(join(dist, f));
}
const licenses = thirdPartyLicenses(root);
const made: string[] = [];
for (const arch of ARCHES) {
  const work = join(dist, `.stage-${arch.node}`);
  rmSync(work, { recursive: true, force: true });
  mkdirSync(work, { recursive: true });
  const release: Release = { root, dist, version, arch, licenses };
  const binary = join(work, "homed");
  execFileSync(process.execPath, [join(root, "scripts", "build.ts"), binary, `--arch=${arch.node}`], { stdio: "inherit" });
  made.push(makeTarball(release, binary, work));
  const tree = join(work, "tree");
  stageSystemTree(release, binary, tree);
  made.push(makeDeb(release, tree, work));
  made.push(makeRpm(release, tree, work));
  rmSync(work, { recursive: true, force: true });
}
const sums = execFileSync(
  "sha256sum",
  made.map((f) => basename(f)),
  { cwd: dist, encoding: "utf8" },
);
writeFileSync(join(dist, "SHA256SUMS"), sums);
for (const f of made) console.log(`wrote ${f}`);
console.log(`wrote ${join(dist, "SHA256SUMS")}`);

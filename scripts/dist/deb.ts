/** `homed_<v>_<amd64|arm64>.deb` from the staged system tree, with Debian's own dpkg-deb. */
import { execFileSync } from "node:child_process";
import { chmodSync, copyFileSync, cpSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Release } from "./release.ts";

export function makeDeb(release: Release, tree: string, work: string): string {
  const root = join(work, "deb");
  cpSync(tree, root, { recursive: true });
  const debian = join(root, "DEBIAN");
  mkdirSync(debian, { mode: 0o755 });
  const installedKiB = Number(execFileSync("du", ["-sk", "--exclude=DEBIAN", root], { encoding: "utf8" }).split("\t")[0]);
  const control = [
    "Package: homed",
    `Version: ${release.version}`,
    `Architecture: ${release.arch.deb}`,
    "Maintainer: homed developers <homed@users.noreply.invalid>",
    `Installed-Size: ${installedKiB}`,
    // glibc 2.18: the newest symbol version the runtime and its native addons ask for.
    "Depends: libc6 (>= 2.18)",
    "Recommends: systemd",
    "Section: net",
    "Priority: optional",
    "Description: self-hosted agent kernel with long-term memory",
    " homed keeps an agent's conversations and memories in one libSQL database and",
    " serves a web console and an OpenAI-compatible API. One binary, run as the",
    " homed system service; see /usr/share/doc/homed/README.md.",
    "",
  ].join("\n");
  writeFileSync(join(debian, "control"), control, { mode: 0o644 });
  writeFileSync(join(debian, "conffiles"), "/etc/homed/env\n", { mode: 0o644 });
  for (const script of ["postinst", "prerm", "postrm"]) {
    copyFileSync(join(release.root, "packaging", "deb", script), join(debian, script));
    chmodSync(join(debian, script), 0o755);
  }
  const out = join(release.dist, `homed_${release.version}_${release.arch.deb}.deb`);
  // gzip, measured on the x64 binary: xz -6: 48.5 MB instead of 64.3 MB, but 75 s of CPU a package instead of 5 s (6 packages: minutes of CI).
  execFileSync("dpkg-deb", ["--root-owner-group", "-Zgzip", "--build", root, out], { stdio: "pipe" });
  return out;
}

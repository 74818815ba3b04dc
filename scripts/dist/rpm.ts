/** `homed-<v>-1.<x86_64|aarch64>.rpm` from the staged system tree, with rpmbuild (Debian's rpm). */
import { execFileSync } from "node:child_process";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Release } from "./release.ts";

export function makeRpm(release: Release, tree: string, work: string): string {
  const top = join(work, "rpmbuild");
  mkdirSync(top, { recursive: true });
  const spec = readFileSync(join(release.root, "packaging", "rpm", "homed.spec"), "utf8")
    .replaceAll("@VERSION@", release.version)
    .replaceAll("@TREE@", tree);
  const specFile = join(top, "homed.spec");
  writeFileSync(specFile, spec);
  const name = `homed-${release.version}-1.${release.arch.rpm}.rpm`;
  execFileSync(
    "rpmbuild",
    [
      "-bb",
      "--quiet",
      "--nodeps",
      "--target",
      `${release.arch.rpm}-linux`,
      "--define",
      `_topdir ${top}`,
      "--define",
      `_rpmdir ${release.dist}`,
      "--define",
      "_build_name_fmt %{NAME}-%{VERSION}-%{RELEASE}.%{ARCH}.rpm",
      specFile,
    ],
    { stdio: "pipe" },
  );
  return join(release.dist, name);
}

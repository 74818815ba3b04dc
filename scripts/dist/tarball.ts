/**
 * `homed-<v>-linux-<arch>.tar.gz`: one folder with the binary, install.sh and what it installs
 * (unit, sysusers file, env example), the user's README and the licences.
 */
import { execFileSync } from "node:child_process";
import { chmodSync, copyFileSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Release } from "./release.ts";

export function makeTarball(release: Release, binary: string, work: string): string {
  const name = `homed-${release.version}-linux-${release.arch.node}`;
  const stage = join(work, name);
  mkdirSync(stage, { recursive: true });
  const p = (f: string) => join(release.root, "packaging", f);
  copyFileSync(binary, join(stage, "homed"));
  copyFileSync(p("install.sh"), join(stage, "install.sh"));
  copyFileSync(p("homed.service"), join(stage, "homed.service"));
  copyFileSync(p("homed.sysusers"), join(stage, "homed.sysusers"));
  copyFileSync(p("env"), join(stage, "env"));
  copyFileSync(p("README.md"), join(stage, "README.md"));
  copyFileSync(join(release.root, "LICENSE"), join(stage, "LICENSE"));
  writeFileSync(join(stage, "THIRD_PARTY_LICENSES.txt"), release.licenses);
  for (const f of ["homed", "install.sh"]) chmodSync(join(stage, f), 0o755);
  const out = join(release.dist, `${name}.tar.gz`);
  execFileSync("tar", ["--owner=0", "--group=0", "--numeric-owner", "-czf", out, "-C", work, name]);
  return out;
}

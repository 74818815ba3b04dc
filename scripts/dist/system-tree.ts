/**
 * The files a system package installs, staged once per CPU and packed by both the .deb and the
 * .rpm, so the two cannot drift apart:
 *   /usr/bin/homed, /usr/lib/systemd/system/homed.service, /usr/lib/sysusers.d/homed.conf,
 *   /etc/homed/env (0600, a conffile), /usr/share/doc/homed/{README.md,LICENSE,THIRD_PARTY_LICENSES.txt},
 *   /var/lib/homed (0700; the package's scripts give it to the homed user).
 */
import { chmodSync, copyFileSync, mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import type { Release } from "./release.ts";

export function stageSystemTree(release: Release, binary: string, tree: string): void {
  const put = (from: string, to: string, mode: number) => {
    const dest = join(tree, to);
    mkdirSync(dirname(dest), { recursive: true });
    copyFileSync(from, dest);
    chmodSync(dest, mode);
  };
  const p = (f: string) => join(release.root, "packaging", f);
  put(binary, "usr/bin/homed", 0o755);
  put(p("homed.service"), "usr/lib/systemd/system/homed.service", 0o644);
  put(p("homed.sysusers"), "usr/lib/sysusers.d/homed.conf", 0o644);
  put(p("env"), "etc/homed/env", 0o600);
  put(p("README.md"), "usr/share/doc/homed/README.md", 0o644);
  put(join(release.root, "LICENSE"), "usr/share/doc/homed/LICENSE", 0o644);
  writeFileSync(join(tree, "usr/share/doc/homed/THIRD_PARTY_LICENSES.txt"), release.licenses, { mode: 0o644 });
  mkdirSync(join(tree, "var/lib/homed"), { recursive: true, mode: 0o700 });
  chmodSync(join(tree, "var/lib/homed"), 0o700);
  // Folders 0755 whatever the build machine's umask.
  for (const dir of [
    "usr",
    "usr/bin",
    "usr/lib",
    "usr/lib/systemd",
    "usr/lib/systemd/system",
    "usr/lib/sysusers.d",
    "etc",
    "etc/homed",
    "usr/share",
    "usr/share/doc",
    "usr/share/doc/homed",
    "var",
    "var/lib",
  ]) {
    chmodSync(join(tree, dir), 0o755);
  }
}

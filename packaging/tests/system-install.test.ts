/**
 * The x64 .deb and .rpm installed for real, with their scripts, by dpkg and rpm — into a
 * throw-away copy of this machine: an overlay over / in a private mount namespace, chrooted
 * into, whose writes vanish afterwards. No systemd runs here, so the scripts' `systemctl start`
 * branch is not taken; the user, the data folder, the conffile, `remove` and `purge` are. The
 * tarball's install.sh runs there too, on the live root (`/`), as a user would run it.
 */
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import { PACKAGES, dist, isRoot, scratch, skipUnless, unpack } from "./dist.ts";

/** Runs `script` (sh -e) as root inside a throw-away copy of this machine; returns its output. */
function inThrowAwaySystem(script: string): string {
  const dir = scratch("system");
  for (const sub of ["upper", "work", "merged"]) mkdirSync(join(dir, sub));
  const setup = [
    `mount -t overlay overlay -o lowerdir=/,upperdir=${dir}/upper,workdir=${dir}/work ${dir}/merged`,
    `mount --bind /proc ${dir}/merged/proc`,
    `mount --bind /dev ${dir}/merged/dev`,
    `exec chroot ${dir}/merged sh -ec "$1"`,
  ].join(" && ");
  const result = spawnSync("unshare", ["--mount", "--propagation", "private", "sh", "-ec", setup, "sh", script], { encoding: "utf8" });
  rmSync(dir, { recursive: true, force: true });
  if (result.status !== 0) throw new Error(`exit ${result.status}:\n${result.stdout}\n${result.stderr}`);
  return result.stdout;
}

function overlayWorks(): string | false {
  if (!isRoot) return (console.log("skipped: installing packages needs root"), "not root");
  const missing = skipUnless("unshare", "chroot", "runuser");
  if (missing) return missing;
  try {
    inThrowAwaySystem("true");
    return false;
  } catch (error) {
    const reason = `no overlay mount here (${(error as Error).message.split("\n").find((l) => l.trim()) ?? "?"})`;
    console.log(`skipped: ${reason}`);
    return reason;
  }
}
const skip = overlayWorks();

// What the README promises after an install: the user's data folder, its mode and owner, and
// `sudo -u homed homed doctor -data /var/lib/homed` working (runuser: sudo may be absent).
const CHECK_INSTALLED = `
  stat -c 'data %a %U:%G' /var/lib/homed
  stat -c 'env %a %U:%G' /etc/homed/env
  getent passwd homed | cut -d: -f6 | sed 's/^/home /'
  homed --version
  runuser -u homed -- homed doctor -data /var/lib/homed >/dev/null && echo doctor passed
  stat -c 'db %a %U' /var/lib/homed/homed.db
`;

describe("packages installed by their package managers into a throw-away system", { skip }, () => {
  test(".deb: dpkg -i makes the user and a 0700 data folder; remove keeps data; purge deletes it", { skip: skipUnless("dpkg") }, () => {
    const deb = dist(PACKAGES.x64.deb);
    const out = inThrowAwaySystem(`
      dpkg -i ${deb} >/dev/null
      ${CHECK_INSTALLED}
      [ -L /etc/systemd/system/multi-user.target.wants/homed.service ] && echo enabled
      echo HOMED_LOG_LEVEL=debug >> /etc/homed/env
      dpkg -i ${deb} >/dev/null
      grep -c HOMED_LOG_LEVEL=debug /etc/homed/env | sed 's/^/kept env lines /'
      dpkg -r homed >/dev/null
      [ -e /usr/bin/homed ] || echo removed binary
      [ -e /var/lib/homed/homed.db ] && echo removed kept data
      [ -L /etc/systemd/system/multi-user.target.wants/homed.service ] || echo removed disabled
      dpkg -P homed >/dev/null
      [ -e /var/lib/homed ] || echo purged data
      [ -e /etc/homed ] || echo purged settings
    `);
    assert.deepEqual(out.trim().split("\n"), [
      "data 700 homed:homed",
      "env 600 root:root",
      "home /var/lib/homed",
      `homed ${PACKAGES.x64.deb.split("_")[1]}`,
      "doctor passed",
      "db 600 homed",
      "enabled",
      "kept env lines 1",
      "removed binary",
      "removed kept data",
      "removed disabled",
      "purged data",
      "purged settings",
    ]);
  });

  test(".rpm: rpm -i makes the user and a 0700 data folder; rpm -e keeps the data", { skip: skipUnless("rpm") }, () => {
    const rpm = dist(PACKAGES.x64.rpm);
    // --nodeps: this Debian's rpm database knows no glibc package.
    const out = inThrowAwaySystem(`
      rpm -i --nodeps ${rpm}
      ${CHECK_INSTALLED}
      rpm -e homed 2>/dev/null
      [ -e /usr/bin/homed ] || echo removed binary
      [ -e /var/lib/homed/homed.db ] && echo removed kept data
    `);
    assert.deepEqual(out.trim().split("\n"), [
      "data 700 homed:homed",
      "env 600 root:root",
      "home /var/lib/homed",
      `homed ${PACKAGES.x64.deb.split("_")[1]}`,
      "doctor passed",
      "db 600 homed",
      "removed binary",
      "removed kept data",
    ]);
  });

  test("install.sh on / where systemd is not running: user, data folder, enabled unit, nothing started; --uninstall keeps the data", () => {
    const folder = join(unpack(PACKAGES.x64.tarball), PACKAGES.x64.folder);
    const out = inThrowAwaySystem(`
      sh ${folder}/install.sh
      ${CHECK_INSTALLED.replaceAll("homed --version", "/usr/local/bin/homed --version").replaceAll("-- homed doctor", "-- /usr/local/bin/homed doctor")}
      [ -L /etc/systemd/system/multi-user.target.wants/homed.service ] && echo enabled
      grep '^ExecStart=' /etc/systemd/system/homed.service
      sh ${folder}/install.sh --uninstall >/dev/null
      [ -e /usr/local/bin/homed ] || echo removed binary
      [ -e /var/lib/homed/homed.db ] && echo removed kept data
    `);
    assert.deepEqual(out.trim().split("\n"), [
      "homed: installed and enabled; systemd is not running here, so nothing was started",
      "data 700 homed:homed",
      "env 600 root:root",
      "home /var/lib/homed",
      `homed ${PACKAGES.x64.deb.split("_")[1]}`,
      "doctor passed",
      "db 600 homed",
      "enabled",
      "ExecStart=/usr/local/bin/homed serve -data /var/lib/homed",
      "removed binary",
      "removed kept data",
    ]);
  });
});

/**
 * install.sh from the unpacked x64 tarball, against a throw-away root folder (`--root=DIR`;
 * systemd does not run here): what it installs and with which modes and owners, that an
 * upgrade keeps the user's settings and data, and that `--uninstall` removes what it added and
 * keeps the data unless `--remove-data` is given.
 */
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, lstatSync, readFileSync, readlinkSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { run } from "../../tests/support/process.ts";
import { PACKAGES, isRoot, scratch, skipUnless, unpack } from "./dist.ts";

const mode = (path: string) => (statSync(path).mode & 0o7777).toString(8).padStart(4, "0");
const skip = isRoot ? skipUnless("systemd-sysusers", "systemctl") : (console.log("skipped: install.sh tests need root (chown)"), "not root");

describe("install.sh into a throw-away root", { skip }, () => {
  test("installs, upgrades keeping settings and data, uninstalls keeping data, then removes data when asked", async () => {
    const folder = join(unpack(PACKAGES.x64.tarball), PACKAGES.x64.folder);
    const installer = join(folder, "install.sh");
    const root = scratch("root");
    const r = (path: string) => join(root, path);
    const install = (...args: string[]) => run(["sh", installer, `--root=${root}`, ...args]);

    const first = await install();
    assert.equal(first.code, 0, first.stdout + first.stderr);
    assert.match(first.stdout, /installed into/);

    assert.equal(mode(r("usr/local/bin/homed")), "0755");
    assert.ok(readFileSync(r("usr/local/bin/homed")).equals(readFileSync(join(folder, "homed"))));
    const unit = readFileSync(r("etc/systemd/system/homed.service"), "utf8");
    assert.equal(mode(r("etc/systemd/system/homed.service")), "0644");
    assert.match(unit, /^ExecStart=\/usr\/local\/bin\/homed serve -data \/var\/lib\/homed$/m);
    assert.match(unit, /^Documentation=file:\/usr\/local\/share\/doc\/homed\/README\.md$/m);
    assert.doesNotMatch(unit, /\/usr\/bin\/homed/);
    // `systemctl --root enable` made the WantedBy link.
    const wants = r("etc/systemd/system/multi-user.target.wants/homed.service");
    assert.ok(lstatSync(wants).isSymbolicLink());
    assert.equal(readlinkSync(wants), "/etc/systemd/system/homed.service");
    // systemd-sysusers made the user inside the root, not on this machine.
    const passwd = readFileSync(r("etc/passwd"), "utf8")
      .split("\n")
      .find((l) => l.startsWith("homed:"));
    assert.ok(passwd, "no homed user in the root's /etc/passwd");
    const [, , uid, gid, , home, shell] = passwd.split(":");
    assert.equal(home, "/var/lib/homed");
    assert.match(shell!, /nologin$/);
    const data = statSync(r("var/lib/homed"));
    assert.equal(mode(r("var/lib/homed")), "0700");
    assert.equal(data.uid, Number(uid));
    assert.equal(data.gid, Number(gid));
    assert.equal(mode(r("etc/homed/env")), "0600");
    assert.equal(statSync(r("etc/homed/env")).uid, 0);
    assert.equal(readFileSync(r("usr/local/share/doc/homed/README.md"), "utf8"), readFileSync(join(folder, "README.md"), "utf8"));
    assert.ok(existsSync(r("etc/sysusers.d/homed.conf")));

    // An upgrade: the user's keys and the data stay as they are.
    writeFileSync(r("etc/homed/env"), "HOMED_API_KEY=sk-mine\n");
    writeFileSync(r("var/lib/homed/homed.db"), "data");
    const again = await install();
    assert.equal(again.code, 0, again.stdout + again.stderr);
    assert.equal(readFileSync(r("etc/homed/env"), "utf8"), "HOMED_API_KEY=sk-mine\n");
    assert.equal(mode(r("etc/homed/env")), "0600");
    assert.equal(readFileSync(r("var/lib/homed/homed.db"), "utf8"), "data");
    assert.equal(
      readFileSync(r("etc/passwd"), "utf8")
        .split("\n")
        .filter((l) => l.startsWith("homed:")).length,
      1,
    );

    const misuse = await install("--remove-data");
    assert.equal(misuse.code, 2);
    assert.match(misuse.stderr, /--remove-data goes with --uninstall/);

    const removed = await install("--uninstall");
    assert.equal(removed.code, 0, removed.stdout + removed.stderr);
    for (const gone of ["usr/local/bin/homed", "etc/systemd/system/homed.service", "etc/sysusers.d/homed.conf", "usr/local/share/doc/homed"]) {
      assert.equal(existsSync(r(gone)), false, `${gone} is still there`);
    }
    assert.equal(existsSync(wants), false, "the enable link is still there");
    assert.equal(readFileSync(r("var/lib/homed/homed.db"), "utf8"), "data");
    assert.equal(readFileSync(r("etc/homed/env"), "utf8"), "HOMED_API_KEY=sk-mine\n");
    assert.match(removed.stdout, /kept the data in \/var\/lib\/homed/);

    const purged = await install("--uninstall", "--remove-data");
    assert.equal(purged.code, 0, purged.stdout + purged.stderr);
    assert.equal(existsSync(r("var/lib/homed")), false);
    assert.equal(existsSync(r("etc/homed")), false);
  });

  test("refuses to install over a .deb or .rpm install, and unknown options", async () => {
    const folder = join(unpack(PACKAGES.x64.tarball), PACKAGES.x64.folder);
    const root = scratch("root");
    const packaged = join(root, "usr/lib/systemd/system");
    await run(["mkdir", "-p", packaged]);
    writeFileSync(join(packaged, "homed.service"), "[Service]\n");
    const over = await run(["sh", join(folder, "install.sh"), `--root=${root}`]);
    assert.equal(over.code, 1);
    assert.match(over.stderr, /installed from a \.deb or \.rpm package/);
    assert.equal(existsSync(join(root, "usr/local/bin/homed")), false);
    const unknown = await run(["sh", join(folder, "install.sh"), "--frobnicate"]);
    assert.equal(unknown.code, 2);
    assert.match(unknown.stderr, /unknown option --frobnicate/);
  });
});

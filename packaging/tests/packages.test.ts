/**
 * The six packages `make dist` makes: names, checksums, what each holds (as dpkg-deb and rpm
 * report it), the user's README in each, the x64 binary running `doctor` from each unpacked
 * package, and the arm64 binary's format and embedded native files (it cannot run here).
 */
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { lockedPackage } from "../../scripts/locked-package.ts";
import { run, startDaemon } from "../../tests/support/process.ts";
import { DIST, PACKAGES, ROOT, VERSION, dist, skipUnless, unpack, type Cpu } from "./dist.ts";

const ALL = Object.values(PACKAGES).flatMap((p) => [p.tarball, p.deb, p.rpm]);
const out = (cmd: string, args: string[]) => execFileSync(cmd, args, { cwd: DIST, encoding: "utf8" });

/** Where each format puts the binary and the user's README inside its unpacked tree. */
function layout(file: string, cpu: Cpu): { binary: string; readme: string } {
  if (file.endsWith(".tar.gz")) {
    const folder = PACKAGES[cpu].folder;
    return { binary: `${folder}/homed`, readme: `${folder}/README.md` };
  }
  return { binary: "usr/bin/homed", readme: "usr/share/doc/homed/README.md" };
}

/** Each format of one CPU unpacked once; the formats that need rpm are left out without it. */
const unpacked = new Map<string, string>();
function tree(file: string): string {
  if (!unpacked.has(file)) unpacked.set(file, unpack(file));
  return unpacked.get(file)!;
}
const noRpm = skipUnless("rpm", "rpm2archive");
const formats = (cpu: Cpu) => [PACKAGES[cpu].tarball, PACKAGES[cpu].deb, ...(noRpm ? [] : [PACKAGES[cpu].rpm])];

describe("make dist", () => {
  test("six packages named per format, and a SHA256SUMS that lists and verifies exactly them", () => {
    for (const file of ALL) assert.ok(statSync(dist(file)).size > 10_000_000, `${file} is too small to hold the binary`);
    const listed = readFileSync(dist("SHA256SUMS"), "utf8")
      .trim()
      .split("\n")
      .map((line) => line.split(/\s+\*?/)[1]);
    assert.deepEqual([...listed].sort(), [...ALL].sort());
    const verified = out("sha256sum", ["-c", "SHA256SUMS"]);
    assert.equal(
      verified
        .trim()
        .split("\n")
        .filter((l) => l.endsWith(": OK")).length,
      6,
      verified,
    );
  });

  test("each package holds the user's README, not the developers'", () => {
    const user = readFileSync(join(ROOT, "packaging", "README.md"), "utf8");
    for (const heading of ["## Install", "## First start", "admin.token", "http://127.0.0.1:8080", "## Upgrade", "## Uninstall", "## Where data lives", "secrets.key"]) {
      assert.ok(user.includes(heading), `the user's README lacks ${heading}`);
    }
    assert.ok(!user.includes("make test"), "the user's README talks about make");
    for (const cpu of ["x64", "arm64"] as const) {
      for (const file of formats(cpu)) assert.equal(readFileSync(join(tree(file), layout(file, cpu).readme), "utf8"), user, file);
    }
  });
});

describe("the .deb (dpkg-deb)", { skip: skipUnless("dpkg-deb") }, () => {
  for (const cpu of ["x64", "arm64"] as const) {
    test(`${PACKAGES[cpu].deb}: control fields, conffile, files with their modes and owners`, () => {
      const deb = dist(PACKAGES[cpu].deb);
      const field = (name: string) => out("dpkg-deb", ["--field", deb, name]).trim();
      assert.equal(field("Package"), "homed");
      assert.equal(field("Version"), VERSION);
      assert.equal(field("Architecture"), cpu === "x64" ? "amd64" : "arm64");
      assert.match(field("Depends"), /libc6 \(>= 2\.18\)/);
      const info = out("dpkg-deb", ["--info", deb]);
      for (const script of ["postinst", "prerm", "postrm", "conffiles"]) assert.match(info, new RegExp(`\\b${script}\\b`));
      const conffiles = execFileSync("sh", ["-c", `dpkg-deb -I "$1" conffiles`, "sh", deb], { encoding: "utf8" });
      assert.equal(conffiles, "/etc/homed/env\n");
      // "-rwxr-xr-x root/root 144644272 2026-11-30 14:01 ./usr/bin/homed" → "./usr/bin/homed" → "-rwxr-xr-x root/root"
      const contents = new Map(
        out("dpkg-deb", ["--contents", deb])
          .trim()
          .split("\n")
          .map((line) => {
            const parts = line.split(/\s+/);
            return [parts[5]!, `${parts[0]} ${parts[1]}`];
          }),
      );
      assert.equal(contents.get("./usr/bin/homed"), "-rwxr-xr-x root/root");
      assert.equal(contents.get("./usr/lib/systemd/system/homed.service"), "-rw-r--r-- root/root");
      assert.equal(contents.get("./usr/lib/sysusers.d/homed.conf"), "-rw-r--r-- root/root");
      assert.equal(contents.get("./etc/homed/env"), "-rw------- root/root");
      assert.equal(contents.get("./var/lib/homed/"), "drwx------ root/root");
      for (const doc of ["README.md", "LICENSE", "THIRD_PARTY_LICENSES.txt"]) assert.ok(contents.has(`./usr/share/doc/homed/${doc}`), doc);
    });
  }
});

describe("the .rpm (rpm -qip / -qlp)", { skip: noRpm }, () => {
  for (const cpu of ["x64", "arm64"] as const) {
    test(`${PACKAGES[cpu].rpm}: header, scriptlets, files with their modes and owners`, () => {
      const rpm = dist(PACKAGES[cpu].rpm);
      const info = out("rpm", ["-qip", rpm]);
      assert.match(info, /^Name\s+: homed$/m);
      assert.match(info, new RegExp(`^Version\\s+: ${VERSION.replaceAll(".", "\\.")}$`, "m"));
      assert.match(info, /^Release\s+: 1$/m);
      assert.match(info, new RegExp(`^Architecture: ${cpu === "x64" ? "x86_64" : "aarch64"}$`, "m"));
      assert.match(info, /^License\s+: AGPL-3\.0-only$/m);
      const requires = new Set(
        out("rpm", ["-qp", "--requires", rpm])
          .trim()
          .split("\n")
          .filter((r) => !r.startsWith("rpmlib(")),
      );
      assert.deepEqual([...requires].sort(), ["/bin/sh", "glibc >= 2.18"]);
      const scripts = out("rpm", ["-qp", "--scripts", rpm]);
      for (const phase of ["preinstall", "postinstall", "preuninstall", "postuninstall"]) assert.match(scripts, new RegExp(`^${phase} scriptlet`, "m"));
      // "-rw-------    1 root     root    510 Nov 30 14:01 /etc/homed/env"
      const files = new Map(
        out("rpm", ["-qlpv", rpm])
          .trim()
          .split("\n")
          .map((line) => {
            const parts = line.split(/\s+/);
            return [parts.at(-1)!, `${parts[0]} ${parts[2]}/${parts[3]}`];
          }),
      );
      assert.equal(files.get("/usr/bin/homed"), "-rwxr-xr-x root/root");
      assert.equal(files.get("/usr/lib/systemd/system/homed.service"), "-rw-r--r-- root/root");
      assert.equal(files.get("/etc/homed/env"), "-rw------- root/root");
      assert.equal(files.get("/var/lib/homed"), "drwx------ homed/homed");
      assert.equal(out("rpm", ["-qp", "--configfiles", rpm]).trim(), "/etc/homed/env");
    });
  }
});

describe("the binaries inside the packages", () => {
  test("x64: the same binary in every package, and it runs doctor from each unpacked tree", async () => {
    const binaries = formats("x64").map((file) => join(tree(file), layout(file, "x64").binary));
    const bytes = readFileSync(binaries[0]!);
    for (const other of binaries.slice(1)) assert.ok(bytes.equals(readFileSync(other)), `${other} differs from ${binaries[0]}`);
    for (const binary of binaries) {
      const dir = join(binary, "..");
      const doctor = await run([binary, "doctor", "-data", "./data"], { cwd: dir });
      assert.equal(doctor.code, 0, `${binary}:\n${doctor.stdout}${doctor.stderr}`);
      assert.match(doctor.stdout, /^ok {3}database opens/m);
      assert.match(doctor.stdout, /^ok {3}migrations current/m);
      const version = await run([binary, "--version"], { cwd: dir });
      assert.equal(version.stdout, `homed ${VERSION}\n`);
    }
  });

  for (const cpu of ["x64", "arm64"] as const) {
    test(`${cpu}: an ELF for ${cpu}, embedding that CPU's libSQL addon and PTY library and not the other's`, () => {
      const binaries = formats(cpu).map((file) => join(tree(file), layout(file, cpu).binary));
      const bytes = readFileSync(binaries[0]!);
      for (const other of binaries.slice(1)) assert.ok(bytes.equals(readFileSync(other)), `${other} differs from ${binaries[0]}`);
      // ELF header: magic, 64-bit (class 2), little-endian (1), e_machine at 18: 62 x86-64, 183 AArch64.
      assert.deepEqual([...bytes.subarray(0, 6)], [0x7f, 0x45, 0x4c, 0x46, 2, 1]);
      const machine = bytes.readUInt16LE(18);
      assert.equal(machine, cpu === "x64" ? 62 : 183, `e_machine ${machine}`);
      const addon = (c: Cpu) => `${lockedPackage(ROOT, c === "x64" ? "@libsql/linux-x64-gnu" : "@libsql/linux-arm64-gnu")}/index.node`;
      const ptyLib = (c: Cpu) => join(ROOT, "node_modules/bun-pty/rust-pty/target/release", c === "x64" ? "librust_pty.so" : "librust_pty_arm64.so");
      const other: Cpu = cpu === "x64" ? "arm64" : "x64";
      assert.ok(bytes.includes(readFileSync(addon(cpu))), `the ${cpu} libSQL addon is not embedded`);
      assert.ok(!bytes.includes(readFileSync(addon(other))), `the ${other} libSQL addon is embedded`);
      assert.ok(bytes.includes(readFileSync(ptyLib(cpu))), `the ${cpu} PTY library is not embedded`);
      assert.ok(!bytes.includes(readFileSync(ptyLib(other))), `the ${other} PTY library is embedded`);
    });
  }
});

/** Debian's arm64 C library for cross-building (libc6-arm64-cross), usable as qemu's -L root. */
const ARM64_SYSROOT = "/usr/aarch64-linux-gnu";
const noQemu = skipUnless("qemu-aarch64") || (existsSync(`${ARM64_SYSROOT}/lib/ld-linux-aarch64.so.1`) ? false : (console.log(`skipped: no ${ARM64_SYSROOT} (libc6-arm64-cross)`), "no arm64 sysroot"));

describe("the arm64 binary under emulation (Debian's qemu-user)", { skip: noQemu }, () => {
  test("runs doctor and answers /healthz: libSQL's arm64 addon opens the database, vector and full-text search, jieba, ONNX Runtime", async () => {
    const dir = join(tree(PACKAGES.arm64.tarball), PACKAGES.arm64.folder);
    // Only doctor: the daemon's plugins are child processes, which qemu-user without binfmt cannot start.
    const doctor = await run(["qemu-aarch64", "-L", ARM64_SYSROOT, join(dir, "homed"), "doctor", "-data", "./data"], { cwd: dir });
    assert.equal(doctor.code, 0, doctor.stdout + doctor.stderr);
    for (const name of ["database opens", "database integrity", "migrations current", "vector search", "full-text search", "jieba", "onnx runtime"]) {
      assert.match(doctor.stdout, new RegExp(`^ok {3}${name}`, "m"), doctor.stdout);
    }
    // The daemon serves and stops cleanly (its plugins exit 127 here: see above).
    const daemon = await startDaemon(["qemu-aarch64", "-L", ARM64_SYSROOT, join(dir, "homed"), "serve", "-data", "./data", "-addr", "127.0.0.1:0"], { cwd: dir, timeoutMs: 120000 });
    assert.deepEqual(await (await fetch(`${daemon.url}/healthz`)).json(), { ok: true, version: VERSION });
    const { code } = await daemon.stop("SIGTERM");
    assert.equal(code, 0, daemon.stderr());
  });
});

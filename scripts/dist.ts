/**
 * Makes the release tarball `dist/homed-<version>-linux-<arch>.tar.gz`: the binary, the systemd
 * unit, LICENSE, README and the licence texts of every third-party package built into the binary.
 * Expects `dist/homed` (run by `make dist` after `make build`).
 */
import { execFileSync } from "node:child_process";
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));
const { version } = JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as { version: string };
const arch = process.arch === "x64" ? "x64" : process.arch;
const name = `homed-${version}-linux-${arch}`;
const stage = join(root, "dist", name);

/** Every production package (the ones bundled into the binary), with its licence text. */
function thirdPartyLicenses(): string {
  const out = execFileSync("npm", ["ls", "--omit=dev", "--all", "--parseable"], { cwd: root, encoding: "utf8" });
  const dirs = [...new Set(out.trim().split("\n").slice(1))].sort();
  const sections = dirs.map((dir) => {
    const pkg = JSON.parse(readFileSync(join(dir, "package.json"), "utf8")) as { name: string; version: string; license?: string };
    const file = readdirSync(dir).find((f) => /^(licen[cs]e|copying)(\.(md|txt))?$/i.test(f));
    const text = file ? readFileSync(join(dir, file), "utf8").trim() : `(no licence file in the package; declared licence: ${pkg.license ?? "unknown"})`;
    return `${pkg.name}@${pkg.version} — ${pkg.license ?? "unknown"}\n\n${text}\n`;
  });
  const runtime =
    "bun (the runtime compiled into the binary) — MIT, with bundled components under their own licences;\n" +
    "see https://github.com/oven-sh/bun/blob/main/LICENSE.md\n";
  return [runtime, ...sections].join(`\n${"=".repeat(78)}\n\n`);
}

if (!existsSync(join(root, "dist", "homed"))) {
  console.error("Cannot make the tarball: dist/homed is missing (run make build)");
  process.exit(1);
}
rmSync(stage, { recursive: true, force: true });
mkdirSync(stage, { recursive: true });
copyFileSync(join(root, "dist", "homed"), join(stage, "homed"));
copyFileSync(join(root, "packaging", "homed.service"), join(stage, "homed.service"));
copyFileSync(join(root, "LICENSE"), join(stage, "LICENSE"));
copyFileSync(join(root, "README.md"), join(stage, "README.md"));
writeFileSync(join(stage, "THIRD_PARTY_LICENSES.txt"), thirdPartyLicenses());
execFileSync("chmod", ["755", join(stage, "homed")]);
const tarball = join(root, "dist", `${name}.tar.gz`);
execFileSync("tar", ["-czf", tarball, "-C", join(root, "dist"), name]);
rmSync(stage, { recursive: true, force: true });
console.log(`wrote ${tarball}`);

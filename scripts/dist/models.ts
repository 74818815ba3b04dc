/**
 * `make dist MODELS=DIR`: a model folder that `homed model pull` filled, packaged as
 * `homed-models-<name>` — a .deb (Architecture: all), an .rpm (noarch) and a tarball rooted at
 * / — installing to /usr/lib/homed/models/<folder>, where homed looks after its own models
 * folder (src/embed/model-roots.ts). The folder's LICENCE.txt (written by the pull: licence,
 * where the licence text is, the source URLs) goes with it, and is the .deb's copyright file.
 * Run alone: `bun scripts/dist/models.ts DIR [OUT]`.
 */
import { execFileSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { basename, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

/** Where homed finds packaged models (SYSTEM_MODELS_DIR in src/config/settings.ts). */
const SYSTEM_MODELS = "usr/lib/homed/models";
/** Left behind by a pull or a load, not part of the model: partial downloads, the CLIP manifest of one machine. */
const LEFT_OUT = (name: string) => name.endsWith(".part") || name === "homed-manifest.json";

export type ModelPackage = { name: string; packageName: string; folder: string; licence: string; files: string[] };

/** What the folder holds and what its package is called; refuses a folder no pull finished. */
export function describeModelFolder(dir: string): ModelPackage {
  const folder = basename(resolve(dir));
  const licencePath = join(dir, "LICENCE.txt");
  if (!existsSync(join(dir, "homed-pull.json")) || !existsSync(licencePath)) {
    throw new Error(`Cannot package ${dir}: it holds no homed-pull.json and LICENCE.txt (pull the model with homed model pull first)`);
  }
  const record = JSON.parse(readFileSync(join(dir, "homed-pull.json"), "utf8")) as { name?: string; files: Record<string, unknown> };
  const missing = Object.keys(record.files).filter((file) => !existsSync(join(dir, file)));
  if (missing.length > 0) throw new Error(`Cannot package ${dir}: ${missing.join(", ")} missing (the pull did not finish; run it again)`);
  const name = record.name ?? folder;
  const licence = /^Licence: (.+)$/m.exec(readFileSync(licencePath, "utf8"))?.[1] ?? "see LICENCE.txt";
  const files = readdirSync(dir).filter((file) => !LEFT_OUT(file));
  // Debian and rpm names: lower case letters, digits, '.', '+' and '-'.
  const packageName = `homed-models-${name.toLowerCase().replace(/[^a-z0-9.+-]/g, "-")}`;
  return { name, packageName, folder, licence, files };
}

function stage(dir: string, model: ModelPackage, tree: string): void {
  const target = join(tree, SYSTEM_MODELS, model.folder);
  mkdirSync(target, { recursive: true });
  for (const file of model.files) cpSync(join(dir, file), join(target, file));
}

function makeDeb(dir: string, model: ModelPackage, version: string, work: string, out: string): string {
  const root = join(work, "deb");
  stage(dir, model, root);
  const docs = join(root, "usr/share/doc", model.packageName);
  mkdirSync(docs, { recursive: true });
  cpSync(join(dir, "LICENCE.txt"), join(docs, "copyright"));
  mkdirSync(join(root, "DEBIAN"), { mode: 0o755 });
  const installedKiB = Number(execFileSync("du", ["-sk", "--exclude=DEBIAN", root], { encoding: "utf8" }).split("\t")[0]);
  const control = [
    `Package: ${model.packageName}`,
    `Version: ${version}`,
    "Architecture: all",
    "Maintainer: homed developers <homed@users.noreply.invalid>",
    `Installed-Size: ${installedKiB}`,
    "Recommends: homed",
    "Section: misc",
    "Priority: optional",
    `Description: ${model.name} model for homed`,
    ` The ${model.name} model files, installed to /${SYSTEM_MODELS}/${model.folder},`,
    " where homed finds them at its next start. Licence: see LICENCE.txt.",
    "",
  ].join("\n");
  writeFileSync(join(root, "DEBIAN", "control"), control, { mode: 0o644 });
  const file = join(out, `${model.packageName}_${version}_all.deb`);
  // Weights do not compress: gzip at its fastest level.
  execFileSync("dpkg-deb", ["--root-owner-group", "-Zgzip", "-z1", "--build", root, file], { stdio: "pipe" });
  return file;
}

function makeRpm(dir: string, model: ModelPackage, version: string, work: string, out: string): string {
  const tree = join(work, "rpm-tree");
  stage(dir, model, tree);
  const top = join(work, "rpmbuild");
  mkdirSync(top, { recursive: true });
  const spec = [
    `Name: ${model.packageName}`,
    `Version: ${version}`,
    "Release: 1",
    `Summary: ${model.name} model for homed`,
    `License: ${model.licence}`,
    "BuildArch: noarch",
    "AutoReqProv: no",
    "%global _binary_payload w1.gzdio",
    "%description",
    `The ${model.name} model files, where homed finds them at its next start. See LICENCE.txt.`,
    "%install",
    `cp -a ${tree}/. %{buildroot}/`,
    "%files",
    `/${SYSTEM_MODELS}/${model.folder}`,
    "",
  ].join("\n");
  writeFileSync(join(top, "model.spec"), spec);
  execFileSync(
    "rpmbuild",
    ["-bb", "--quiet", "--nodeps", "--define", `_topdir ${top}`, "--define", `_rpmdir ${out}`, "--define", "_build_name_fmt %{NAME}-%{VERSION}-%{RELEASE}.%{ARCH}.rpm", join(top, "model.spec")],
    { stdio: "pipe" },
  );
  return join(out, `${model.packageName}-${version}-1.noarch.rpm`);
}

/** A tarball rooted at /: `sudo tar -C / -xzf FILE` installs the model where a package would. */
function makeTarball(dir: string, model: ModelPackage, version: string, work: string, out: string): string {
  const tree = join(work, "tar-tree");
  stage(dir, model, tree);
  const file = join(out, `${model.packageName}-${version}.tar.gz`);
  execFileSync("tar", ["--owner=0", "--group=0", "-czf", file, "-C", tree, "usr"]);
  return file;
}

/** The three packages of one pulled folder, written to `out`; resolves with their paths. */
export function makeModelPackages(dir: string, version: string, out: string): string[] {
  const model = describeModelFolder(dir);
  mkdirSync(out, { recursive: true });
  const work = join(out, `.stage-${model.packageName}`);
  rmSync(work, { recursive: true, force: true });
  try {
    return [makeTarball(dir, model, version, work, out), makeDeb(dir, model, version, work, out), makeRpm(dir, model, version, work, out)];
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

if (import.meta.main) {
  const root = fileURLToPath(new URL("../..", import.meta.url));
  const [dir, out = join(root, "dist")] = process.argv.slice(2);
  if (!dir) {
    console.error("usage: bun scripts/dist/models.ts DIR [OUT]");
    process.exit(2);
  }
  const { version } = JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as { version: string };
  for (const file of makeModelPackages(dir, version, out)) console.log(`wrote ${file}`);
}

/**
 * `make dist MODELS=DIR` (issue 30): a pulled model folder becomes homed-models-<name> as a
 * .deb, an .rpm and a tarball installing to /usr/lib/homed/models/<folder> with its licence
 * note, and homed, pointed at the unpacked system folder, finds the model there. Built from the
 * tiny Chinese-CLIP in seconds, so it needs no `make dist` first; skipped without dpkg-deb or rpm.
 */
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { cpSync, readdirSync, readFileSync, writeFileSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import { describeModelFolder, makeModelPackages } from "../../scripts/dist/models.ts";
import { openEmbedder } from "../../src/embed/index.ts";
import { TINY_CLIP_DIR } from "../../tests/fixtures/make-tiny-clip.ts";
import { testDir } from "../../tests/support/temp-dir.ts";
import { skipUnless } from "./dist.ts";

const MODEL_FILES = ["vit-b-16.img.fp16.onnx", "vit-b-16.img.fp16.onnx.extra_file", "vit-b-16.txt.fp16.onnx", "vit-b-16.txt.fp16.onnx.extra_file", "vocab.txt"];
const INSTALLED = "usr/lib/homed/models/chinese-clip-vit-b16-onnx";

/** A folder as `homed model pull chinese-clip-vit-b16` leaves it, with a stray partial download. */
function pulledFolder(): string {
  const dir = join(testDir("homed-models-pkg-"), "chinese-clip-vit-b16-onnx");
  cpSync(join(TINY_CLIP_DIR, "fp16"), dir, { recursive: true });
  const files = Object.fromEntries(MODEL_FILES.map((f) => [f, { url: `https://huggingface.co/x/${f}`, sha256: "0".repeat(64) }]));
  writeFileSync(join(dir, "homed-pull.json"), JSON.stringify({ name: "chinese-clip-vit-b16", files }));
  writeFileSync(join(dir, "LICENCE.txt"), "chinese-clip-vit-b16: test\nLicence: MIT\n");
  writeFileSync(join(dir, "other.onnx.part"), "half");
  return dir;
}

const skip = skipUnless("dpkg-deb", "rpmbuild", "rpm", "rpm2archive");

describe("make dist MODELS=DIR", { skip }, () => {
  const dir = pulledFolder();
  const out = testDir("homed-models-dist-");
  const made = makeModelPackages(dir, "9.9.9", out);
  const unpack = (file: string) => {
    const into = testDir("homed-models-unpacked-");
    if (file.endsWith(".tar.gz")) execFileSync("tar", ["-xzf", file, "-C", into]);
    else if (file.endsWith(".deb")) execFileSync("dpkg-deb", ["-x", file, into]);
    else execFileSync("sh", ["-c", `rpm2archive - < "$1" | tar -xzf -`, "sh", file], { cwd: into });
    return into;
  };

  test("three packages named after the model, arch-independent", () => {
    assert.deepEqual(
      made.map((f) => f.slice(out.length + 1)),
      ["homed-models-chinese-clip-vit-b16-9.9.9.tar.gz", "homed-models-chinese-clip-vit-b16_9.9.9_all.deb", "homed-models-chinese-clip-vit-b16-9.9.9-1.noarch.rpm"],
    );
    const field = (name: string) => execFileSync("dpkg-deb", ["-f", made[1]!, name], { encoding: "utf8" }).trim();
    assert.deepEqual([field("Package"), field("Architecture"), field("Recommends")], ["homed-models-chinese-clip-vit-b16", "all", "homed"]);
    assert.equal(execFileSync("rpm", ["-qp", "--queryformat", "%{NAME} %{ARCH} %{LICENSE}", made[2]!], { encoding: "utf8" }), "homed-models-chinese-clip-vit-b16 noarch MIT");
  });

  test("each installs the model's files and its licence note to /usr/lib/homed/models/<folder>, without the partial download", () => {
    for (const file of made) {
      const tree = unpack(file);
      assert.deepEqual(readdirSync(join(tree, INSTALLED)).sort(), [...MODEL_FILES, "LICENCE.txt", "homed-pull.json"].sort(), file);
      for (const f of MODEL_FILES) assert.ok(readFileSync(join(tree, INSTALLED, f)).equals(readFileSync(join(dir, f))), `${file}: ${f}`);
      if (file.endsWith(".deb")) assert.match(readFileSync(join(tree, "usr/share/doc/homed-models-chinese-clip-vit-b16/copyright"), "utf8"), /^Licence: MIT$/m);
    }
  });

  test("homed finds the packaged model in the system folder when its own models folder has none", async () => {
    const tree = unpack(made[1]!);
    const active = await openEmbedder({ modelsDir: testDir("homed-empty-models-"), systemModelsDir: join(tree, "usr/lib/homed/models"), threads: 1 });
    assert.deepEqual([active.kind, active.embedder.modelId], ["chinese-clip", "chinese-clip-vit-b16@512"]);
    assert.match(active.reason, new RegExp(`Chinese-CLIP ViT-B/16 from ${join(tree, INSTALLED)}`));
    await active.embedder.close?.();
  });

  test("a folder no pull finished is refused, saying why", () => {
    const bare = join(testDir("homed-models-pkg-"), "bare");
    mkdirSync(bare);
    assert.throws(() => describeModelFolder(bare), /Cannot package .*bare: it holds no homed-pull.json and LICENCE.txt \(pull the model with homed model pull first\)/);
  });
});

/**
 * `homed embed` inside the compiled binary, copied alone into an empty folder: the tiny
 * Chinese-CLIP models (fp32 and fp16) from a -models folder, text and real JPEG, PNG and WebP
 * files, and the fallback said plainly when the model is missing or corrupt.
 */
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { cpSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { BINARY_SKIP, isolatedBinary } from "./build-binary.ts";
import { TINY_CLIP_DIR } from "../fixtures/make-tiny-clip.ts";
import { jpegFile, pngFile, webpFile } from "../embed/images.ts";
import { expectedImage, expectedText } from "../embed/tiny-clip.ts";
import { testDir } from "../support/temp-dir.ts";

const { bin, dir } = BINARY_SKIP ? { bin: "", dir: "" } : isolatedBinary();
const data = join(dir, "data");

function modelsWith(precision: "fp32" | "fp16"): string {
  const models = testDir("homed-models-");
  cpSync(join(TINY_CLIP_DIR, precision), join(models, "chinese-clip-vit-b16-onnx"), { recursive: true });
  return models;
}

type EmbedJson = { model: string; dim: number; embedder: string; reason: string; vector: number[] };

function embed(args: string[]): { status: number | null; json?: EmbedJson; stdout: string; stderr: string } {
  const run = spawnSync(bin, ["embed", "-data", data, ...args], { cwd: dir, encoding: "utf8", env: { PATH: process.env.PATH ?? "" } });
  const json = run.status === 0 && args.includes("--json") ? (JSON.parse(run.stdout) as EmbedJson) : undefined;
  return { status: run.status, json, stdout: run.stdout, stderr: run.stderr };
}

const close = (got: number[], want: number[], tolerance: number) => got.length === want.length && got.every((v, i) => Math.abs(v - want[i]!) < tolerance);

const files = testDir("homed-images-");
const colour: [number, number, number] = [200, 60, 30];
writeFileSync(
  join(files, "split.png"),
  pngFile(448, 224, (x) => (x < 224 ? [255, 0, 0] : [0, 0, 255])),
);
writeFileSync(
  join(files, "colour.jpg"),
  jpegFile(64, 48, () => colour),
);
writeFileSync(join(files, "colour.webp"), await webpFile(30, 50, () => colour));

for (const [precision, tolerance] of [
  ["fp32", 5e-5],
  ["fp16", 2e-3],
] as const) {
  describe(`binary: homed embed with the tiny Chinese-CLIP (${precision})`, { skip: BINARY_SKIP }, () => {
    const models = modelsWith(precision);

    test("text → the vector worked out from the model's weights", () => {
      const out = embed(["-models", models, "--json", "我爱北京"]);
      assert.equal(out.status, 0, out.stderr);
      assert.equal(out.json!.model, "chinese-clip-vit-b16@512");
      assert.equal(out.json!.dim, 512);
      assert.equal(out.json!.embedder, "chinese-clip");
      assert.match(out.json!.reason, new RegExp(`text ${precision}, image ${precision}`));
      assert.ok(close(out.json!.vector, expectedText([101, 104, 105, 106, 107, 102]), tolerance));
    });

    test("a real PNG, JPEG and WebP → image vectors in the same space", () => {
      const png = embed(["-models", models, "--json", "--image", join(files, "split.png")]);
      assert.equal(png.status, 0, png.stderr);
      const red: [number, number, number] = [255, 0, 0];
      const blue: [number, number, number] = [0, 0, 255];
      assert.ok(close(png.json!.vector, expectedImage([red, blue, red, blue]), tolerance));
      const want = expectedImage([colour, colour, colour, colour]);
      const jpg = embed(["-models", models, "--json", "--image", join(files, "colour.jpg")]);
      assert.equal(jpg.status, 0, jpg.stderr);
      assert.ok(jpg.json!.vector.reduce((s, v, i) => s + v * want[i]!, 0) > 0.999);
      const webp = embed(["-models", models, "--json", "--image", join(files, "colour.webp")]);
      assert.equal(webp.status, 0, webp.stderr);
      assert.ok(close(webp.json!.vector, want, tolerance));
    });
  });
}

describe("binary: homed embed falls back plainly", { skip: BINARY_SKIP }, () => {
  test("no model: the fallback, with where the model should go; text output names it", () => {
    const out = embed(["-models", testDir("homed-empty-"), "猫"]);
    assert.equal(out.status, 0, out.stderr);
    assert.match(out.stdout, /^embedder: fallback \(fallback-hash-v1@512\)$/m);
    assert.match(out.stdout, /no Chinese-CLIP model in .*chinese-clip-vit-b16-onnx/);
    assert.match(out.stdout, /^dim: +512$/m);
  });

  test("a corrupted model: the fallback, and the reason on stderr", () => {
    const models = modelsWith("fp32");
    assert.equal(embed(["-models", models, "--json", "x"]).status, 0);
    const file = join(models, "chinese-clip-vit-b16-onnx", "vit-b-16.txt.fp32.onnx");
    const bytes = readFileSync(file);
    bytes[bytes.length - 3]! ^= 0x10;
    writeFileSync(file, bytes);
    const out = embed(["-models", models, "--json", "x"]);
    assert.equal(out.status, 0, out.stderr);
    assert.equal(out.json!.model, "fallback-hash-v1@512");
    assert.match(out.stderr, /vit-b-16\.txt\.fp32\.onnx changed since first load/);
  });

  test("an image with the fallback is refused, saying why", () => {
    const out = embed(["-models", testDir("homed-empty-"), "--image", join(files, "split.png")]);
    assert.equal(out.status, 1);
    assert.match(out.stderr, /Cannot embed an image: fallback-hash-v1@512 has no image encoder/);
  });
});

describe("binary: homed embed --backfill", { skip: BINARY_SKIP }, () => {
  test("imported memory is re-embedded with the model, then nothing is left to do", () => {
    const home = testDir("homed-backfill-");
    const history = join(home, "history.jsonl");
    const line = (id: string, text: string) => JSON.stringify({ conversation: "c", session: "s1", time: "2024-01-01T00:00:00Z", speaker: "A", role: "user", text, id });
    writeFileSync(history, `${line("m1", "我爱北京")}\n${line("m2", "hello world")}\n`);
    const env = { PATH: process.env.PATH ?? "" };
    const imported = spawnSync(bin, ["import", "-data", home, history], { cwd: dir, encoding: "utf8", env });
    assert.equal(imported.status, 0, imported.stderr);
    const models = modelsWith("fp16");
    const run = () => spawnSync(bin, ["embed", "-data", home, "-models", models, "--backfill", "--json"], { cwd: dir, encoding: "utf8", env });
    const first = run();
    assert.equal(first.status, 0, first.stderr);
    const report = JSON.parse(first.stdout);
    assert.equal(report.model, "chinese-clip-vit-b16@512");
    assert.deepEqual(report.events, { done: 2, skipped: 0, total: 2 });
    assert.match(first.stderr, /backfill events: 2\/2 re-embedded/);
    const second = JSON.parse(run().stdout);
    assert.equal(second.events.total, 0);
  });
});

/**
 * Chinese-CLIP end to end on the tiny models (tests/fixtures/make-tiny-clip.ts): vectors are
 * worked out here from the fixture's weight formulas and hand-known token ids, not by the code
 * under test; JPEG, PNG and WebP files go through decoding, preprocessing and the image model.
 */
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { copyFileSync, existsSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { cosine, createClipEmbedder, readClipFolder, type ClipEmbedder } from "../../src/embed/index.ts";
import { jpegFile, pngFile, webpFile } from "./images.ts";
import { expectedImage, expectedText, tinyClipCopy } from "./tiny-clip.ts";

const close = (got: Float32Array, want: number[], tolerance: number) => got.length === want.length && got.every((v, i) => Math.abs(v - want[i]!) < tolerance);

for (const precision of ["fp32", "fp16"] as const) {
  // Awaited set-up at the top level, not in an async describe: Deno's node:test does not wait
  // for an async describe body, so the tests it registers after an await would never run.
  const embedder: ClipEmbedder = await createClipEmbedder(readClipFolder(tinyClipCopy(precision)));
  describe(`Chinese-CLIP ${precision}`, () => {
    // fp32: the pooled mean of 12544 float32 pixels drifts ~1e-5; fp16 keeps ~3 decimal digits.
    const tolerance = precision === "fp32" ? 5e-5 : 2e-3;

    test("text: [CLS] 我 爱 北 京 [SEP] through the text encoder, L2-normalised", async () => {
      const [v] = await embedder.embedTexts(["我爱北京"]);
      assert.ok(close(v!, expectedText([101, 104, 105, 106, 107, 102]), tolerance));
      const [mixed] = await embedder.embedTexts(["Hello, 世界!"]);
      assert.ok(close(mixed!, expectedText([101, 121, 131, 100, 100, 133, 102]), tolerance));
    });

    test("image: a PNG half red, half blue is cropped to its centre and laid out as NCHW", async () => {
      const png = pngFile(448, 224, (x) => (x < 224 ? [255, 0, 0] : [0, 0, 255]));
      const [v] = await embedder.embedImages!([png]);
      const red: [number, number, number] = [255, 0, 0];
      const blue: [number, number, number] = [0, 0, 255];
      assert.ok(close(v!, expectedImage([red, blue, red, blue]), tolerance));
    });

    test("image: a real JPEG and a WebP of one colour match the colour's vector", async () => {
      const colour: [number, number, number] = [200, 60, 30];
      const want = expectedImage([colour, colour, colour, colour]);
      const [fromJpeg] = await embedder.embedImages!([jpegFile(64, 48, () => colour)]);
      assert.ok(cosine(fromJpeg!, Float32Array.from(want)) > 0.999);
      const [fromWebp] = await embedder.embedImages!([await webpFile(30, 50, () => colour)]);
      assert.ok(close(fromWebp!, want, tolerance));
    });

    test("a broken image is refused with the decoder's reason", async () => {
      await assert.rejects(embedder.embedImages!([new Uint8Array([1, 2, 3, 4])]), /Cannot decode image: not JPEG, PNG or WebP/);
    });

    test("says what it loaded", () => {
      assert.equal(embedder.modelId, "chinese-clip-vit-b16@512");
      assert.match(embedder.description, new RegExp(`text ${precision}, image ${precision}; recorded \\d files in homed-manifest.json`));
    });
  });
}

describe("model folder", () => {
  test("a folder with just the export works as it is; the manifest records sizes and sha256", async () => {
    const dir = tinyClipCopy("fp16");
    const first = await createClipEmbedder(readClipFolder(dir));
    await first.close();
    const manifest = JSON.parse(readFileSync(join(dir, "homed-manifest.json"), "utf8"));
    const extra = manifest.files["vit-b-16.txt.fp16.onnx.extra_file"];
    assert.equal(extra.size, readFileSync(join(dir, "vit-b-16.txt.fp16.onnx.extra_file")).byteLength);
    assert.match(extra.sha256, /^[0-9a-f]{64}$/);
    const again = await createClipEmbedder(readClipFolder(dir));
    assert.match(again.description, /verified 5 files against homed-manifest.json/);
    await again.close();
  });

  test("a flipped byte (same size) is detected by its hash", async () => {
    const dir = tinyClipCopy("fp16");
    await (await createClipEmbedder(readClipFolder(dir))).close();
    const file = join(dir, "vit-b-16.txt.fp16.onnx.extra_file");
    const bytes = readFileSync(file);
    bytes[100]! ^= 0x40;
    writeFileSync(file, bytes);
    assert.throws(() => readClipFolder(dir), /vit-b-16\.txt\.fp16\.onnx\.extra_file changed since first load \(sha256 [0-9a-f]{12}…, expected [0-9a-f]{12}…\)/);
  });

  test("a truncated file and a swapped-in file are named", async () => {
    const dir = tinyClipCopy("fp32");
    await (await createClipEmbedder(readClipFolder(dir))).close();
    const vocab = join(dir, "vocab.txt");
    writeFileSync(vocab, readFileSync(vocab).subarray(0, 500));
    assert.throws(() => readClipFolder(dir), /vocab\.txt is 500 bytes, the manifest says \d+ \(truncated or swapped\)/);

    const fp16 = tinyClipCopy("fp16");
    await (await createClipEmbedder(readClipFolder(fp16))).close();
    copyFileSync(join(dir, "vit-b-16.img.fp32.onnx"), join(fp16, "vit-b-16.img.fp32.onnx"));
    assert.throws(() => readClipFolder(fp16), /vit-b-16\.img\.fp32\.onnx was not there when the folder was first loaded/);
  });

  test("a model that fails to load is not recorded in a manifest", async () => {
    const dir = tinyClipCopy("fp32");
    writeFileSync(join(dir, "vit-b-16.txt.fp32.onnx"), "not a model");
    await assert.rejects(createClipEmbedder(readClipFolder(dir)));
    assert.equal(existsSync(join(dir, "homed-manifest.json")), false);
  });

  test("an ONNX file with other input names is refused by name", async () => {
    const dir = tinyClipCopy("fp32");
    copyFileSync(new URL("../../src/embed/tiny-linear.onnx", import.meta.url), join(dir, "vit-b-16.txt.fp32.onnx"));
    await assert.rejects(createClipEmbedder(readClipFolder(dir)), /not a Chinese-CLIP export, no input 'text' \(has x\) and no output 'unnorm_text_features' \(has y\)/);
  });

  test("missing pieces are named: vocab, text encoder, fp16 external data", () => {
    const noVocab = tinyClipCopy("fp32");
    rmSync(join(noVocab, "vocab.txt"));
    assert.throws(() => readClipFolder(noVocab), /Cannot load Chinese-CLIP from .*: vocab\.txt is missing/);
    const noText = tinyClipCopy("fp32");
    rmSync(join(noText, "vit-b-16.txt.fp32.onnx"));
    assert.throws(() => readClipFolder(noText), /no text encoder/);
    const noExtra = tinyClipCopy("fp16");
    rmSync(join(noExtra, "vit-b-16.txt.fp16.onnx.extra_file"));
    assert.throws(() => readClipFolder(noExtra), /vit-b-16\.txt\.fp16\.onnx needs vit-b-16\.txt\.fp16\.onnx\.extra_file beside it/);
  });

  test("without an image encoder there is no embedImages, and it says so", async () => {
    const dir = tinyClipCopy("fp32");
    rmSync(join(dir, "vit-b-16.img.fp32.onnx"));
    const embedder = await createClipEmbedder(readClipFolder(dir));
    assert.equal(embedder.embedImages, undefined);
    assert.match(embedder.description, /no image encoder/);
    await embedder.close();
  });
});

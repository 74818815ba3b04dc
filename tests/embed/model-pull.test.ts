/**
 * `homed model pull|list` (issue 16.3) against a local HTTP server serving a tiny sentence
 * encoder: resume after a connection dropped mid-file (HTTP Range) and after an interrupted
 * run, sha256 verification (a corrupted byte deletes the file and says so), trust-on-first-use
 * for catalog files without a published checksum, and the installed model becoming the one in use.
 */
import { after, describe, test } from "node:test";
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { existsSync, readFileSync, writeFileSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import { parseArgs, resolveSettings } from "../../src/config/index.ts";
import { COMMANDS } from "../../src/cli/commands/index.ts";
import { allFlags } from "../../src/cli/help.ts";
import { openEmbedder } from "../../src/embed/index.ts";
import { runModelCommand } from "../../src/embed/model-command.ts";
import { tinyVocab } from "../fixtures/make-tiny-clip.ts";
import { tinySentenceModel } from "../fixtures/make-tiny-sentence.ts";
import { tempDir, type TempDir } from "../support/temp-dir.ts";
import { startModelMirror } from "./model-mirror.ts";

const MODEL = tinySentenceModel();
const TOKENIZER = new TextEncoder().encode(JSON.stringify({ model: { type: "WordPiece", vocab: Object.fromEntries(tinyVocab().map((t, i) => [t, i])) } }));
const sha = (bytes: Uint8Array) => createHash("sha256").update(bytes).digest("hex");
const corrupted = Uint8Array.from(MODEL, (b, i) => (i === 100 ? b ^ 0xff : b));

const mirror = await startModelMirror();
const { files, dropOnce, requests, base } = mirror;
after(() => mirror.close());

const made: TempDir[] = [];
after(() => {
  for (const d of made) d.remove();
});

async function homedModel(data: string, argv: string[]) {
  const args = parseArgs(["model", ...argv, "-data", data], allFlags(COMMANDS));
  const out = { stdout: "", stderr: "" };
  const code = await runModelCommand(args.positionals.slice(1), args, resolveSettings(args, {}), {
    stdout: (t) => (out.stdout += t),
    stderr: (t) => (out.stderr += t),
    isTty: false,
  });
  return { code, ...out };
}

/** Publishes a model folder at /NAME with homed-model.json, serving `model` as its model.onnx. */
function publish(name: string, model: Uint8Array) {
  files.set(`/${name}/onnx/model.onnx`, model);
  files.set(`/${name}/tokenizer.json`, TOKENIZER);
  const entry = {
    name,
    files: [
      { path: "onnx/model.onnx", save: "model.onnx", sha256: sha(MODEL) },
      { path: "tokenizer.json", save: "tokenizer.json", sha256: sha(TOKENIZER) },
    ],
    config: { pooling: "mean", normalize: true },
  };
  files.set(`/${name}/homed-model.json`, new TextEncoder().encode(JSON.stringify(entry)));
}

describe("homed model pull", () => {
  test("from a URL: a dropped connection is resumed with Range, both files verified, the model is in use", async () => {
    const data = made[made.push(tempDir("homed-pull-")) - 1]!.path;
    publish("tiny-a", MODEL);
    dropOnce.add("/tiny-a/onnx/model.onnx");
    const out = await homedModel(data, ["pull", `${base}/tiny-a`]);
    assert.equal(out.code, 0, out.stderr);
    const gets = requests.filter((r) => r.path === "/tiny-a/onnx/model.onnx");
    assert.deepEqual(
      gets.map((r) => r.range),
      [undefined, `bytes=${MODEL.byteLength >> 1}-`],
    );
    assert.equal(sha(readFileSync(join(data, "models", "tiny-a", "model.onnx"))), sha(MODEL));
    assert.match(out.stderr, new RegExp(`model\\.onnx: sha256 ${sha(MODEL)} verified`));
    const active = await openEmbedder(resolveSettings(parseArgs(["-data", data]), {}).embed);
    assert.equal(active.kind, "sentence");
    assert.equal(active.embedder.modelId, "tiny-a@8");
    await active.embedder.close?.();
    const listed = await homedModel(data, ["list"]);
    assert.match(listed.stdout, /^\*\s+tiny-a\s/m);
    assert.match(listed.stdout, /^\s+bge-small-zh-v1\.5\s+512\s+~95 MB\s+MIT\s/m);
    // Pulled again: nothing is fetched, the files on disk match.
    const again = await homedModel(data, ["pull", `${base}/tiny-a`]);
    assert.match(again.stderr, /model\.onnx: already here, sha256 matches/);
    // A byte changed on disk after the pull: the model is refused at load, by name (doctor fails).
    const onDisk = join(data, "models", "tiny-a", "model.onnx");
    writeFileSync(onDisk, corrupted);
    const broken = await openEmbedder(resolveSettings(parseArgs(["-data", data]), {}).embed);
    assert.deepEqual([broken.kind, broken.degraded], ["fallback", true]);
    assert.match(broken.reason, /model\.onnx changed since it was pulled \(sha256 [0-9a-f]{12}…, expected [0-9a-f]{12}…\); pull the model again/);
  });

  test("an interrupted run's .part is resumed by the next pull", async () => {
    const data = made[made.push(tempDir("homed-pull-")) - 1]!.path;
    publish("tiny-b", MODEL);
    mkdirSync(join(data, "models", "tiny-b"), { recursive: true });
    writeFileSync(join(data, "models", "tiny-b", "model.onnx.part"), MODEL.subarray(0, 1000));
    const out = await homedModel(data, ["pull", `${base}/tiny-b`]);
    assert.equal(out.code, 0, out.stderr);
    assert.equal(requests.filter((r) => r.path === "/tiny-b/onnx/model.onnx")[0]!.range, "bytes=1000-");
    assert.equal(sha(new Uint8Array(readFileSync(join(data, "models", "tiny-b", "model.onnx")))), sha(MODEL));
  });

  test("a corrupted byte: the checksum fails, the file is deleted and the error says so", async () => {
    const data = made[made.push(tempDir("homed-pull-")) - 1]!.path;
    publish("tiny-c", corrupted);
    const out = await homedModel(data, ["pull", `${base}/tiny-c`]);
    assert.equal(out.code, 1);
    assert.match(out.stderr, new RegExp(`model\\.onnx is corrupt: sha256 ${sha(corrupted)}, expected ${sha(MODEL)}; the file was deleted`));
    assert.equal(existsSync(join(data, "models", "tiny-c", "model.onnx")), false);
    assert.equal(existsSync(join(data, "models", "tiny-c", "model.onnx.part")), false);
  });

  test("a catalog model from a mirror: no published checksum, so the first is trusted, printed and held to", async () => {
    const data = made[made.push(tempDir("homed-pull-")) - 1]!.path;
    files.set("/mirror/onnx/model.onnx", MODEL);
    files.set("/mirror/tokenizer.json", TOKENIZER);
    const first = await homedModel(data, ["pull", "all-MiniLM-L6-v2", "--url", `${base}/mirror`]);
    assert.equal(first.code, 0, first.stderr);
    assert.match(first.stderr, new RegExp(`model\\.onnx: trusted sha256 ${sha(MODEL)} on first download`));
    const config = JSON.parse(readFileSync(join(data, "models", "all-MiniLM-L6-v2", "homed-embed.json"), "utf8"));
    assert.deepEqual([config.name, config.pooling], ["all-MiniLM-L6-v2", "mean"]);
    // The mirror now serves other bytes: the recorded checksum refuses them.
    files.set("/mirror/onnx/model.onnx", corrupted);
    writeFileSync(join(data, "models", "all-MiniLM-L6-v2", "model.onnx"), "stale");
    const second = await homedModel(data, ["pull", "all-MiniLM-L6-v2", "--url", `${base}/mirror`]);
    assert.equal(second.code, 1);
    assert.match(second.stderr, /is corrupt: sha256 .*, expected .*; the file was deleted/);
  });

  test("an unknown name or a malformed description is a clear error", async () => {
    const data = made[made.push(tempDir("homed-pull-")) - 1]!.path;
    await assert.rejects(homedModel(data, ["pull", "no-such-model"]), /no model no-such-model in the catalog \(chinese-clip-vit-b16, bge-small-zh-v1\.5, /);
    files.set("/broken/homed-model.json", new TextEncoder().encode(JSON.stringify({ name: "x", files: [] })));
    const out = await homedModel(data, ["pull", `${base}/broken`]);
    assert.equal(out.code, 1);
    assert.match(out.stderr, /homed-model\.json is not a model description: files: /);
  });
});

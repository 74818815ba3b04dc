/** `homed doctor`'s embedder line: which embedder is active and why, failing on a broken model. */
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { formatResult, runDoctor, type CheckResult } from "../../src/doctor/index.ts";
import type { EmbedSettings } from "../../src/embed/index.ts";
import { tinyClipCopy } from "./tiny-clip.ts";
import { testDir } from "../support/temp-dir.ts";

async function embedderLine(embed: EmbedSettings): Promise<CheckResult> {
  const dataDir = testDir("homed-doctor-");
  const results: CheckResult[] = [];
  await runDoctor({ dataDir, dbUrl: `file:${join(dataDir, "homed.db")}`, embed }, (r) => results.push(r));
  const line = results.find((r) => r.name === "embedder");
  assert.ok(line, "doctor printed no embedder line");
  return line;
}

describe("doctor: embedder", () => {
  test("Chinese-CLIP present: ok, naming the model and what was loaded", async () => {
    const line = await embedderLine({ modelsDir: tinyClipCopy("fp32"), threads: 1 });
    assert.equal(line.ok, true);
    assert.match(line.detail, /^chinese-clip-vit-b16@512: Chinese-CLIP ViT-B\/16 from .*text fp32, image fp32/);
  });

  test("no model: a warning (not ok, not a failure): the fallback, where the model would go, how to install one", async () => {
    const line = await embedderLine({ modelsDir: testDir("homed-m-"), threads: 1 });
    assert.equal(line.ok, true);
    assert.equal(line.warn, true);
    assert.match(line.detail, /^fallback-hash-v1@512: no Chinese-CLIP model in .* install a model: homed model pull bge-small-zh-v1\.5/);
    assert.match(formatResult(line), /^WARN embedder /);
  });

  test("a corrupt model: FAIL, naming the file", async () => {
    const dir = tinyClipCopy("fp32");
    await embedderLine({ modelsDir: dir, threads: 1 });
    const vocab = join(dir, "vocab.txt");
    writeFileSync(vocab, `${readFileSync(vocab, "utf8")}extra\n`);
    const line = await embedderLine({ modelsDir: dir, threads: 1 });
    assert.equal(line.ok, false);
    assert.match(line.detail, /vocab\.txt is \d+ bytes, the manifest says \d+/);
  });
});

/** `homed embed` argument handling and output, called in process with captured streams. */
import { after, describe, test } from "node:test";
import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { parseArgs, resolveSettings, UsageError } from "../../src/config/index.ts";
import { COMMANDS } from "../../src/cli/commands/index.ts";
import { allFlags } from "../../src/cli/help.ts";
import { hashEmbed, runEmbedCommand } from "../../src/embed/index.ts";
import { pngFile } from "./images.ts";
import { tinyClipCopy } from "./tiny-clip.ts";
import { tempDir, type TempDir } from "../support/temp-dir.ts";

async function embed(argv: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const args = parseArgs(["embed", ...argv], allFlags(COMMANDS));
  const out = { stdout: "", stderr: "" };
  const code = await runEmbedCommand(args.positionals.slice(1), args, resolveSettings(args, {}), {
    stdout: (t) => (out.stdout += t),
    stderr: (t) => (out.stderr += t),
  });
  return { code, ...out };
}

const made: TempDir[] = [];
after(() => {
  for (const d of made) d.remove();
});
const data = () => made[made.push(tempDir("homed-embed-cmd-")) - 1]!.path;

describe("homed embed", () => {
  test("TEXT with --json: {model, dim, vector} of the active embedder (the fallback here)", async () => {
    const out = await embed(["-data", data(), "--json", "我爱", "北京"]);
    assert.equal(out.code, 0);
    const json = JSON.parse(out.stdout);
    assert.equal(json.model, "fallback-hash-v1@512");
    assert.equal(json.dim, 512);
    assert.deepEqual(json.vector, Array.from(hashEmbed("我爱 北京")));
  });

  test("text output names the embedder, the reason and the input", async () => {
    const models = dirname(tinyClipCopy("fp32"));
    const out = await embed(["-data", data(), "-models", models, "猫"]);
    assert.equal(out.code, 0);
    assert.match(out.stdout, /^embedder: chinese-clip \(chinese-clip-vit-b16@512\)\nwhy: +Chinese-CLIP ViT-B\/16 from .*\ninput: +"猫"\ndim: +512\nvector: +\[-?\d\.\d{6}, /);
  });

  test("--image embeds the file with the image encoder", async () => {
    const image = join(data(), "x.png");
    writeFileSync(
      image,
      pngFile(20, 20, () => [10, 20, 30]),
    );
    const out = await embed(["-data", data(), "-models", dirname(tinyClipCopy("fp16")), "--json", "--image", image]);
    assert.equal(out.code, 0, out.stderr);
    assert.equal(JSON.parse(out.stdout).vector.length, 512);
  });

  test("usage mistakes are usage errors: nothing to embed, both text and image, an unreadable file", async () => {
    await assert.rejects(embed(["-data", data()]), (e: Error) => e instanceof UsageError && /needs TEXT or --image FILE/.test(e.message));
    await assert.rejects(embed(["-data", data(), "--image", "/x.png", "text"]), /TEXT or --image FILE, not both/);
    await assert.rejects(embed(["-data", data(), "--image", "/nonexistent.png"]), /Cannot read image \/nonexistent\.png: ENOENT/);
    await assert.rejects(embed(["-data", data(), "--backfill", "text"]), /--backfill takes no TEXT or --image/);
  });
});

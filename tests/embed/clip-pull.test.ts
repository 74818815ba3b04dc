/**
 * `homed model pull chinese-clip-vit-b16` (issue 30) against a mirror on loopback that serves a
 * tiny Chinese-CLIP in the real export's layout — the catalog's repositories, pinned revisions,
 * file names and tensor names — under the Hub's own paths, as hf-mirror.com does: the mirror
 * setting is honoured, a cut connection is resumed, the catalog's pinned sha256 refuses other
 * bytes, a missing file and a full disk stop with a sentence; then a daemon started on the
 * pulled folder gives a photo posted through /v1 a CLIP vector and recalls it by a word.
 */
import { after, describe, test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, mkdirSync, readFileSync, readdirSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import OpenAI from "openai";
import { parseArgs, resolveSettings, type Environment } from "../../src/config/index.ts";
import { COMMANDS } from "../../src/cli/commands/index.ts";
import { allFlags } from "../../src/cli/help.ts";
import { openEmbedder } from "../../src/embed/index.ts";
import { runModelCommand } from "../../src/embed/model-command.ts";
import { startApiDaemon } from "../support/api-daemon.ts";
import { run, SOURCE_HOMED } from "../support/process.ts";
import { startScriptedProvider } from "../support/scripted-provider.ts";
import { testDir } from "../support/temp-dir.ts";
import { pngFile } from "./images.ts";
import { HUB_PATHS, LICENCE_PATH, LICENCE_TEXT, sha, TINY, tinyCatalog, tinyClipMirror } from "./tiny-clip-mirror.ts";

const mirror = await tinyClipMirror();
after(() => mirror.close());

async function homedModel(data: string, argv: string[], env: Environment = {}) {
  const args = parseArgs(["model", ...argv, "-data", data], allFlags(COMMANDS));
  const out = { stdout: "", stderr: "" };
  const code = await runModelCommand(args.positionals.slice(1), args, resolveSettings(args, env), {
    stdout: (t) => (out.stdout += t),
    stderr: (t) => (out.stderr += t),
    isTty: false,
  });
  return { code, ...out };
}

const clipFolder = (data: string) => join(data, "models", "chinese-clip-vit-b16-onnx");
const requestsSince = (n: number) => mirror.requests.slice(n);

describe("homed model pull chinese-clip-vit-b16", () => {
  const pulled = testDir("homed-clip-pull-");

  test("from a mirror of the Hub's paths (HOMED_MODELS_MIRROR): every file of the real layout, a cut connection resumed, the vocabulary trusted on first use", async () => {
    tinyCatalog(pulled, mirror.base);
    mirror.dropOnce.add(HUB_PATHS["vit-b-16.txt.fp16.onnx.extra_file"]!);
    const before = mirror.requests.length;
    const out = await homedModel(pulled, ["pull", "chinese-clip-vit-b16"], { HOMED_MODELS_MIRROR: `${mirror.base}/` });
    assert.equal(out.code, 0, out.stderr);
    assert.match(out.stderr, new RegExp(`^pulling chinese-clip-vit-b16 \\(~382 MB\\) from ${mirror.base} \\(HOMED_MODELS_MIRROR / HF_ENDPOINT\\)`));
    const extra = TINY["vit-b-16.txt.fp16.onnx.extra_file"]!;
    assert.deepEqual(
      requestsSince(before).map((r) => [r.path, r.range]),
      [
        [HUB_PATHS["vit-b-16.txt.fp16.onnx"], undefined],
        [HUB_PATHS["vit-b-16.txt.fp16.onnx.extra_file"], undefined],
        [HUB_PATHS["vit-b-16.txt.fp16.onnx.extra_file"], `bytes=${extra.byteLength >> 1}-`],
        [HUB_PATHS["vit-b-16.img.fp16.onnx"], undefined],
        [HUB_PATHS["vit-b-16.img.fp16.onnx.extra_file"], undefined],
        [HUB_PATHS["vocab.txt"], undefined],
        [LICENCE_PATH, undefined],
      ],
    );
    for (const [name, bytes] of Object.entries(TINY)) assert.equal(sha(readFileSync(join(clipFolder(pulled), name))), sha(bytes), name);
    assert.match(out.stderr, new RegExp(`vit-b-16\\.txt\\.fp16\\.onnx: sha256 ${sha(TINY["vit-b-16.txt.fp16.onnx"]!)} verified`));
    assert.match(out.stderr, new RegExp(`vocab\\.txt: trusted sha256 ${sha(TINY["vocab.txt"]!)} on first download`));
    // Off a terminal, progress is plain lines, one per tenth of a file.
    assert.match(out.stderr, /^vit-b-16\.txt\.fp16\.onnx\.extra_file: 100% \(0\.1 MB of 0\.1 MB\)$/m);
    assert.doesNotMatch(out.stderr, /\r/);
    assert.match(
      out.stdout,
      /installed chinese-clip-vit-b16 in .*chinese-clip-vit-b16-onnx; homed finds it there: photos get Chinese-CLIP vectors, and text too while no sentence encoder is installed; restart the daemon/,
    );
    const note = readFileSync(join(clipFolder(pulled), "LICENCE.txt"), "utf8");
    assert.match(note, /^Licence: MIT$/m);
    assert.match(note, /eisneim\/cn-clip_vit-b-16, .*\) are tagged Apache-2\.0/);
    assert.ok(note.includes(`${mirror.base}${HUB_PATHS["vocab.txt"]}`));
    // The licence's own text is fetched and carried in the note (what a package of the folder ships).
    assert.ok(note.endsWith(LICENCE_TEXT), note);
    assert.equal(JSON.parse(readFileSync(join(clipFolder(pulled), "homed-pull.json"), "utf8")).name, "chinese-clip-vit-b16");

    // Picked up with no setting: the embedder opened from the data folder is Chinese-CLIP, images included.
    const active = await openEmbedder(resolveSettings(parseArgs(["-data", pulled]), {}).embed);
    assert.deepEqual([active.kind, active.embedder.modelId, typeof active.embedder.embedImages], ["chinese-clip", "chinese-clip-vit-b16@512", "function"]);
    await active.embedder.close?.();
    const listed = await homedModel(pulled, ["list"]);
    assert.match(listed.stdout, /^\+\s+chinese-clip-vit-b16\s+512\s+~382 MB\s+MIT\s+zh,en\s+Chinese-CLIP ViT-B\/16/m);
    assert.match(listed.stdout, /^\s+bge-small-zh-v1\.5\s+512\s+~95 MB\s+MIT\s+zh,en\s/m);
  });

  test("models.mirror in homed.json is honoured when no flag or variable names one; a licence text out of reach is said, not fatal", async () => {
    const data = testDir("homed-clip-pull-");
    tinyCatalog(data, `${mirror.base}/elsewhere`, { mirror: mirror.base });
    const before = mirror.requests.length;
    const out = await homedModel(data, ["pull", "chinese-clip-vit-b16"]);
    assert.equal(out.code, 0, out.stderr);
    assert.match(out.stderr, /\(models\.mirror in homed\.json\)/);
    assert.deepEqual(
      requestsSince(before).map((r) => r.path),
      [...Object.values(HUB_PATHS), `/elsewhere${LICENCE_PATH}`],
    );
    assert.match(out.stderr, /MIT-LICENSE\.txt: the licence text was not fetched \(Cannot download .*: not found \(HTTP 404\).*\); LICENCE\.txt says where it is/);
    assert.match(
      readFileSync(join(clipFolder(data), "LICENCE.txt"), "utf8"),
      /^Licence text: https:\/\/github\.com\/OFA-Sys\/Chinese-CLIP\/blob\/86888d8f894d13d9fcc9c32e5f53ec31ee8dbc74\/MIT-LICENSE\.txt$/m,
    );
  });

  test("the built-in entry's pinned sha256 refuses other bytes: the file is deleted and the error says so", async () => {
    const data = testDir("homed-clip-pull-");
    const out = await homedModel(data, ["pull", "chinese-clip-vit-b16", "--mirror", mirror.base]);
    assert.equal(out.code, 1);
    const tiny = sha(TINY["vit-b-16.txt.fp16.onnx"]!);
    assert.match(out.stderr, new RegExp(`vit-b-16\\.txt\\.fp16\\.onnx is corrupt: sha256 ${tiny}, expected 31cde86ac026826e46b65a2cac931ccc9d387f53a881c776b3bb15e5b2460cd5; the file was deleted`));
    assert.deepEqual(readdirSync(clipFolder(data)), []);
  });

  test("a file the mirror lacks: one request, no retries, 'not found' named", async () => {
    const data = testDir("homed-clip-pull-");
    tinyCatalog(data, mirror.base);
    mirror.files.delete(HUB_PATHS["vocab.txt"]!);
    try {
      const before = mirror.requests.length;
      const out = await homedModel(data, ["pull", "chinese-clip-vit-b16"], { HF_ENDPOINT: mirror.base });
      assert.equal(out.code, 1);
      assert.match(out.stderr, new RegExp(`homed: Cannot download ${mirror.base}${HUB_PATHS["vocab.txt"]}: not found \\(HTTP 404\\): the mirror does not hold this file`));
      assert.equal(requestsSince(before).filter((r) => r.path === HUB_PATHS["vocab.txt"]).length, 1);
    } finally {
      mirror.files.set(HUB_PATHS["vocab.txt"]!, TINY["vocab.txt"]!);
    }
  });

  test("a full disk stops the pull at once with a sentence saying what to do", async () => {
    const data = testDir("homed-clip-pull-");
    tinyCatalog(data, mirror.base);
    mkdirSync(clipFolder(data), { recursive: true });
    // Writes to /dev/full fail with ENOSPC, as on a full disk.
    symlinkSync("/dev/full", join(clipFolder(data), "vit-b-16.txt.fp16.onnx.part"));
    const before = mirror.requests.length;
    const out = await homedModel(data, ["pull", "chinese-clip-vit-b16", "--mirror", mirror.base]);
    assert.equal(out.code, 1);
    assert.match(out.stderr, /homed: The disk is full \(ENOSPC\) writing .*vit-b-16\.txt\.fp16\.onnx\.part after 0\.0 MB; free some space and run the pull again/);
    assert.equal(requestsSince(before).length, 1);
    assert.equal(existsSync(join(clipFolder(data), "vit-b-16.txt.fp16.onnx")), false);
  });

  test("through an HTTP proxy named by HTTP_PROXY (the runtime's fetch honours it): the proxy is asked for every file by its absolute URL", async () => {
    const data = testDir("homed-clip-pull-");
    tinyCatalog(data, "http://licence.invalid");
    const before = mirror.requests.length;
    // The mirror plays the proxy: hub.invalid resolves nowhere, so only the proxy can answer.
    const env = { ...process.env, HTTP_PROXY: mirror.base, http_proxy: mirror.base, NO_PROXY: "", no_proxy: "", HOMED_MODELS_MIRROR: "" };
    const out = await run([...SOURCE_HOMED, "model", "pull", "chinese-clip-vit-b16", "-data", data, "--mirror", "http://hub.invalid"], { env });
    assert.equal(out.code, 0, out.stderr);
    const asked = requestsSince(before);
    assert.deepEqual(
      asked.map((r) => [r.path, r.absolute]),
      [...Object.values(HUB_PATHS), LICENCE_PATH].map((path) => [path, true]),
    );
    assert.ok(readFileSync(join(clipFolder(data), "vocab.txt")).equals(TINY["vocab.txt"]!));
  });

  test("a daemon on the pulled folder: a photo posted through /v1 gets a CLIP vector and is recalled by a word it never carried", async () => {
    const provider = await startScriptedProvider(() => ({ content: "noted" }));
    const daemon = await startApiDaemon(pulled, provider.url);
    try {
      const client = new OpenAI({ baseURL: `${daemon.url}/v1`, apiKey: daemon.headers.authorization!.slice("Bearer ".length), maxRetries: 0 });
      const photo = (red: number) => `data:image/png;base64,${Buffer.from(pngFile(32, 32, () => [red, 120, 100])).toString("base64")}`;
      for (const [words, red] of [
        ["看这张", 250],
        ["还有这张", 10],
      ] as const) {
        const answer = await client.chat.completions.create({
          model: "homed",
          user: "photos",
          messages: [
            {
              role: "user",
              content: [
                { type: "text", text: words },
                { type: "image_url", image_url: { url: photo(red) } },
              ],
            },
          ],
        });
        assert.equal(answer.choices[0]!.message.content, "noted");
      }
      const { embedder } = (await (await fetch(`${daemon.url}/api/memory/stats`, { headers: daemon.headers })).json()) as { embedder: { modelId: string; vectors: boolean } };
      assert.deepEqual([embedder.modelId, embedder.vectors], ["chinese-clip-vit-b16@512", true]);
      // The conversation deleted: its turns sink to cold memory, where recall searches.
      const { sessions } = (await (await fetch(`${daemon.url}/api/sessions`, { headers: daemon.headers })).json()) as { sessions: { id: string; partner: string }[] };
      const session = sessions.find((s) => s.partner === "photos")!;
      assert.equal((await fetch(`${daemon.url}/api/sessions/${session.id}`, { method: "DELETE", headers: daemon.headers })).status, 200);
      const recalled = (await (
        await fetch(`${daemon.url}/api/memory/tools/memory_recall`, { method: "POST", headers: daemon.headers, body: JSON.stringify({ query: "猫", layers: ["L2"] }) })
      ).json()) as { results: { id: string; text: string }[] };
      // Neither turn says "猫": only CLIP's space joins the word to the red photo; the other photo lies opposite
      // (its turn may still come later, by its text's CLIP vector: CLIP alone embeds text too).
      assert.ok(recalled.results.length > 0, JSON.stringify(recalled));
      assert.match(recalled.results[0]!.text, /看这张/, JSON.stringify(recalled.results));
      assert.doesNotMatch(recalled.results[0]!.text, /还有这张/);
    } finally {
      await daemon.stop();
      await provider.close();
    }
  });
});

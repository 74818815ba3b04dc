/**
 * The memory page's local models (issue 30), in Chromium against a real daemon: the catalog with
 * size, languages, licence and what each is for; Download on Chinese-CLIP pulls it from a mirror
 * on loopback (models.mirror in homed.json) serving the tiny model under the Hub's paths, with a
 * progress line while a file is slow, then "installed … restart homed", and the model marked
 * installed after a reload. The HTTP side: a second pull while one runs is 409, an unknown name 404.
 */
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { HUB_PATHS, sha, TINY, tinyCatalog, tinyClipMirror } from "../embed/tiny-clip-mirror.ts";
import type { ModelMirror } from "../embed/model-mirror.ts";
import { axeSerious, chromiumMissing, logIn, openConsole, screenshot, type Console } from "./support.ts";

describe("console: local models on the memory page", { skip: chromiumMissing && "no /usr/bin/chromium" }, () => {
  let c: Console;
  let mirror: ModelMirror;
  before(async () => {
    mirror = await tinyClipMirror();
    c = await openConsole(() => ({ content: "ok" }));
    // Read at each request, so written after the start: the tiny files' checksums and the mirror.
    tinyCatalog(c.dataDir, mirror.base, { mirror: mirror.base });
    await logIn(c);
  });
  after(async () => {
    await c?.close();
    await mirror?.close();
  });

  const post = (name: string) =>
    fetch(`${c.daemon.url}/api/models/pull`, { method: "POST", headers: { authorization: `Bearer ${c.token}`, "content-type": "application/json" }, body: JSON.stringify({ name }) });

  test("Download pulls Chinese-CLIP with progress, says to restart, and the model shows installed", async () => {
    const { page } = c;
    await page.goto(`${c.daemon.url}/#/memory`);
    const card = page.locator("section.models");
    await card.getByText(`Downloaded from ${mirror.base} (set by homed.json: models.mirror)`).waitFor();
    const clip = card.locator("li[data-model=chinese-clip-vit-b16]");
    await clip.getByText(/photos and text · ~382 MB/).waitFor();
    await clip.getByText(/Languages: zh, en · Licence: MIT/).waitFor();
    await card
      .locator("li[data-model=bge-small-zh-v1\\.5]")
      .getByText(/text · ~95 MB/)
      .waitFor();
    assert.deepEqual(await axeSerious(page), []);

    mirror.stall.set(HUB_PATHS["vit-b-16.txt.fp16.onnx.extra_file"]!, 2500);
    await clip.getByRole("button", { name: "Download chinese-clip-vit-b16" }).click();
    await card.getByText(/^chinese-clip-vit-b16: file 2 of 6, [\d.]+ (B|KB) of 52\.0 KB$/).waitFor();
    assert.equal(await card.locator("progress[data-pull=chinese-clip-vit-b16]").count(), 1);
    // One pull at a time: the HTTP API refuses a second while it runs.
    const busy = await post("bge-small-zh-v1.5");
    assert.deepEqual([busy.status, ((await busy.json()) as { error: string }).error], [409, "pull_in_progress"]);
    await screenshot(page, "memory-models-pulling");
    await card.getByText(/^chinese-clip-vit-b16 is installed in .*chinese-clip-vit-b16-onnx\. Restart homed to use it\.$/).waitFor({ timeout: 30_000 });
    const folder = join(c.dataDir, "models", "chinese-clip-vit-b16-onnx");
    for (const [name, bytes] of Object.entries(TINY)) assert.equal(sha(readFileSync(join(folder, name))), sha(bytes), name);
    await page.reload();
    await page.locator("section.models li[data-model=chinese-clip-vit-b16]").getByText("Installed", { exact: true }).waitFor();
  });

  test("an unknown model is 404, a malformed body 400", async () => {
    const unknown = await post("no-such-model");
    assert.deepEqual([unknown.status, ((await unknown.json()) as { error: string }).error], [404, "not_found"]);
    const malformed = await fetch(`${c.daemon.url}/api/models/pull`, { method: "POST", headers: { authorization: `Bearer ${c.token}`, "content-type": "application/json" }, body: "{}" });
    assert.equal(malformed.status, 400);
  });
});

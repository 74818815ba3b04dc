/** `homed doctor`'s lines for the optional plugins' machine dependencies: run when present, absent is said, not failed. */
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { chmodSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { bwrapCheck, chromiumCheck, mpvCheck } from "../../src/doctor/plugin-deps.ts";
import { usableBwrap } from "../../plugins/code/sandbox.ts";
import { findChromium } from "../../plugins/browser/chromium.ts";
import { testDir } from "../support/temp-dir.ts";

describe("doctor: plugin dependencies", () => {
  test("chromium present: its own --version answer and path", { skip: findChromium() ? false : "no Chromium here" }, async () => {
    assert.match(await chromiumCheck().run(), /^Chromium \d+\.[\d.]+ .* at \/\S+$/);
  });

  test("chromium absent: ok, saying what the tools answer and what to install", async () => {
    assert.match(await chromiumCheck(["/nonexistent/chromium"]).run(), /^absent: browser tools answer no_browser; to use them, install the system package \(Debian\/Ubuntu: apt install chromium/);
  });

  test("a chromium that does not run fails the line", async () => {
    const fake = join(testDir("homed-fake-chromium-"), "chromium");
    writeFileSync(fake, "#!/bin/sh\nexit 3\n");
    chmodSync(fake, 0o755);
    await assert.rejects(chromiumCheck([fake]).run(), /Command failed/);
  });

  test("bubblewrap present and working: its version and what it gives", { skip: usableBwrap() ? false : "no usable bubblewrap here" }, async () => {
    assert.match(await bwrapCheck().run(), /^bubblewrap [\d.]+ at \/\S+: snippets run without network/);
  });

  test("bubblewrap absent: ok, saying snippets run unsandboxed and what to install", async () => {
    assert.match(await bwrapCheck(["/nonexistent/bwrap"]).run(), /^absent: code runs snippets without a sandbox, with halved limits; to sandbox them, install bubblewrap/);
  });

  test("a bubblewrap that cannot make its namespaces is said: snippets run unsandboxed", async () => {
    const fake = join(testDir("homed-fake-bwrap-"), "bwrap");
    writeFileSync(fake, "#!/bin/sh\necho 'bwrap: No permissions to creating new namespace' >&2\nexit 1\n");
    chmodSync(fake, 0o755);
    assert.match(await bwrapCheck([fake]).run(), /cannot create its namespaces here \(user namespaces off\?\): code runs snippets without a sandbox/);
  });

  test("mpv present: its own --version line and path; absent: ok, saying what playback does and what to install", async () => {
    const fake = join(testDir("homed-fake-mpv-"), "mpv");
    writeFileSync(fake, "#!/bin/sh\necho 'mpv 0.37.0 Copyright © 2000-2023 mpv/MPlayer/mplayer2 projects'\necho ' built on …'\n");
    chmodSync(fake, 0o755);
    assert.equal(await mpvCheck(fake).run(), `mpv 0.37.0 Copyright © 2000-2023 mpv/MPlayer/mplayer2 projects at ${fake}`);
    assert.match(
      await mpvCheck("/nonexistent/mpv").run(),
      /^absent: music plays through MPD if one runs, else its playback tools answer no_player; to play, install mpv \(Debian\/Ubuntu: apt install mpv/,
    );
  });
});

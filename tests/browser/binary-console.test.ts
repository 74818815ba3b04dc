/**
 * The console served by the compiled binary, alone in an empty folder: every console file is
 * inside it byte for byte, and Chromium logs in and opens every page with no script error and
 * no failed or outside request.
 */
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { ASSET_SOURCES } from "../../src/runtime/asset-files.ts";
import { WEB_ASSETS } from "../../src/runtime/index.ts";
import { BINARY_SKIP, isolatedBinary } from "../binary/build-binary.ts";
import { ROOT, startDaemon } from "../support/process.ts";
import { chromiumMissing, launchChromium, logIn } from "./support.ts";

describe("console from the compiled binary", { skip: BINARY_SKIP ?? (chromiumMissing ? "no /usr/bin/chromium" : false) }, () => {
  test("carries every console file and every page works in Chromium", async () => {
    const { dir, bin } = isolatedBinary();
    const daemon = await startDaemon([bin, "-data", "./data", "-addr", "127.0.0.1:0"], { cwd: dir });
    const browser = await launchChromium();
    try {
      for (const name of WEB_ASSETS) {
        const served = await fetch(`${daemon.url}${name === "index.html" ? "/" : `/assets/${name}`}`);
        assert.equal(served.status, 200, name);
        // Where each served name comes from in the source tree (the bundle: web/dist/console.js).
        const expected = readFileSync(join(ROOT, "src/runtime", ASSET_SOURCES[name]));
        assert.ok(Buffer.from(await served.arrayBuffer()).equals(expected), `${name} differs from the source`);
      }
      const errors: string[] = [];
      browser.page.on("pageerror", (error) => void errors.push(error.message));
      browser.page.on("requestfailed", (request) => void errors.push(`${request.url()}: ${request.failure()?.errorText}`));
      const token = readFileSync(join(dir, "data", "admin.token"), "utf8").trim();
      await logIn({ page: browser.page, token, daemon });
      for (const route of ["chat", "providers", "memory", "context", "scenes", "audit", "plugins", "doctor"]) {
        await browser.page.goto(`${daemon.url}/#/${route}`);
        await browser.page.locator("main h1").first().waitFor();
        await browser.page.waitForLoadState("networkidle");
      }
      assert.deepEqual(errors, []);
      assert.deepEqual(
        browser.requests.filter((u) => !u.startsWith(`${daemon.url}/`)),
        [],
      );
    } finally {
      await browser.close();
      await daemon.stop();
    }
  });
});

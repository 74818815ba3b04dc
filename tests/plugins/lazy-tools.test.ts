/**
 * Every built-in plugin process loads plugins/index.ts; the heavy libraries of the everyday
 * tools (playwright-core, ical.js and its zone data, feedsmith, music-metadata) load only in their own plugin's
 * process. Measured on the compiled binary, `homed plugin run web_fetch`: 0.17–0.32 s and 66 MB
 * before these plugins, 0.71–1.36 s and 114–117 MB with them imported eagerly, 0.30–0.91 s
 * and 81 MB with them loaded lazily (the rest is the larger bundle's parse).
 */
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { join } from "node:path";
import { ROOT, run } from "../support/process.ts";
import { RUNTIME_BINARIES } from "../support/runtimes.ts";

const HEAVY = /node_modules\/(playwright-core|ical\.js|timezones-ical-library|feedsmith|music-metadata)\//;

const loadedBy = async (source: string) => {
  const script = `${source}\nconsole.log(JSON.stringify(Object.keys(require.cache).filter((k) => ${HEAVY}.test(k)).map((k) => k.split("node_modules/")[1].split("/")[0]).filter((v, i, a) => a.indexOf(v) === i).sort()));`;
  // Always Bun: its require.cache lists every loaded module, ES modules too (Deno has no such
  // list). What is checked is how plugins/ imports its libraries, whichever runtime runs it.
  const done = await run([RUNTIME_BINARIES.bun, "-e", script], { cwd: ROOT });
  assert.equal(done.code, 0, done.stderr);
  return JSON.parse(done.stdout.trim().split("\n").at(-1)!) as string[];
};

describe("built-in plugins load their libraries lazily", () => {
  test("importing every built-in's definition loads none of the heavy libraries", async () => {
    assert.deepEqual(await loadedBy(`await import(${JSON.stringify(join(ROOT, "plugins/index.ts"))});`), []);
  });

  test("building a plugin's tools loads its own (the check above can see them)", async () => {
    const source = `const { BUILTIN_PLUGINS } = await import(${JSON.stringify(join(ROOT, "plugins/index.ts"))});
await BUILTIN_PLUGINS.browser.tools({ timeoutMs: 1000, maxBytes: 1000, maxChars: 1000, idleMs: 1000, maxTabs: 1, width: 640, height: 480 }, { onClose() {}, shared: undefined });`;
    assert.deepEqual(await loadedBy(source), ["playwright-core"]);
  });
});

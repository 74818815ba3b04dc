/**
 * The compiled binary, copied alone into an empty folder (no node_modules, another cwd), must
 * carry everything it loads: the libsql N-API addon, jieba's and ONNX Runtime's wasm, the
 * migrations and the console's files. Each step below exercises one of them for real.
 */
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { createClient } from "@libsql/client";
import { MIGRATIONS } from "../../src/store/index.ts";
import { WORKER_FROM } from "../../src/memory/index.ts";
import { builtinSpec } from "../../plugins/index.ts";
import { createPluginHost } from "../../src/plugins/index.ts";
import { run, startDaemon, until } from "../support/process.ts";
import { BINARY_SKIP, isolatedBinary } from "./build-binary.ts";

describe("the compiled binary, alone in an empty folder", { skip: BINARY_SKIP }, () => {
  test("--version, doctor, daemon with /healthz, clean SIGTERM, intact database", async () => {
    const { dir, bin } = isolatedBinary();
    assert.deepEqual(readdirSync(dir), ["homed"]);
    assert.equal(existsSync(join(dir, "node_modules")), false);

    const version = await run([bin, "--version"], { cwd: dir });
    assert.equal(version.code, 0);
    assert.match(version.stdout, /^homed \d+\.\d+\.\d+\n$/);

    const doctor = await run([bin, "doctor", "-data", "./data"], { cwd: dir });
    assert.equal(doctor.code, 0, doctor.stdout + doctor.stderr);
    const lines = doctor.stdout.trim().split("\n");
    for (const name of [
      "data folder writable",
      "database opens",
      "database integrity",
      "migrations current",
      "vector search",
      "full-text search",
      "jieba",
      "onnx runtime",
      "browser: chromium",
      "code: bubblewrap",
      "music: mpv",
    ]) {
      const line = lines.find((l) => l.slice(5).startsWith(name));
      assert.ok(line, `doctor has no "${name}" line:\n${doctor.stdout}`);
      assert.match(line, /^ok {3}/, line);
    }

    // The optional built-ins too: their libraries (playwright-core, ical.js, feedsmith, music-metadata) must be in the binary.
    const plugins = ["files", "notes", "web_fetch", "rss", "calendar", "browser", "code", "music"];
    writeFileSync(join(dir, "data", "homed.json"), JSON.stringify({ plugins: { enabled: plugins } }));
    const daemon = await startDaemon([bin, "-data", "./data", "-addr", "127.0.0.1:0"], { cwd: dir });
    await until(() => /plugins: /.test(daemon.stderr()), "the plugins to start");
    assert.match(daemon.stderr(), new RegExp(`plugins: ${plugins.map((p) => `${p} running`).join(", ")}`));
    const health = await fetch(`${daemon.url}/healthz`);
    assert.deepEqual(await health.json(), { ok: true, version: version.stdout.trim().split(" ")[1] });
    const page = await fetch(`${daemon.url}/`);
    assert.match(await page.text(), /<title>homed<\/title>/);
    const css = await fetch(`${daemon.url}/assets/console.css`);
    assert.equal(css.status, 200);
    const { code, ms } = await daemon.stop("SIGTERM");
    assert.equal(code, 0, daemon.stderr());
    assert.ok(ms < 5000, `exit took ${ms} ms`);

    // JavaScript with no Node: the binary runs the snippet itself, in bubblewrap where usable
    // (its own file bound into the sandbox; it lives under /tmp here, which the sandbox replaces).
    const snippets = createPluginHost([builtinSpec("code", [bin], { dir: join(dir, "code-runs"), javascript: "/nonexistent/node" })], { graceMs: 1000 });
    await snippets.start();
    try {
      const ran = (await snippets.callTool("code", "code_run", { language: "javascript", code: "console.log(typeof Bun, 6 * 7)" })).structuredContent as Record<string, unknown>;
      assert.deepEqual([ran.runtime, ran.exitCode, ran.stdout], ["bun", 0, "object 42\n"], JSON.stringify(ran));
    } finally {
      await snippets.stopAll();
    }

    const client = createClient({ url: `file:${join(dir, "data", "homed.db")}` });
    const integrity = await client.execute("PRAGMA integrity_check");
    assert.equal(integrity.rows[0]?.[0], "ok");
    const applied = await client.execute("SELECT count(*) AS n FROM homed_migrations");
    assert.equal(Number(applied.rows[0]?.n), MIGRATIONS.length);
    client.close();
  });

  test("a large import analyses in its worker thread, bundled into the binary", async () => {
    const { dir, bin } = isolatedBinary();
    const lines = Array.from({ length: WORKER_FROM }, (_, i) =>
      JSON.stringify({ conversation: `c${i % 7}`, session: "s1", time: "2024-05-08T13:56:00Z", speaker: "Ann", role: "user", text: `停车 note ${i}`, id: `m${i}` }),
    );
    writeFileSync(join(dir, "history.jsonl"), `${lines.join("\n")}\n`);
    const imported = await run([bin, "import", "-data", "./data", "history.jsonl"], { cwd: dir });
    assert.equal(imported.code, 0, imported.stderr);
    assert.match(imported.stdout, new RegExp(`${WORKER_FROM} added`));
    const recalled = await run([bin, "recall", "-data", "./data", "-json", "note 3999"], { cwd: dir });
    assert.equal(recalled.code, 0, recalled.stderr);
    assert.match(recalled.stdout, /note 3999/);
  });
});

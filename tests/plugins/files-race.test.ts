/**
 * The files plugin under a race (issue 14.5): another process keeps swapping a folder inside
 * the root for a symlink to a folder outside it while files_read / files_write / files_list run
 * on paths through it. A check that resolves the path and opens it later loses this race
 * (before the fix: 122 of 39,031 reads returned the outside file and 381 writes landed
 * outside); resolution and open must be one step. Tools are called in-process so that 20,000
 * attempts take seconds; the swapper is a real second process.
 */
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { spawn, type ChildProcess } from "node:child_process";
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { once } from "node:events";
import { filesPlugin } from "../../plugins/files/index.ts";
import type { PluginShared, TextBytes, ToolDefinition } from "../../plugins/sdk/index.ts";
import { RUNTIME_BINARIES } from "../support/runtimes.ts";
import { FIXTURES } from "./support.ts";
import { tempDir } from "../support/temp-dir.ts";

/**
 * The files plugin never pushes; built here without a segment its reads come back inline. (An
 * undefined segment made every read that opened a file throw a TypeError, so an escaped read
 * could not have been counted.)
 */
const NO_SEGMENT = { attached: false, capacity: 0 } as unknown as PluginShared;

const ATTEMPTS = 20_000;
// The files tools never touch the shared segment.
const context = { signal: new AbortController().signal, shared: {} as PluginShared };

describe("files plugin: a folder swapped for a symlink mid-call never leads outside", () => {
  const dir = tempDir("homed-files-race-").path;
  const root = join(dir, "root");
  const outside = join(dir, "outside");
  let swapper: ChildProcess;
  let tools: Map<string, ToolDefinition>;
  const call = async (name: string, args: Record<string, unknown>) => {
    const tool = tools.get(name)!;
    try {
      return { ok: true as const, value: await tool.run(tool.input.parse(args), context) };
    } catch (error) {
      return { ok: false as const, error: error as Error & { code?: string } };
    }
  };

  before(async () => {
    mkdirSync(join(root, "d"), { recursive: true });
    mkdirSync(outside);
    writeFileSync(join(root, "d", "f.txt"), "inside");
    writeFileSync(join(outside, "f.txt"), "OUTSIDE SECRET");
    writeFileSync(join(outside, "OUTSIDE-MARKER"), "");
    tools = new Map((await filesPlugin.tools({ root, maxReadBytes: 1024 * 1024 }, { onClose() {}, shared: NO_SEGMENT })).map((t) => [t.name, t]));
    // The attacker is always Bun (its renameat2 is called through bun:ffi); the plugin under
    // attack runs under the runtime running the tests.
    swapper = spawn(RUNTIME_BINARIES.bun, [join(FIXTURES, "swapper.ts"), root, outside], { stdio: ["ignore", "pipe", "inherit"] });
    swapper.stdout!.setEncoding("utf8");
    const [first] = (await once(swapper.stdout!, "data")) as [string];
    assert.match(first, /ready/);
  });
  after(() => {
    swapper?.kill("SIGKILL");
    rmSync(dir, { recursive: true, force: true });
  });

  test(`${ATTEMPTS} reads, writes and listings race the swapper: 0 escapes`, async () => {
    const outcomes = { read: new Map<string, number>(), write: new Map<string, number>(), list: new Map<string, number>() };
    const count = (kind: keyof typeof outcomes, key: string) => outcomes[kind].set(key, (outcomes[kind].get(key) ?? 0) + 1);
    let readEscapes = 0;
    let listEscapes = 0;
    for (let i = 0; i < ATTEMPTS; i++) {
      const read = await call("files_read", { path: "d/f.txt" });
      const text = read.ok ? new TextDecoder().decode((read.value as TextBytes).utf8) : undefined;
      if (read.ok && text !== "inside") readEscapes++;
      count("read", read.ok ? String(text) : (read.error.code ?? read.error.message));
      // Half the writes create a new file, half replace f.txt (which also exists outside).
      const write = await call("files_write", { path: i % 2 ? `d/w-${i}.txt` : "d/f.txt", content: "inside" });
      count("write", write.ok ? "ok" : (write.error.code ?? write.error.message));
      if (i % 10 === 0) {
        const list = await call("files_list", { path: "d" });
        const names = list.ok ? (list.value as { entries: { name: string }[] }).entries.map((e) => e.name) : [];
        if (names.includes("OUTSIDE-MARKER")) listEscapes++;
        count("list", list.ok ? "ok" : (list.error.code ?? list.error.message));
      }
    }
    swapper.kill("SIGTERM");
    const [, swapped] = await Promise.all([once(swapper, "exit"), new Promise<string>((r) => swapper.stdout!.once("data", r))]);
    const landedOutside = readdirSync(outside).filter((name) => name !== "f.txt" && name !== "OUTSIDE-MARKER").length + (readFileSync(join(outside, "f.txt"), "utf8") === "OUTSIDE SECRET" ? 0 : 1);
    const report = JSON.stringify({ swapped: swapped.trim(), read: Object.fromEntries(outcomes.read), write: Object.fromEntries(outcomes.write), list: Object.fromEntries(outcomes.list) });
    console.log(`files race: ${report}; escapes: read ${readEscapes}, write ${landedOutside}, list ${listEscapes}`);
    // The race really happened: some calls met the link or the gap, not only the folder.
    const unlucky = [...outcomes.read.keys()].filter((k) => k !== "inside").length;
    assert.ok(unlucky > 0, `the swapper never interfered: ${report}`);
    assert.equal(readEscapes, 0, `reads returned the outside file: ${report}`);
    assert.equal(landedOutside, 0, `writes landed outside the root: ${report}`);
    assert.equal(listEscapes, 0, `listings showed the outside folder: ${report}`);
  });
});

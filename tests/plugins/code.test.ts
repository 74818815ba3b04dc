/**
 * code as a real plugin process: snippets that print and write files; one that loops forever
 * with a child (both gone at the wall-clock limit); one that burns CPU; one that allocates too
 * much; one that tries to leave its folder, read the machine's files and reach the network.
 */
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { createServer, type Server } from "node:net";
import type { AddressInfo } from "node:net";
import { existsSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { builtinSpec } from "../../plugins/index.ts";
import { usableBwrap } from "../../plugins/code/sandbox.ts";
import { createPluginHost, type PluginHost } from "../../src/plugins/index.ts";
import { RUNTIME } from "../../src/runtime/index.ts";
import { processesWhose, SOURCE_HOMED } from "../support/process.ts";
import { tempDir } from "../support/temp-dir.ts";

const SANDBOXED = usableBwrap() !== undefined;

/** Live processes whose command line contains `text`. */
const processesRunning = (text: string) => processesWhose("cmdline", text);

describe("code plugin", () => {
  const base = tempDir("homed-code-").path;
  const runs = join(base, "runs");
  let host: PluginHost;
  let listener: Server;
  let port = 0;
  let connections = 0;
  before(async () => {
    writeFileSync(join(base, "secret.txt"), "the-host-secret");
    listener = createServer((socket) => {
      connections++;
      socket.end("hello");
    });
    await new Promise<void>((resolve) => listener.listen(0, "127.0.0.1", resolve));
    port = (listener.address() as AddressInfo).port;
    host = createPluginHost(
      [
        // A wall limit far beyond the CPU limit's 1 s (the tool call's deadline beyond that): on a
        // loaded machine a second of CPU takes many seconds of wall time, and at 8 s the wall limit
        // could stop the CPU test's snippet first. The wall-limit test sets its own 1.5 s.
        { ...builtinSpec("code", SOURCE_HOMED, { dir: runs, timeoutMs: 60_000, cpuSeconds: 1, memoryMb: 256, maxOutputBytes: 2000 }), timeoutMs: 120_000 },
        { ...builtinSpec("code", SOURCE_HOMED, { dir: runs, sandbox: false, timeoutMs: 8000, javascript: "/nonexistent/node" }), name: "code_plain", provides: [] },
      ],
      { graceMs: 1000 },
    );
    await host.start();
  });
  after(async () => {
    await host?.stopAll();
    await new Promise((resolve) => listener.close(resolve));
    rmSync(base, { recursive: true, force: true });
  });
  const run = async (args: Record<string, unknown>, plugin = "code") => {
    const result = await host.callTool(plugin, "code_run", args);
    return { isError: result.isError ?? false, ...(result.structuredContent as Record<string, any>) } as Record<string, any>;
  };

  test("a snippet prints and writes a file; both come back, and its folder is gone afterwards", async () => {
    const py = await run({
      language: "python",
      code: "import os\nprint(sum(range(10)))\nos.makedirs('out', exist_ok=True)\nopen('out/result.csv','w').write('a,b\\n1,2\\n')\nimport sys; print('warn', file=sys.stderr)",
    });
    assert.equal(py.isError, false, JSON.stringify(py));
    assert.deepEqual([py.exitCode, py.stdout, py.stderr, py.killed], [0, "45\n", "warn\n", null]);
    assert.deepEqual(py.files, [{ path: "out/result.csv", bytes: 8, text: "a,b\n1,2\n" }]);
    assert.equal(py.sandbox, SANDBOXED ? "bubblewrap" : "none");
    const js = await run({ language: "javascript", code: "console.log([1,2,3].map(x => x * 2).join(' ')); process.exit(3)" });
    assert.deepEqual([js.exitCode, js.stdout], [3, "2 4 6\n"]);
    assert.deepEqual(readdirSync(runs), [], "every throw-away folder is removed");
    const loud = await run({ language: "python", code: "print('x' * 100000)" });
    assert.deepEqual([loud.outputTruncated, loud.stdout.length], [true, 2000]);
  });

  test("a snippet that loops forever is killed at the wall-clock limit, with the child it started", async () => {
    const marker = "987.6543";
    const looped = await run({
      language: "python",
      code: `import subprocess, time\nsubprocess.Popen(['sleep', '${marker}'])\nprint('started', flush=True)\nwhile True:\n    time.sleep(0.05)`,
      timeoutMs: 1500,
    });
    assert.deepEqual([looped.killed, looped.exitCode, looped.stdout], ["wall_time", null, "started\n"]);
    assert.ok(looped.ms >= 1500 && looped.ms < 5000, `${looped.ms} ms`);
    const until = Date.now() + 3000;
    while (processesRunning(marker).length > 0 && Date.now() < until) await new Promise((r) => setTimeout(r, 20));
    assert.deepEqual(processesRunning(marker), [], "the child went with it");
  });

  test("a snippet that burns CPU is stopped at the CPU limit", async () => {
    // It says each tenth of a second of CPU it has used: where it was stopped, in CPU time.
    const burned = await run({ language: "python", code: "import time\nmark = 1\nwhile True:\n    if time.process_time() >= mark / 10:\n        print(mark, flush=True)\n        mark += 1" });
    assert.deepEqual([burned.killed, burned.signal], ["cpu_time", "SIGXCPU"]);
    // Stopped at its 1 s of CPU: it told 0.5 s, never 1.1 s (the kernel's count runs a little
    // ahead of Python's: it told 0.8 s under a 1 s limit, 1.6-1.8 s under 2 s). Wall time is no
    // measure of that: on a loaded machine it is longer, never shorter.
    const lastTenth = Number(burned.stdout.trim().split("\n").at(-1));
    assert.ok(lastTenth >= 5 && lastTenth <= 10, `stopped after ${lastTenth / 10} s of CPU: ${JSON.stringify(burned.stdout)}`);
    assert.ok(burned.ms >= 1000, `${burned.ms} ms`);
  });

  test("a snippet that allocates too much fails inside its memory cap", async () => {
    const greedy = await run({ language: "python", code: "block = bytearray(1024 * 1024 * 1024)\nprint('allocated')" });
    assert.equal(greedy.exitCode, 1);
    assert.match(greedy.stderr, /MemoryError/);
    assert.equal(greedy.stdout, "");
  });

  test("a snippet cannot leave its folder, read the machine's files or reach the network", { skip: SANDBOXED ? false : "bubblewrap is not usable here" }, async () => {
    const code = [
      "import os, socket",
      "for path in ['../escape.txt', '/tmp/../escape.txt']:",
      "    try:",
      "        open(path, 'w').write('out')",
      "        print('wrote', path, os.path.realpath(path))",
      "    except OSError as e:",
      "        print('write refused', path, type(e).__name__)",
      `for path in [${JSON.stringify(join(base, "secret.txt"))}, '/etc/shadow', '/root', '/home']:`,
      "    try:",
      "        print('read', path, open(path).read() if os.path.isfile(path) else os.listdir(path))",
      "    except OSError as e:",
      "        print('read refused', path, type(e).__name__)",
      "try:",
      `    socket.create_connection(('127.0.0.1', ${port}), timeout=2)`,
      "    print('network reached')",
      "except OSError as e:",
      "    print('network refused', type(e).__name__)",
      "print(sorted(os.listdir('/')))",
    ].join("\n");
    const tried = await run({ language: "python", code });
    assert.equal(tried.exitCode, 0, tried.stderr);
    assert.doesNotMatch(tried.stdout, /the-host-secret/);
    assert.match(tried.stdout, new RegExp(`read refused ${join(base, "secret.txt")} FileNotFoundError`));
    assert.match(tried.stdout, /network refused/);
    assert.equal(connections, 0, "nothing reached the listener");
    assert.equal(existsSync(join(base, "escape.txt")), false);
    assert.equal(existsSync(join(runs, "escape.txt")), false);
    assert.deepEqual(readdirSync(base).sort(), ["runs", "secret.txt"]);
    // What it sees of / is the sandbox's own: system folders, its folder, its writes (thrown away).
    const root = tried.stdout.trim().split("\n").at(-1);
    assert.match(root, /'sandbox'/);
    assert.doesNotMatch(root, /'home'|'work'|'var'/);
  });

  test("without bubblewrap the snippet still runs, saying so, with halved limits", async () => {
    const plain = await run({ language: "python", code: "print('plain')" }, "code_plain");
    assert.deepEqual([plain.stdout, plain.sandbox], ["plain\n", "none"]);
    assert.match(plain.warning, /without a sandbox .* halved limits: install bubblewrap \(Debian\/Ubuntu: apt install bubblewrap\)/);
    const tools = host.listTools().filter((t) => t.plugin === "code_plain");
    assert.match(tools[0]!.tool.description ?? "", /NOT sandboxed .* 4000 ms wall, 5 s CPU, 256 MB memory/);
    assert.equal((await run({ language: "python", code: "print(1)", timeoutMs: 5000 }, "code_plain")).error, "invalid_arguments", "past the halved wall limit");
    assert.equal((await run({ language: "ruby", code: "puts 1" })).error, "invalid_arguments");
  });

  test("JavaScript without Node runs on homed's own runtime (Bun, or Deno under Deno)", async () => {
    const code = "console.log('Bun' in globalThis ? 'bun' : 'Deno' in globalThis ? 'deno' : 'neither', [1, 2].map((x) => x * 21).join(','))";
    const js = await run({ language: "javascript", code }, "code_plain");
    assert.deepEqual([js.runtime, js.exitCode, js.stdout], [RUNTIME, 0, `${RUNTIME} 21,42\n`]);
    const sandboxed = await run({ language: "javascript", code: "console.log('node', process.version.startsWith('v'))" });
    assert.deepEqual([sandboxed.runtime, sandboxed.stdout], ["node", "node true\n"]);
  });
});

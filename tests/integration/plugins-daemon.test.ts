/**
 * The daemon runs its built-in plugins as child processes: the model can call their tools in a
 * turn, /api/plugins shows them, and stopping homed leaves no plugin process behind.
 */
import { describe, test, after } from "node:test";
import assert from "node:assert/strict";
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { processesWhose, ROOT, until } from "../support/process.ts";
import { startApiDaemon } from "../support/api-daemon.ts";
import { startScriptedProvider } from "../support/scripted-provider.ts";
import { testDir } from "../support/temp-dir.ts";

/** Live plugin processes whose settings (passed in their environment) mention `text`. */
function pluginsMentioning(text: string): number[] {
  return readdirSync("/proc")
    .filter((pid) => /^\d+$/.test(pid))
    .filter((pid) => {
      try {
        const env = readFileSync(`/proc/${pid}/environ`, "utf8");
        return env.includes("HOMED_PLUGIN_CONFIG=") && env.includes(text);
      } catch {
        return false; // the process ended while we looked
      }
    })
    .map(Number);
}

describe("plugins in the daemon", () => {
  test("tools callable by the model, states in /api/plugins, nothing left after SIGTERM", async () => {
    const provider = await startScriptedProvider([
      { toolCalls: [{ id: "c1", name: "files_write", arguments: JSON.stringify({ path: "todo.txt", content: "buy milk" }) }] },
      { toolCalls: [{ id: "c2", name: "shell_run", arguments: JSON.stringify({ command: "id" }) }] },
      { content: "Written." },
    ]);
    after(() => provider.close());
    const data = join(testDir("homed-plugins-"), "data");
    const daemon = await startApiDaemon(data, provider.url);
    await until(() => /plugins: .* running/.test(daemon.stderr()), "the plugins to start");
    const listed = ((await (await fetch(`${daemon.url}/api/plugins`, { headers: daemon.headers })).json()) as { plugins: { name: string; state: string }[] }).plugins;
    assert.deepEqual(listed.map((p) => [p.name, p.state]).sort(), [
      ["calendar", "running"],
      ["files", "running"],
      ["notes", "running"],
      ["web_fetch", "running"],
    ]);
    assert.equal(pluginsMentioning(data).length, 3, "files, notes and calendar run, their settings naming folders in the data dir");

    assert.match(await daemon.send(await daemon.openSession("p"), "note: buy milk"), /event: done/);
    assert.equal(readFileSync(join(data, "files", "todo.txt"), "utf8"), "buy milk");
    const results = provider.requests[2]!.body.messages.filter((m: { role: string }) => m.role === "tool");
    assert.match(results[1].content, /unknown_tool/, "shell is not enabled by default");

    const { code } = await daemon.stop("SIGTERM");
    assert.equal(code, 0, daemon.stderr());
    assert.deepEqual(pluginsMentioning(data), [], "no plugin process outlives the daemon");
  });

  test("a plain MCP server from npm, dropped into <data>/plugins, is callable by the model in a turn", async () => {
    const provider = await startScriptedProvider([{ toolCalls: [{ id: "c1", name: "echo", arguments: JSON.stringify({ message: "hello from the model" }) }] }, { content: "done" }]);
    after(() => provider.close());
    const data = testDir("homed-plugins-");
    mkdirSync(join(data, "plugins", "everything"), { recursive: true });
    writeFileSync(
      join(data, "plugins", "everything", "plugin.json"),
      JSON.stringify({ command: "node", args: [join(ROOT, "node_modules/@modelcontextprotocol/server-everything/dist/index.js"), "stdio"] }),
    );
    writeFileSync(join(data, "homed.json"), JSON.stringify({ plugins: { enabled: [] } }));
    const daemon = await startApiDaemon(data, provider.url);
    await until(() => /plugins: everything running/.test(daemon.stderr()), "the MCP server to run");
    await daemon.send(await daemon.openSession("p"), "echo something");
    assert.ok(
      provider.requests[0]!.body.tools.some((t: { function: { name: string } }) => t.function.name === "echo"),
      "the MCP server's tools are offered to the model",
    );
    const result = provider.requests[1]!.body.messages.find((m: { role: string }) => m.role === "tool");
    assert.match(result.content, /hello from the model/);
    assert.equal((await daemon.stop()).code, 0);
  });

  test("SIGTERM stops within 5 s while a plugin hangs in its handshake with a long timeout, and the plugin process is gone", async () => {
    const data = testDir("homed-plugins-");
    mkdirSync(join(data, "plugins", "mute"), { recursive: true });
    // Reads its stdin forever and never answers: a start-up handshake that would wait the full timeout.
    const marker = `mute-plugin-${process.pid}-${Date.now()}`;
    writeFileSync(join(data, "plugins", "mute", "plugin.json"), JSON.stringify({ command: "node", args: ["-e", "process.stdin.resume(); setInterval(() => {}, 1000)", marker], timeoutMs: 120_000 }));
    const running = () => processesWhose("cmdline", marker);
    writeFileSync(join(data, "homed.json"), JSON.stringify({ plugins: { enabled: [] } }));
    const daemon = await startApiDaemon(data);
    await until(() => running().length === 1, "the hung plugin to be started");
    const started = performance.now();
    const { code } = await daemon.stop("SIGTERM");
    const seconds = (performance.now() - started) / 1000;
    assert.equal(code, 0, daemon.stderr());
    assert.ok(seconds < 5, `stopped in ${seconds.toFixed(1)} s`);
    assert.deepEqual(running(), [], "the hung plugin is gone");
  });

  test("homed.json enables shell", async () => {
    const provider = await startScriptedProvider([{ toolCalls: [{ id: "c1", name: "shell_run", arguments: JSON.stringify({ command: "echo hello-from-shell" }) }] }, { content: "ok" }]);
    after(() => provider.close());
    const data = testDir("homed-plugins-");
    writeFileSync(join(data, "homed.json"), JSON.stringify({ plugins: { enabled: ["shell"] } }));
    const daemon = await startApiDaemon(data, provider.url);
    await until(() => daemon.stderr().includes("plugins: shell running"), "the shell plugin to run");
    await daemon.send(await daemon.openSession("p"), "run it");
    const result = provider.requests[1]!.body.messages.find((m: { role: string }) => m.role === "tool");
    assert.match(result.content, /hello-from-shell/);
    assert.equal(existsSync(join(data, "files")), true);
    assert.equal((await daemon.stop()).code, 0);
  });

  test("a watched terminal's pushed output reaches the model's next request in its session; an unwatched one's never does", async () => {
    // The outputs are computed by the shell, so the commands the model sent do not contain them.
    const created = (request: { body: any }) => request.body.messages.filter((m: { role: string }) => m.role === "tool").map((m: { content: string }) => JSON.parse(m.content).terminal as string);
    const provider = await startScriptedProvider((request, n) => {
      if (n === 0)
        return {
          toolCalls: [
            { id: "c1", name: "terminal_create", arguments: JSON.stringify({ command: "sh", args: ["-c", "sleep 2; echo opted-$((6*7))"] }) },
            { id: "c2", name: "terminal_create", arguments: JSON.stringify({ command: "sh", args: ["-c", "echo quiet-$((5*7))"] }) },
          ],
        };
      if (n === 1) return { toolCalls: [{ id: "c3", name: "terminal_watch", arguments: JSON.stringify({ terminal: created(request)[0], onExit: true }) }] };
      return { content: n === 2 ? "watching" : "seen" };
    });
    after(() => provider.close());
    const data = testDir("homed-plugins-");
    writeFileSync(join(data, "homed.json"), JSON.stringify({ plugins: { enabled: ["terminal"] } }));
    const daemon = await startApiDaemon(data, provider.url);
    await until(() => daemon.stderr().includes("plugins: terminal running"), "the terminal plugin to run");
    const session = await daemon.openSession("p");
    await daemon.send(session, "start two terminals, watch the first");
    await until(() => new RegExp(`plugin terminal pushed terminal_output \\(\\d+ chars\\) for session ${session}: waiting for its next turn`).test(daemon.stderr()), "the pushed output");
    await daemon.send(session, "what happened?");
    const next = JSON.stringify(provider.requests[3]!.body.messages);
    assert.match(next, /opted-42/, "the watched terminal's output is in the next request");
    assert.doesNotMatch(JSON.stringify(provider.requests), /quiet-35/, "the unwatched terminal's output reaches no request");
    assert.doesNotMatch(JSON.stringify(provider.requests.slice(0, 3)), /opted-42/);
    assert.equal((await daemon.stop()).code, 0);
  });
});

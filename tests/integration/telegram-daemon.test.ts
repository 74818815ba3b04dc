/**
 * The Telegram channel plugin as a person installs it: a real daemon from source loads it from
 * `<data>/plugins/telegram/plugin.json` (with `partners`), opens the channel, and a message from
 * the Bot API stand-in (tests/support/fake-telegram.ts) is answered by the scripted provider
 * through the daemon's own wiring (src/daemon/daemon.ts: Outbound and ChannelPlugins).
 */
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { startApiDaemon, type ApiDaemon } from "../support/api-daemon.ts";
import { FakeTelegram } from "../support/fake-telegram.ts";
import { until } from "../support/process.ts";
import { startScriptedProvider, type ScriptedProvider } from "../support/scripted-provider.ts";
import { tempDir, type TempDir } from "../support/temp-dir.ts";
import { toolOrEcho } from "../plugins/support.ts";

const TOKEN = "42:daemon-token";

describe("Telegram channel plugin in a daemon", () => {
  let dir: TempDir;
  let provider: ScriptedProvider;
  let telegram: FakeTelegram;
  let daemon: ApiDaemon;

  before(async () => {
    dir = tempDir("homed-telegram-");
    provider = await startScriptedProvider(toolOrEcho);
    telegram = await FakeTelegram.start(TOKEN);
    const folder = join(dir.path, "plugins", "telegram");
    mkdirSync(folder, { recursive: true });
    writeFileSync(
      join(folder, "plugin.json"),
      JSON.stringify({
        command: process.execPath,
        args: [join(import.meta.dirname, "../../plugins/telegram/main.ts")],
        env: { HOMED_PLUGIN_CONFIG: JSON.stringify({ token: TOKEN, apiBase: telegram.url, pollTimeoutSeconds: 1 }) },
        partners: { "111": "alice" },
      }),
    );
    daemon = await startApiDaemon(dir.path, provider.url);
    await until(() => telegram.callsOf("getUpdates").length > 0, "the plugin's first long poll", 30_000);
  });
  after(async () => {
    await daemon?.stop();
    await telegram?.close();
    await provider?.close();
    dir?.remove();
  });

  test("a message is answered through the daemon, in the session of plugin.json's partner", async () => {
    const since = telegram.calls.length;
    telegram.message({ chatId: 111, text: "hello from telegram" });
    await until(() => telegram.callsOf("sendMessage", since).length > 0, "the answer", 30_000);
    assert.equal(telegram.callsOf("sendMessage", since)[0]!.params.text, "echo: hello from telegram");
    const sessions = (await (await fetch(`${daemon.url}/api/sessions`, { headers: daemon.headers })).json()) as { sessions: { channel: string; partner: string }[] };
    assert.ok(sessions.sessions.some((s) => s.channel === "telegram" && s.partner === "alice"));
    assert.match(daemon.stderr(), /telegram: open as a channel \(plugin\)/);
  });
});

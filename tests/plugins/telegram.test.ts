/**
 * Telegram as a channel plugin (plugins/telegram, a real child process) against a stand-in for
 * the Bot API on loopback written from its specification (tests/support/fake-telegram.ts): a
 * message long-polled from getUpdates round-trips to the scripted provider's answer and back with
 * sendMessage; what homed says first for a Telegram session goes out with sendMessage; a chat
 * homed does not know is a partner of its own and cannot read another partner's memory.
 */
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { join } from "node:path";
import { ChannelPlugins } from "../../src/channels/index.ts";
import { Outbound } from "../../src/kernel/index.ts";
import { OWNER, runMemoryTool } from "../../src/memory/index.ts";
import { createPluginHost, PluginSpecSchema, type PluginHost } from "../../src/plugins/index.ts";
import { messageChunks } from "../../plugins/telegram/index.ts";
import { FakeTelegram, BOT } from "../support/fake-telegram.ts";
import type { ReceivedRequest } from "../support/scripted-provider.ts";
import { kernelHarness, type Harness } from "../kernel/support.ts";
import { toolOrEcho, userText } from "./support.ts";

const TOKEN = "123456:test-token";
const ALICE_CHAT = 111;
/** A 1×1 PNG, as a photo's file. */
const PNG = Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==", "base64");

const until = async <T>(get: () => T | undefined, what: string, withinMs = 15_000): Promise<T> => {
  const end = Date.now() + withinMs;
  for (;;) {
    const value = get();
    if (value !== undefined) return value;
    if (Date.now() > end) throw new Error(`Timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
};

describe("Telegram channel plugin against a Bot API stand-in", () => {
  let telegram: FakeTelegram;
  let h: Harness;
  let host: PluginHost;
  let outbound: Outbound;
  let channels: ChannelPlugins;
  const logs: string[] = [];
  /** The next sendMessage to `chat` after `since` calls. */
  const sent = (chat: number, since: number) => until(() => telegram.callsOf("sendMessage", since).find((c) => Number(c.params.chat_id) === chat), `sendMessage to ${chat}`);

  before(async () => {
    telegram = await FakeTelegram.start(TOKEN);
    h = await kernelHarness(toolOrEcho, {}, { overHttp: true });
    host = createPluginHost(
      [
        PluginSpecSchema.parse({
          name: "telegram",
          command: process.execPath,
          args: [join(import.meta.dirname, "../../plugins/telegram/main.ts")],
          env: { HOMED_PLUGIN_CONFIG: JSON.stringify({ token: TOKEN, apiBase: telegram.url, pollTimeoutSeconds: 1 }) },
          partners: { [String(ALICE_CHAT)]: "alice" },
        }),
      ],
      { report: () => {} },
    );
    outbound = new Outbound();
    channels = new ChannelPlugins({ kernel: h.kernel, host, outbound, log: { info: (l) => logs.push(l), warn: (l) => logs.push(l) } });
    await host.start();
    await until(() => telegram.callsOf("getUpdates")[0], "the first long poll");
  });
  after(async () => {
    channels?.stop();
    await host?.stopAll();
    await telegram?.close();
    await h?.close();
  });

  test("a message round-trips: getUpdates → a turn answered by the scripted provider → sendMessage replying to it; the update is confirmed", async () => {
    const since = telegram.calls.length;
    const message = telegram.message({ chatId: ALICE_CHAT, text: "my locker is 42" });
    const reply = await sent(ALICE_CHAT, since);
    assert.equal(reply.params.text, "echo: my locker is 42");
    assert.equal(reply.params.reply_parameters.message_id, message.message_id);
    assert.ok(telegram.callsOf("sendChatAction", since).some((c) => c.params.chat_id === ALICE_CHAT && c.params.action === "typing"));
    assert.ok(h.provider.requests.some((r) => userText(r as ReceivedRequest) === "my locker is 42"));
    const sessions = await h.kernel.sessions.list();
    assert.ok(
      sessions.some((s) => s.channel === "telegram" && s.partner === "alice"),
      "the chat is plugin.json's partner",
    );
    // The next poll names the offset after the update: Telegram forgets it, it is not answered twice.
    const confirmed = await until(() => telegram.callsOf("getUpdates", since).find((c) => c.params.offset > 0), "a confirming poll");
    assert.equal(confirmed.params.offset, 2);
    assert.equal(confirmed.params.timeout, 1);
  });

  test("a photo goes to the model as an image; in a group only a message that mentions the bot is answered", async () => {
    telegram.files.set("photo-1", { path: "photos/file_1.png", bytes: PNG });
    const since = telegram.calls.length;
    telegram.message({ chatId: ALICE_CHAT, text: "what is this", photo: "photo-1" });
    assert.equal((await sent(ALICE_CHAT, since)).params.text, "echo: what is this");
    const request = h.provider.requests.find((r) => userText(r as ReceivedRequest) === "what is this")!;
    const parts = [...request.body.messages].reverse().find((m: any) => m.role === "user").content as any[];
    assert.ok(
      parts.some((p) => p.type === "image_url" && p.image_url.url.endsWith(PNG.toString("base64"))),
      "the photo's bytes (never its URL, which carries the token)",
    );

    const group = -100777;
    const before = telegram.calls.length;
    telegram.message({ chatId: group, chatType: "supergroup", from: { id: 222, first_name: "Bob" }, text: "just chatting" });
    telegram.message({ chatId: group, chatType: "supergroup", from: { id: 222, first_name: "Bob" }, text: `@${BOT.username} what time is it?` });
    assert.equal((await sent(group, before)).params.text, "echo: Bob: what time is it?");
    assert.ok(!h.provider.requests.some((r) => userText(r as ReceivedRequest).includes("just chatting")));
  });

  test("a proactive message for a Telegram session is sent with sendMessage to its chat", async () => {
    const alice = await h.kernel.sessions.open("telegram", "alice");
    const since = telegram.calls.length;
    const delivered = await outbound.deliver({ sessionId: alice.id, text: "time to stretch", source: { kind: "reminder", plugin: "calendar" } });
    assert.deepEqual(delivered, ["telegram"]);
    const message = await sent(ALICE_CHAT, since);
    assert.equal(message.params.text, "time to stretch");
    assert.equal(message.params.reply_parameters, undefined);
  });

  test("an unknown chat's message creates its own partner, which cannot read another partner's memory", async () => {
    const noted = await runMemoryTool("memory_note", { text: "alice's safe opens with tulip-octagon", scope: "partner:alice" }, { client: h.store.client, access: OWNER });
    const stranger = 555;
    const since = telegram.calls.length;
    telegram.message({ chatId: stranger, text: `TOOL memory_open {"id":"${noted.id}"}` });
    const refused = await sent(stranger, since);
    assert.match(refused.params.text, /tool said: .*"not_found"/);
    assert.doesNotMatch(refused.params.text, /tulip-octagon/);
    assert.ok((await h.kernel.sessions.list()).some((s) => s.channel === "telegram" && s.partner === "telegram_555"));
    // The control: alice's own chat opens it.
    const next = telegram.calls.length;
    telegram.message({ chatId: ALICE_CHAT, text: `TOOL memory_open {"id":"${noted.id}"}` });
    assert.match((await sent(ALICE_CHAT, next)).params.text, /tulip-octagon/);
  });

  test("an answer longer than Telegram's 4096 characters goes in pieces, cut at a line end", () => {
    const text = `${"a".repeat(3000)}\n${"b".repeat(3000)}\n${"c".repeat(5000)}`;
    const chunks = messageChunks(text);
    assert.ok(chunks.every((c) => c.length <= 4096));
    assert.equal(chunks.join(""), text.replaceAll("\n", ""));
    assert.equal(chunks[0], "a".repeat(3000));
  });
});

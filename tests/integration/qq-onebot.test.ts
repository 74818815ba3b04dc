/**
 * The QQ channel against a scripted OneBot 11 implementation written here from the protocol's
 * specification (botuniverse/onebot-11: forward WebSocket, `access_token`, message events with
 * segment arrays or CQ codes, `send_private_msg` / `send_group_msg` actions answered by `echo`),
 * since no implementation (NapCat, go-cqhttp) can run here. A real daemon from source connects to
 * it on loopback; its model is a scripted provider.
 */
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { OneBotConnection } from "../../plugins/qq/connection.ts";
import { startApiDaemon, type ApiDaemon } from "../support/api-daemon.ts";
import { ScriptedOneBot, SELF, textOf, TOKEN } from "../support/onebot-peer.ts";
import { until } from "../support/process.ts";
import { startScriptedProvider, type ReceivedRequest, type ScriptedProvider, type Step } from "../support/scripted-provider.ts";
import { tempDir, type TempDir } from "../support/temp-dir.ts";
import { sineWav } from "../support/wav.ts";

const lastUser = (r: ReceivedRequest) => [...r.body.messages].reverse().find((m: any) => m.role === "user");
const userText = (r: ReceivedRequest) => {
  const content = lastUser(r)?.content;
  return typeof content === "string" ? content : (content ?? []).map((p: any) => p.text ?? "").join("");
};
/** "TOOL <name> <json>" anywhere in the input: the model calls that tool, then says what it answered. */
function script(r: ReceivedRequest, n: number): Step {
  const last = r.body.messages.at(-1);
  if (last?.role === "tool") return { content: `tool said: ${last.content}` };
  const asked = /TOOL (\S+) (\{.*\})/s.exec(userText(r));
  if (asked) return { toolCalls: [{ id: `call_${n}`, name: asked[1]!, arguments: asked[2]! }] };
  return userText(r).includes("DRAW") ? { content: "here: ![cat](http://127.0.0.1:9/cat.png) enjoy" } : { content: `echo: ${userText(r)}` };
}

describe("QQ through OneBot 11: homed against a scripted implementation", () => {
  let dir: TempDir;
  let provider: ScriptedProvider;
  let bot: ScriptedOneBot;
  let daemon: ApiDaemon;
  let images: Server;
  /** A 1×1 PNG an implementation would serve as an image segment's url. */
  const PNG = Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==", "base64");
  /** A voice message's recording, as an implementation serves a record segment's url. */
  const WAV = sineWav();
  const VOICE_SAID = "the spare key is under the blue flowerpot";

  before(async () => {
    dir = tempDir("homed-qq-");
    // Its transcription endpoint hears VOICE_SAID in any recording (HOMED_TRANSCRIPTION_MODEL below).
    provider = await startScriptedProvider(script, { transcribe: () => VOICE_SAID });
    bot = await ScriptedOneBot.start();
    images = createServer((req, res) => (req.url?.endsWith(".wav") ? res.writeHead(200, { "content-type": "audio/wav" }).end(WAV) : res.writeHead(200, { "content-type": "image/png" }).end(PNG)));
    await new Promise<void>((r) => images.listen(0, "127.0.0.1", r));
    const qq = { enabled: true, url: bot.url, accessToken: TOKEN, partners: { "12345": "alice" }, groups: { names: ["homed"] }, maxBackoffMs: 1000 };
    writeFileSync(join(dir.path, "homed.json"), JSON.stringify({ channels: { qq } }));
    daemon = await startApiDaemon(dir.path, provider.url, undefined, { HOMED_TRANSCRIPTION_MODEL: "whisper-scripted" });
    await until(() => bot.connections.length > 0, "homed's connection");
  });
  after(async () => {
    await daemon?.stop();
    await bot?.close();
    await provider?.close();
    await new Promise((r) => images?.close(r));
    dir?.remove();
  });

  test("connects with the access token; a private message is a turn answered by send_private_msg (with echo); the partner is homed.json's name", async () => {
    assert.match(bot.connections[0]!.url, new RegExp(`access_token=${TOKEN}`));
    const since = bot.actions.length;
    bot.message({ message_type: "private", user_id: 12345, message: [{ type: "text", data: { text: "my locker is 42" } }] });
    const action = await bot.nextAction(since);
    assert.equal(action.action, "send_private_msg");
    assert.equal(action.params.user_id, 12345);
    assert.equal(textOf(action.params.message), "echo: my locker is 42");
    assert.equal(typeof action.echo, "string");
    const sessions = (await (await fetch(`${daemon.url}/api/sessions`, { headers: daemon.headers })).json()) as { sessions: { channel: string; partner: string }[] };
    assert.ok(sessions.sessions.some((s) => s.channel === "qq" && s.partner === "alice"));
    // The next message is a turn of the same conversation: the model sees the first (CQ-code form this time).
    const next = bot.actions.length;
    bot.message({ message_type: "private", user_id: 12345, message: "which locker &#91;again&#93;?" });
    assert.equal(textOf((await bot.nextAction(next)).params.message), "echo: which locker [again]?");
    const request = provider.requests.find((r) => userText(r) === "which locker [again]?")!;
    assert.ok(request.body.messages.some((m: any) => m.content === "my locker is 42"));
  });

  test("in a group, homed answers only when @-mentioned or named, replying to the message; the group declares its scene", async () => {
    const since = bot.actions.length;
    bot.message({ message_type: "group", group_id: 777, user_id: 222, nickname: "Bob", message: [{ type: "text", data: { text: "just chatting among ourselves" } }] });
    const asked = bot.message({ message_type: "group", group_id: 777, user_id: 222, nickname: "Bob", message: `[CQ:at,qq=${SELF}] what time is it?` });
    const action = await bot.nextAction(since);
    assert.equal(action.action, "send_group_msg");
    assert.equal(action.params.group_id, 777);
    assert.deepEqual(action.params.message[0], { type: "reply", data: { id: String(asked) } });
    assert.equal(textOf(action.params.message), "echo: Bob: what time is it?");
    assert.equal(provider.requests.filter((r) => userText(r).includes("among ourselves")).length, 0);
    const named = bot.actions.length;
    bot.message({ message_type: "group", group_id: 777, user_id: 333, nickname: "Eve", message: [{ type: "text", data: { text: "Homed, say hi" } }] });
    assert.equal(textOf((await bot.nextAction(named)).params.message), "echo: Eve: Homed, say hi");
    const scenes = (await (await fetch(`${daemon.url}/api/scenes`, { headers: daemon.headers })).json()) as any;
    assert.match(JSON.stringify(scenes), /chan:qq\/peer:group_777/);
  });

  test("a group member cannot have the agent open or forget a memory private to alice: the turn acts as the group", async () => {
    const tool = async (name: string, args: object) => {
      const response = await fetch(`${daemon.url}/api/memory/tools/${name}`, { method: "POST", headers: daemon.headers, body: JSON.stringify(args) });
      return { status: response.status, body: (await response.json()) as any };
    };
    // The secret is words, never hex: the refusal quotes the id (24 hex digits), which a number like 8812 could be part of.
    const noted = await tool("memory_note", { text: "alice private: the safe opens with tulip-octagon", scope: "partner:alice" });
    assert.equal(noted.status, 200, JSON.stringify(noted.body));
    for (const name of ["memory_open", "memory_forget"]) {
      const since = bot.actions.length;
      bot.message({ message_type: "group", group_id: 777, user_id: 222, nickname: "Bob", message: `[CQ:at,qq=${SELF}] TOOL ${name} {"id":"${noted.body.id}"}` });
      const said = textOf((await bot.nextAction(since)).params.message);
      assert.match(said, /tool said: .*"not_found"/, `${said}\n${daemon.stderr().slice(-2000)}`);
      assert.doesNotMatch(said, /tulip-octagon/);
    }
    assert.equal((await tool("memory_open", { id: noted.body.id })).status, 200, "the memory is still there");
    // The control: alice herself, in her private chat, opens it.
    const since = bot.actions.length;
    bot.message({ message_type: "private", user_id: 12345, message: `TOOL memory_open {"id":"${noted.body.id}"}` });
    assert.match(textOf((await bot.nextAction(since)).params.message), /tulip-octagon/);
  });

  test("images in become image parts of the turn; a markdown image in the answer goes out as an image segment", async () => {
    const { port } = images.address() as AddressInfo;
    const since = bot.actions.length;
    bot.message({
      message_type: "private",
      user_id: 12345,
      message: [
        { type: "text", data: { text: "DRAW me this" } },
        { type: "image", data: { file: "abc.png", url: `http://127.0.0.1:${port}/abc.png` } },
      ],
    });
    const action = await bot.nextAction(since);
    const request = provider.requests.find((r) => userText(r) === "DRAW me this")!;
    const parts = lastUser(request).content as any[];
    assert.ok(parts.some((p) => p.type === "image_url" && p.image_url.url === `data:image/png;base64,${PNG.toString("base64")}`));
    assert.deepEqual(
      action.params.message.map((s: any) => s.type),
      ["text", "image", "text"],
    );
    assert.deepEqual(action.params.message[1], { type: "image", data: { file: "http://127.0.0.1:9/cat.png" } });
  });

  test("a voice message (a record segment) is downloaded, heard through the transcription endpoint, and answered from its transcript", async () => {
    const { port } = images.address() as AddressInfo;
    const since = bot.actions.length;
    const uploads = provider.transcriptions.length;
    bot.message({ message_type: "private", user_id: 12345, message: [{ type: "record", data: { file: "abc.amr", url: `http://127.0.0.1:${port}/voice.wav` } }] });
    const action = await bot.nextAction(since);
    assert.equal(textOf(action.params.message), `echo: [Voice message, transcribed] ${VOICE_SAID}`);
    assert.ok(Buffer.from(provider.transcriptions[uploads]!.bytes).equals(WAV), "the downloaded recording was transcribed");
    assert.equal(provider.transcriptions[uploads]!.model, "whisper-scripted");
  });

  test("a failed action is logged with its retcode; the connection lost, homed reconnects and answers again", async () => {
    bot.answer = (a) => (a.action === "send_private_msg" ? { status: "failed", retcode: 100, wording: "user not found" } : { status: "ok", retcode: 0, data: {} });
    const failed = bot.message({ message_type: "private", user_id: 12345, message: "this reply will fail" });
    await until(() => daemon.stderr().includes(`qq: answering message ${failed} failed: send_private_msg failed: retcode 100 (user not found)`), "the failure in the log");
    bot.answer = () => ({ status: "ok", retcode: 0, data: { message_id: 1 } });
    const before = bot.connections.length;
    bot.live!.terminate();
    await until(() => bot.connections.length > before, "homed's reconnection");
    const since = bot.actions.length;
    bot.message({ message_type: "private", user_id: 12345, message: "back again" });
    assert.equal(textOf((await bot.nextAction(since)).params.message), "echo: back again");
  });

  test("a wrong access token is refused (401 before the upgrade): homed says so and keeps retrying, never connected", async () => {
    const lines: string[] = [];
    const before = bot.connections.length;
    const wrong = new OneBotConnection({ url: bot.url, accessToken: "not-it", maxBackoffMs: 1000, onEvent: () => {}, log: (_, line) => lines.push(line) });
    wrong.start();
    try {
      await until(() => lines.filter((l) => /closed .*retrying in 1 s/.test(l)).length >= 2, "two refused attempts", 10_000);
      assert.equal(bot.connections.length, before);
      await assert.rejects(wrong.call("send_private_msg", { user_id: 1, message: [] }), /not connected/);
    } finally {
      wrong.stop();
    }
  });
});

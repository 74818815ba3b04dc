/** `channels` in homed.json: every channel off by default; a QQ channel without an address is refused at start. */
import { test } from "node:test";
import assert from "node:assert/strict";
import { configSection } from "../../src/config/index.ts";
import { ChannelsConfigSchema } from "../../src/daemon/index.ts";

const file = (values: Record<string, unknown>) => ({ path: "/d/homed.json", values });

test("channels are off until homed.json enables them; qq enabled without url stops start-up naming the field", () => {
  const none = configSection(file({}), "channels", ChannelsConfigSchema);
  assert.deepEqual([none.a2a.enabled, none.qq.enabled], [false, false]);
  assert.throws(() => configSection(file({ channels: { qq: { enabled: true } } }), "channels", ChannelsConfigSchema), /homed\.json: channels\.qq\.url: url is needed when qq is enabled/);
  assert.throws(() => configSection(file({ channels: { qq: { enabled: true, url: "http://x" } } }), "channels", ChannelsConfigSchema), /channels\.qq\.url: a ws:\/\/ or wss:\/\/ address/);
  const qq = configSection(file({ channels: { qq: { enabled: true, url: "ws://127.0.0.1:3001" } } }), "channels", ChannelsConfigSchema).qq;
  assert.deepEqual([qq.groups.reply, qq.groups.names, qq.maxBackoffMs], ["mention", ["homed"], 30_000]);
});

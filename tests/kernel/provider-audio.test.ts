/**
 * Which provider's audio endpoints are used: the active provider's when it has a model for the
 * use, else the first provider's that has one (chat on one provider, voice on another), with
 * that provider's key; none when no provider has one. HOMED_TRANSCRIPTION_MODEL gives the
 * environment's provider one.
 */
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { join } from "node:path";
import { ProviderStore } from "../../src/kernel/providers.ts";
import { openStore, SecretBox } from "../../src/store/index.ts";
import { testDir } from "../support/temp-dir.ts";

describe("a provider's audio endpoints", () => {
  test("the active provider's model first, else the first that has one, with its key; none without", async () => {
    const store = await openStore({ url: `file:${join(testDir("homed-provider-audio-"), "homed.db")}` });
    try {
      const providers = new ProviderStore(store.client, SecretBox.ephemeral());
      const first = await providers.save({ name: "first", baseUrl: "http://127.0.0.1:6/v1", model: "m" });
      const chat = await providers.save({ name: "chat", baseUrl: "http://127.0.0.1:9/v1", model: "deepseek-chat", apiKey: "sk-chat" });
      await providers.activate(chat.id);
      assert.equal(await providers.audioTarget("transcription"), undefined);
      assert.equal(await providers.audioTarget("speech"), undefined);
      await providers.save({ name: "voice", baseUrl: "http://127.0.0.1:8/v1", model: "x", apiKey: "sk-voice", transcriptionModel: "whisper-1", speechModel: "tts-1", speechVoice: "nova" });
      // A provider listed before the active one also has a transcription model: the active one's still goes first.
      await providers.save({ name: "first", baseUrl: "http://127.0.0.1:6/v1", model: "m", transcriptionModel: "other" }, first.id);
      assert.equal((await providers.audioTarget("transcription"))?.model, "other", "the first that has one, the active one having none");
      assert.deepEqual(await providers.audioTarget("speech"), { baseUrl: "http://127.0.0.1:8/v1", apiKey: "sk-voice", model: "tts-1", voice: "nova" });
      await providers.save({ name: "chat", baseUrl: "http://127.0.0.1:9/v1", model: "deepseek-chat", transcriptionModel: "sensevoice" }, chat.id);
      assert.deepEqual(await providers.audioTarget("transcription"), { baseUrl: "http://127.0.0.1:9/v1", apiKey: "sk-chat", model: "sensevoice" }, "the active provider's own first");
      assert.equal((await providers.audioTarget("speech"))?.model, "tts-1");

      const fromEnv = new ProviderStore(store.client, SecretBox.ephemeral(), { HOMED_BASE_URL: "http://127.0.0.1:7/v1", HOMED_MODEL: "m", HOMED_TRANSCRIPTION_MODEL: "whisper-env" });
      assert.equal((await fromEnv.list()).find((p) => p.id === "env")?.transcriptionModel, "whisper-env");
    } finally {
      store.close();
    }
  });
});

/**
 * The model's context window, which recall's injection grows with: a provider's setting, else
 * what the provider reports in its model list, else the table of well-known models, else unknown
 * (today's bands). HOMED_CONTEXT_WINDOW is checked
 * when the daemon starts, with its name.
 */
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { join } from "node:path";
import { ProviderStore } from "../../src/kernel/providers.ts";
import { knownContextWindow } from "../../src/llm/index.ts";
import { openStore, SecretBox } from "../../src/store/index.ts";
import { startScriptedProvider } from "../support/scripted-provider.ts";
import { testDir } from "../support/temp-dir.ts";
import { kernelHarness } from "./support.ts";

describe("context windows", () => {
  test("well-known models have one; an unknown model has none", () => {
    assert.equal(knownContextWindow("deepseek-chat"), 128_000);
    assert.equal(knownContextWindow("gpt-4o-mini"), 128_000);
    assert.equal(knownContextWindow("gpt-4.1"), 1_047_576);
    assert.equal(knownContextWindow("moonshot-v1-8k"), 8_192);
    assert.equal(knownContextWindow("Qwen/Qwen2.5-7B-Instruct"), 131_072);
    assert.equal(knownContextWindow("my-finetune"), undefined);
  });

  test("a stored provider's contextWindow and HOMED_CONTEXT_WINDOW reach the turn's target; a bad value stops the start with its name", async () => {
    const store = await openStore({ url: `file:${join(testDir("homed-window-"), "homed.db")}` });
    try {
      const env = { HOMED_BASE_URL: "http://127.0.0.1:9/v1", HOMED_MODEL: "local", HOMED_CONTEXT_WINDOW: "65536" };
      const providers = new ProviderStore(store.client, SecretBox.ephemeral(), env);
      assert.equal((await providers.active())?.contextWindow, 65_536);
      const saved = await providers.save({ name: "big", baseUrl: "http://127.0.0.1:9/v1", model: "x", contextWindow: 200_000 });
      assert.equal((await providers.target(saved.id))?.contextWindow, 200_000);
      assert.throws(() => new ProviderStore(store.client, SecretBox.ephemeral(), { ...env, HOMED_CONTEXT_WINDOW: "lots" }), /HOMED_CONTEXT_WINDOW=lots/);
      assert.throws(() => new ProviderStore(store.client, SecretBox.ephemeral(), { ...env, HOMED_CONTEXT_WINDOW: "100" }), /HOMED_CONTEXT_WINDOW=100/);
    } finally {
      store.close();
    }
  });
});

describe("the window reaches recall", () => {
  /** The contextWindow each turn's pre_action was given. */
  const windowsSeen = async (env: Record<string, string>) => {
    const h = await kernelHarness(() => ({ content: "ok" }), { env: { HOMED_BASE_URL: "http://127.0.0.1:9/v1", ...env } });
    try {
      const seen: (number | undefined)[] = [];
      h.kernel.addParticipant({ name: "probe", hooks: { pre_action: (p) => void seen.push(p.contextWindow) } });
      await h.kernel.turn({ session: await h.kernel.sessions.open("test", "ann"), input: "hello there, what do you remember?" });
      return seen;
    } finally {
      await h.close();
    }
  };

  test("pre_action gets the provider's window: configured, else a well-known model's, else none", async () => {
    assert.deepEqual(await windowsSeen({ HOMED_MODEL: "scripted-model", HOMED_CONTEXT_WINDOW: "200000" }), [200_000]);
    assert.deepEqual(await windowsSeen({ HOMED_MODEL: "deepseek-chat" }), [128_000]);
    assert.deepEqual(await windowsSeen({ HOMED_MODEL: "scripted-model" }), [undefined]);
  });

  test("a window the provider reports in its /models list reaches pre_action, above the table and below a configured one", async () => {
    const provider = await startScriptedProvider(
      [],
      {},
      {
        models: [
          { id: "scripted-model", object: "model", max_model_len: 65_536 },
          { id: "deepseek-chat", object: "model", context_window: 8192 },
        ],
      },
    );
    try {
      const env = { HOMED_BASE_URL: provider.url };
      assert.deepEqual(await windowsSeen({ ...env, HOMED_MODEL: "scripted-model" }), [65_536]);
      assert.deepEqual(await windowsSeen({ ...env, HOMED_MODEL: "deepseek-chat" }), [8192]);
      assert.deepEqual(await windowsSeen({ ...env, HOMED_MODEL: "scripted-model", HOMED_CONTEXT_WINDOW: "200000" }), [200_000]);
    } finally {
      await provider.close();
    }
  });
});

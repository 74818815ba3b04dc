/**
 * The context window a provider reports in its own `GET /models` list (src/llm/reported-window.ts):
 * read from the fields each kind of server writes, the smallest when several; it beats the table
 * of well-known models and loses to a configured window; one list request an hour per endpoint,
 * and a provider with no list is not asked every turn. Over loopback HTTP to the scripted provider.
 */
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { ContextWindows, fetchModelEntries, reportedContextWindow } from "../../src/llm/index.ts";
import { REPORTED_TTL_MS, UNREPORTED_TTL_MS } from "../../src/llm/reported-window.ts";
import { startScriptedProvider } from "../support/scripted-provider.ts";

describe("a model entry's reported window", () => {
  test("each server's field is read; the smallest wins; junk and out-of-range values are ignored", () => {
    assert.equal(reportedContextWindow({ id: "Qwen/Qwen2.5-7B-Instruct", object: "model", owned_by: "vllm", max_model_len: 8192 }), 8192);
    assert.equal(reportedContextWindow({ id: "llama-3.3-70b-versatile", context_window: 131_072 }), 131_072);
    assert.equal(reportedContextWindow({ id: "mistral-large-latest", max_context_length: 131_072 }), 131_072);
    // OpenRouter: the model's window and the routed provider's, which may be smaller.
    assert.equal(reportedContextWindow({ id: "meta-llama/llama-3.3-70b-instruct", context_length: 131_072, top_provider: { context_length: 32_768 } }), 32_768);
    assert.equal(reportedContextWindow({ id: "x", context_length: "131072", max_model_len: 0, context_window: 512, top_provider: null }), undefined);
    assert.equal(reportedContextWindow({ id: "x", context_length: "lots", max_model_len: 16_384 }), 16_384);
    // llama.cpp's trained window is not what its server runs with.
    assert.equal(reportedContextWindow({ id: "model.gguf", meta: { n_ctx_train: 131_072 } }), undefined);
    assert.equal(reportedContextWindow({ id: "gpt-4o", object: "model", owned_by: "openai" }), undefined);
  });
});

describe("the window a turn is sized to", () => {
  const models = [
    { id: "Qwen/Qwen2.5-7B-Instruct", object: "model", max_model_len: 8192 },
    { id: "deepseek-chat", object: "model", max_model_len: 16_384 },
    { id: "my-finetune", object: "model", max_model_len: 40_000 },
    { id: "gpt-4o", object: "model" },
  ];

  test("configured, else reported by the provider, else a well-known model's, else none — over one list request", async () => {
    const provider = await startScriptedProvider([], {}, { models });
    try {
      const windows = new ContextWindows();
      const at = (model: string, contextWindow?: number) => windows.of({ baseUrl: provider.url, model, ...(contextWindow ? { contextWindow } : {}) });
      assert.equal(await at("my-finetune", 200_000), 200_000);
      // The table says 131,072 for Qwen2.5 and 128,000 for deepseek: the server says what it serves.
      assert.equal(await at("Qwen/Qwen2.5-7B-Instruct"), 8192);
      assert.equal(await at("deepseek-chat"), 16_384);
      assert.equal(await at("my-finetune"), 40_000);
      assert.equal(await at("gpt-4o"), 128_000);
      assert.equal(await at("unlisted-model"), undefined);
      assert.equal(provider.modelListings.count, 1);
    } finally {
      await provider.close();
    }
  });

  test("the list is asked again after an hour; turns at once share one request", async () => {
    const provider = await startScriptedProvider([], {}, { models });
    try {
      let now = 1_000_000;
      const windows = new ContextWindows({ now: () => now });
      const target = { baseUrl: provider.url, model: "my-finetune" };
      assert.deepEqual(await Promise.all([windows.of(target), windows.of(target), windows.of(target)]), [40_000, 40_000, 40_000]);
      assert.equal(provider.modelListings.count, 1);
      now += REPORTED_TTL_MS - 1;
      await windows.of(target);
      assert.equal(provider.modelListings.count, 1);
      now += 2;
      await windows.of(target);
      assert.equal(provider.modelListings.count, 2);
    } finally {
      await provider.close();
    }
  });

  test("a provider with no list (404, not a list, unreachable) falls back to the table and is asked again only after ten minutes", async () => {
    let now = 0;
    let asked = 0;
    const refusing = new ContextWindows({
      now: () => now,
      list: async () => {
        asked++;
        throw new Error("404 Not Found");
      },
    });
    assert.equal(await refusing.of({ baseUrl: "https://api.example.test/v1", model: "deepseek-chat" }), 128_000);
    assert.equal(await refusing.of({ baseUrl: "https://api.example.test/v1", model: "my-finetune" }), undefined);
    assert.equal(asked, 1);
    now += UNREPORTED_TTL_MS + 1;
    await refusing.of({ baseUrl: "https://api.example.test/v1", model: "deepseek-chat" });
    assert.equal(asked, 2);
    // Nothing listens on port 9: refused at once, and the table decides.
    assert.equal(await new ContextWindows().of({ baseUrl: "http://127.0.0.1:9/v1", model: "deepseek-chat" }), 128_000);
  });

  test("the daemon's log is told once what a provider reports", async () => {
    const provider = await startScriptedProvider([], {}, { models });
    try {
      const lines: string[] = [];
      const windows = new ContextWindows({ onReported: (line) => lines.push(line) });
      await windows.of({ baseUrl: provider.url, model: "Qwen/Qwen2.5-7B-Instruct" });
      await windows.of({ baseUrl: provider.url, model: "Qwen/Qwen2.5-7B-Instruct" });
      assert.equal(lines.length, 1);
      assert.match(lines[0]!, /serves Qwen\/Qwen2\.5-7B-Instruct with a context window of 8192 tokens/);
      assert.deepEqual(
        (await fetchModelEntries(provider.url, undefined)).map((m) => m.id),
        models.map((m) => m.id),
      );
    } finally {
      await provider.close();
    }
  });
});

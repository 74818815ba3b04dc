/**
 * An Ollama server's window (src/llm/ollama-window.ts): its `/v1/models` reports none and it runs
 * every model with its own `num_ctx`, so a Modelfile's `num_ctx` (from `POST /api/show`) is the
 * window, and without one the window is unknown — never the table's nominal one. The peer is a
 * server written from Ollama's API documentation (docs/api.md: /api/version, /api/show, the
 * OpenAI-compatible /v1/models), on loopback; there is no Ollama on npm.
 */
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { ContextWindows } from "../../src/llm/index.ts";

/** Models as `ollama create` would have them: `parameters` is the Modelfile's PARAMETER lines, as /api/show prints them. */
const MODELS: Record<string, { parameters?: string }> = {
  "qwen2.5:7b": {},
  "qwen2.5-long:latest": { parameters: 'num_ctx                        16384\nstop                           "<|im_end|>"' },
  "llama3.1:8b": { parameters: 'stop                           "<|eot_id|>"' },
};

describe("an Ollama server's context window", () => {
  let server: Server;
  let url: string;
  const asked: string[] = [];
  before(async () => {
    server = createServer(async (req, res) => {
      asked.push(`${req.method} ${req.url}`);
      let body = "";
      for await (const chunk of req) body += chunk;
      const json = (status: number, value: unknown) => res.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify(value));
      if (req.url === "/api/version") return json(200, { version: "0.6.8" });
      if (req.url === "/v1/models") return json(200, { object: "list", data: Object.keys(MODELS).map((id) => ({ id, object: "model", created: 1_730_000_000, owned_by: "library" })) });
      if (req.url === "/api/show" && req.method === "POST") {
        const { model, name } = JSON.parse(body) as { model?: string; name?: string };
        const found = MODELS[model ?? name ?? ""];
        if (!found) return json(404, { error: `model '${model}' not found` });
        return json(200, { modelfile: "# Modelfile", ...(found.parameters ? { parameters: found.parameters } : {}), details: { family: "qwen2" }, model_info: { "qwen2.context_length": 32_768 } });
      }
      json(404, { error: "not found" });
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  });
  after(() => new Promise<void>((resolve) => server.close(() => resolve())));

  test("a Modelfile's num_ctx is the window; without one it is unknown, not the table's; a configured window still wins", async () => {
    const lines: string[] = [];
    const windows = new ContextWindows({ onReported: (line) => lines.push(line) });
    assert.deepEqual(await windows.resolve({ baseUrl: url, model: "qwen2.5-long:latest" }), { tokens: 16_384, source: "provider" });
    // The table says 131,072 for Qwen2.5 and for Llama 3.1: Ollama serves them with its own num_ctx.
    assert.deepEqual(await windows.resolve({ baseUrl: url, model: "qwen2.5:7b" }), { source: "unknown" });
    assert.deepEqual(await windows.resolve({ baseUrl: url, model: "llama3.1:8b" }), { source: "unknown" });
    assert.deepEqual(await windows.resolve({ baseUrl: url, model: "qwen2.5:7b", contextWindow: 32_768 }), { tokens: 32_768, source: "configured" });
    assert.ok(
      lines.some((l) => /Ollama at .* runs qwen2\.5:7b with its own num_ctx, not the model's 131072 tokens/.test(l)),
      lines.join("\n"),
    );
    // One round of questions for the endpoint: the list, the version, each model's parameters.
    assert.equal(asked.filter((a) => a === "GET /v1/models").length, 1);
    assert.equal(asked.filter((a) => a === "GET /api/version").length, 1);
    assert.equal(asked.filter((a) => a === "POST /api/show").length, 3);
  });
});

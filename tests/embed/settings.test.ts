/** The embedder's flags and environment, resolved and validated at the boundary. */
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { parseArgs, resolveSettings } from "../../src/config/index.ts";
import { COMMANDS } from "../../src/cli/commands/index.ts";
import { helpText as helpOf } from "../../src/cli/help.ts";

const helpText = (version: string) => helpOf(version, COMMANDS);

describe("embedder settings", () => {
  test("defaults: models under the data folder, one thread, no endpoint", () => {
    const s = resolveSettings(parseArgs(["-data", "/d"]), {});
    assert.deepEqual(s.embed, { modelsDir: "/d/models", systemModelsDir: "/usr/lib/homed/models", mirror: undefined, threads: 1, http: undefined });
    // Packaged models elsewhere, and a Hugging Face mirror: homed's own variable first, then huggingface_hub's.
    const moved = resolveSettings(parseArgs(["-data", "/d"]), { HOMED_SYSTEM_MODELS: "/opt/models", HF_ENDPOINT: "https://hf-mirror.com" }).embed;
    assert.deepEqual([moved.systemModelsDir, moved.mirror], ["/opt/models", "https://hf-mirror.com"]);
    assert.equal(resolveSettings(parseArgs(["-data", "/d"]), { HOMED_MODELS_MIRROR: "http://10.0.0.2/hf", HF_ENDPOINT: "https://hf-mirror.com" }).embed.mirror, "http://10.0.0.2/hf");
  });

  test("-models and -embed-threads from flags or environment", () => {
    const s = resolveSettings(parseArgs(["-models", "/m"]), { HOMED_EMBED_THREADS: "2" });
    assert.equal(s.embed.modelsDir, "/m");
    assert.equal(s.embed.threads, 2);
    assert.throws(() => resolveSettings(parseArgs(["-embed-threads", "0"]), {}), /invalid -embed-threads/);
  });

  test("an endpoint: URL, model, dimension, budget, key from env or key file", () => {
    const env = { HOMED_EMBED_MODEL: "bge-m3", HOMED_EMBED_API_KEY: "sk-env" };
    const s = resolveSettings(parseArgs(["-embed-url", "https://api.example/v1", "-embed-key-file", "/k"]), env);
    assert.deepEqual(s.embed.http, {
      baseUrl: "https://api.example/v1",
      model: "bge-m3",
      // Not stated: the model's own width (any is stored).
      dimension: undefined,
      apiKey: "sk-env",
      keyFile: "/k",
      queryBudgetMs: 1200,
    });
    const tuned = resolveSettings(parseArgs(["-embed-url", "http://h/v1", "-embed-model", "m", "-embed-dim", "1024", "-embed-timeout", "300"]), {});
    assert.equal(tuned.embed.http?.dimension, 1024);
    assert.equal(tuned.embed.http?.queryBudgetMs, 300);
  });

  test("half-configured or malformed endpoints are usage errors naming the flag", () => {
    assert.throws(() => resolveSettings(parseArgs(["-embed-url", "http://h/v1"]), {}), /-embed-url needs -embed-model NAME/);
    assert.throws(() => resolveSettings(parseArgs(["-embed-model", "m"]), {}), /-embed-model needs -embed-url URL/);
    assert.throws(() => resolveSettings(parseArgs(["-embed-url", "ftp://h", "-embed-model", "m"]), {}), /invalid -embed-url/);
    assert.throws(() => resolveSettings(parseArgs(["-embed-url", "http://h", "-embed-model", "m", "-embed-timeout", "soon"]), {}), /invalid -embed-timeout/);
  });

  test("--help lists the embed command, the flags and HOMED_EMBED_API_KEY", () => {
    const help = helpText("0");
    for (const word of ["embed ", "-models DIR", "-embed-url URL", "HOMED_EMBED_URL", "HOMED_EMBED_API_KEY", "HOMED_MODELS", "--image"]) {
      assert.ok(help.includes(word.replace("--image", "-image FILE")), word);
    }
  });
});

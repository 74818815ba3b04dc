/**
 * `POST /v1/embeddings` (issue 31.4): a daemon whose embedder is the tiny generated sentence
 * encoder (in `<data>/models/`, as `homed model pull` installs one) answers the official clients —
 * the openai SDK (float, and base64 by default), LangChain's `OpenAIEmbeddings` (base64 through
 * that SDK) and the AI SDK's `textEmbeddingModel` (float) — with the vectors homed stores its own
 * memory with. Refusals are OpenAI's shape; without a real model the route says so (503).
 */
import { after, afterEach, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { join } from "node:path";
import OpenAI from "openai";
import { OpenAIEmbeddings } from "@langchain/openai";
import { createOpenAI } from "@ai-sdk/openai";
import { embed, embedMany } from "ai";
import { createHttpEmbedder, createSentenceEmbedder, readSentenceFolder, type Embedder } from "../../src/embed/index.ts";
import { createLogger } from "../../src/log/index.ts";
import { createApp } from "../../src/server/index.ts";
import { MAX_EMBED_CHARS, MAX_EMBED_INPUTS } from "../../src/server/openai-embeddings.ts";
import { tinySentenceFolder } from "../embed/sentence-support.ts";
import { answer, startScriptedServer, status, type ScriptedServer } from "../embed/scripted-server.ts";
import { kernelHarness, type Harness } from "../kernel/support.ts";
import { startApiDaemon, type ApiDaemon } from "../support/api-daemon.ts";
import { evalCommand, ROOT, run } from "../support/process.ts";
import { docSnippet } from "../support/docs.ts";
import { tempDir, type TempDir } from "../support/temp-dir.ts";

const MODEL = "tiny-sentence@8";
const TEXTS = ["hello world", "我爱北京"];

const near = (actual: ArrayLike<number>, expected: Float32Array) => {
  assert.equal(actual.length, expected.length);
  for (const [j, x] of expected.entries()) assert.ok(Math.abs(actual[j]! - x) < 1e-6, `[${j}] ${actual[j]} != ${x}`);
};

/** Each vector against its expected one, in order. */
const allNear = (actual: readonly ArrayLike<number>[], expected: readonly Float32Array[]) => {
  assert.equal(actual.length, expected.length);
  for (const [i, v] of actual.entries()) near(v, expected[i]!);
};

/** Little-endian float32 bytes, as OpenAI documents `encoding_format: "base64"`. */
const fromBase64 = (text: string) => {
  const bytes = Buffer.from(text, "base64");
  return Array.from({ length: bytes.length / 4 }, (_, i) => bytes.readFloatLE(i * 4));
};

describe("/v1/embeddings with homed's sentence encoder", () => {
  let dir: TempDir;
  let daemon: ApiDaemon;
  let reference: Embedder;
  /** What homed stores for each of TEXTS (its passage form), worked out in the test's own process. */
  let expected: Float32Array[];
  let v1Key: string;
  let mcpKey: string;
  let openai: OpenAI;

  before(async () => {
    dir = tempDir("homed-v1-embeddings-");
    // Prefixes make the purpose visible: homed embeds as it stores ("the " before each passage).
    const folder = tinySentenceFolder({ pooling: "mean", queryPrefix: "hello ", passagePrefix: "the " }, { modelsDir: join(dir.path, "models") });
    reference = await createSentenceEmbedder(readSentenceFolder(folder));
    expected = await reference.embedTexts(TEXTS, { purpose: "write" });
    daemon = await startApiDaemon(dir.path);
    const key = async (name: string, scopes: string[]) => {
      const made = await fetch(`${daemon.url}/api/keys`, { method: "POST", headers: daemon.headers, body: JSON.stringify({ name, scopes }) });
      return ((await made.json()) as { key: string }).key;
    };
    v1Key = await key("rag", ["v1"]);
    mcpKey = await key("tools", ["mcp"]);
    openai = new OpenAI({ baseURL: `${daemon.url}/v1`, apiKey: v1Key, maxRetries: 0 });
  });
  after(async () => {
    await daemon?.stop();
    await reference?.close?.();
    dir?.remove();
  });

  const post = (body: unknown, key = v1Key) =>
    fetch(`${daemon.url}/v1/embeddings`, { method: "POST", headers: { authorization: `Bearer ${key}`, "content-type": "application/json" }, body: JSON.stringify(body) });

  test("/v1/models lists the embedding model after the chat models; it can be retrieved", async () => {
    const ids: string[] = [];
    for await (const model of openai.models.list()) ids.push(model.id);
    assert.deepEqual(ids, ["homed", MODEL]);
    assert.deepEqual(await openai.models.retrieve(MODEL), { id: MODEL, object: "model", created: 0, owned_by: "homed" });
  });

  test("openai SDK, float: homed's own vectors, in input order, with usage", async () => {
    const answer = await openai.embeddings.create({ model: MODEL, input: TEXTS, encoding_format: "float" });
    assert.equal(answer.object, "list");
    assert.equal(answer.model, MODEL);
    assert.deepEqual(
      answer.data.map((d) => [d.object, d.index]),
      [
        ["embedding", 0],
        ["embedding", 1],
      ],
    );
    allNear(
      answer.data.map((d) => d.embedding),
      expected,
    );
    assert.ok(answer.usage.prompt_tokens >= 4, `prompt_tokens ${answer.usage.prompt_tokens}`);
    assert.equal(answer.usage.total_tokens, answer.usage.prompt_tokens);
    const one = await openai.embeddings.create({ model: MODEL, input: "hello world", encoding_format: "float" });
    near(one.data[0]!.embedding, expected[0]!);
  });

  test("base64: little-endian float32 bytes; the SDK's default decodes to the same vectors", async () => {
    const raw = (await (await post({ model: MODEL, input: TEXTS, encoding_format: "base64" })).json()) as { data: { embedding: string }[] };
    raw.data.forEach((d, i) => {
      assert.equal(typeof d.embedding, "string");
      near(fromBase64(d.embedding), expected[i]!);
    });
    // The SDK asks for base64 when the caller names no format, and decodes it.
    const decoded = await openai.embeddings.create({ model: MODEL, input: TEXTS });
    allNear(
      decoded.data.map((d) => d.embedding),
      expected,
    );
  });

  test("LangChain's OpenAIEmbeddings: documents and a query (base64 on the wire)", async () => {
    const sent: unknown[] = [];
    const spy = (async (url: string, init?: RequestInit) => {
      sent.push(JSON.parse(String(init?.body)));
      return fetch(url, init);
    }) as typeof fetch;
    const embeddings = new OpenAIEmbeddings({ model: MODEL, apiKey: v1Key, maxRetries: 0, configuration: { baseURL: `${daemon.url}/v1`, fetch: spy } });
    const documents = await embeddings.embedDocuments(TEXTS);
    allNear(documents, expected);
    near(await embeddings.embedQuery("hello world"), expected[0]!);
    assert.deepEqual(
      sent.map((b) => (b as { encoding_format: string }).encoding_format),
      ["base64", "base64"],
    );
  });

  test("the AI SDK's textEmbeddingModel: embed and embedMany, with usage", async () => {
    const model = createOpenAI({ baseURL: `${daemon.url}/v1`, apiKey: v1Key }).textEmbeddingModel(MODEL);
    const one = await embed({ model, value: "hello world", maxRetries: 0 });
    near(one.embedding, expected[0]!);
    assert.ok(one.usage.tokens > 0);
    const many = await embedMany({ model, values: TEXTS, maxRetries: 0 });
    allNear(many.embeddings, expected);
  });

  test("dimensions: its own width is accepted, another refused naming it", async () => {
    const same = await openai.embeddings.create({ model: MODEL, input: "hello", dimensions: 8, encoding_format: "float" });
    assert.equal(same.data[0]!.embedding.length, 8);
    const other = await openai.embeddings.create({ model: MODEL, input: "hello", dimensions: 256 }).catch((e) => e);
    assert.ok(other instanceof OpenAI.BadRequestError, String(other));
    assert.deepEqual([other.code, other.param, other.type], ["unsupported_value", "dimensions", "invalid_request_error"]);
    assert.match(other.message, /tiny-sentence@8 makes vectors of 8 dimensions, not 256/);
  });

  test("another model is 404 model_not_found naming the one homed embeds with; a chat model too", async () => {
    for (const model of ["text-embedding-3-small", "homed"]) {
      const error = await openai.embeddings.create({ model, input: "hello" }).catch((e) => e);
      assert.ok(error instanceof OpenAI.NotFoundError, String(error));
      assert.equal(error.code, "model_not_found");
      assert.equal(error.param, "model");
      assert.match(error.message, /homed embeds with 'tiny-sentence@8'/);
    }
  });

  test("chat with the embedding model is 404 model_not_found saying what the model is for", async () => {
    const error = await openai.chat.completions.create({ model: MODEL, messages: [{ role: "user", content: "hi" }] }).catch((e) => e);
    assert.ok(error instanceof OpenAI.NotFoundError, String(error));
    assert.equal(error.code, "model_not_found");
    assert.match(error.message, /'tiny-sentence@8' is homed's embedding model: it answers POST \/v1\/embeddings, not chat/);
  });

  test("bounds and forms: token arrays, empty strings, too many inputs, too many characters are 400s that say so", async () => {
    const refused = async (input: unknown, pattern: RegExp) => {
      const response = await post({ model: MODEL, input });
      assert.equal(response.status, 400);
      const { error } = (await response.json()) as { error: { message: string; param: string; type: string } };
      assert.equal(error.param, "input");
      assert.equal(error.type, "invalid_request_error");
      assert.match(error.message, pattern);
    };
    await refused([15339, 1917], /token arrays are not accepted/);
    await refused([[15339], [1917]], /token arrays are not accepted/);
    await refused([], /at least one string/);
    await refused(["hello", ""], /input\[1\]: an empty string/);
    await refused(Array(MAX_EMBED_INPUTS + 1).fill("a"), new RegExp(`${MAX_EMBED_INPUTS + 1} inputs; at most ${MAX_EMBED_INPUTS}`));
    await refused(["a".repeat(MAX_EMBED_CHARS), "b"], new RegExp(`${MAX_EMBED_CHARS + 1} characters in all`));
    // The bounds themselves are accepted: as many inputs as OpenAI takes (LangChain's 512 and the AI SDK's 2,048 batches fit).
    const full = (await (await post({ model: MODEL, input: Array(MAX_EMBED_INPUTS).fill("hello"), encoding_format: "base64" })).json()) as { data: unknown[] };
    assert.equal(full.data.length, MAX_EMBED_INPUTS);
  });

  test("the docs' snippet runs as written (only the address and the model swapped)", async () => {
    const program = docSnippet("**Embeddings.** `POST /v1/embeddings`", "ts");
    assert.match(program, /model: "bge-small-en-v1\.5@384"/);
    const local = program.replaceAll("http://127.0.0.1:8080", daemon.url).replace("bge-small-en-v1.5@384", MODEL);
    const ran = await run(evalCommand(local), { cwd: ROOT, env: { ...process.env, HOMED_KEY: v1Key } });
    assert.equal(ran.code, 0, ran.stderr);
    // Node prints the object on one line, Bun over several.
    assert.match(ran.stdout, /^\[ 8, 8 \] \{\s*prompt_tokens: (\d+),\s*total_tokens: \1,?\s*\}\n$/);
  });

  test("auth as on every /v1 route: a key without the v1 scope is 403 key_scope, none is 401", async () => {
    const scoped = await post({ model: MODEL, input: "hello" }, mcpKey);
    assert.equal(scoped.status, 403);
    assert.equal(((await scoped.json()) as { error: { code: string } }).error.code, "key_scope");
    const none = await fetch(`${daemon.url}/v1/embeddings`, { method: "POST", headers: { "content-type": "application/json" }, body: "{}" });
    assert.equal(none.status, 401);
    // The admin token opens it too.
    assert.equal((await fetch(`${daemon.url}/v1/embeddings`, { method: "POST", headers: daemon.headers, body: JSON.stringify({ model: MODEL, input: "hi" }) })).status, 200);
  });
});

describe("/v1/embeddings without a real model, and when the embedder fails", () => {
  const TOKEN = "k".repeat(40);
  const bearer = { authorization: `Bearer ${TOKEN}`, "content-type": "application/json" };
  let h: Harness | undefined;
  let server: ScriptedServer | undefined;
  afterEach(async () => {
    await h?.close();
    await server?.close();
    h = server = undefined;
  });
  const appFor = (harness: Harness) => createApp({ version: "0.0.0-test", store: harness.store, log: createLogger({ level: "warn", stderr: () => {} }), kernel: harness.kernel, adminToken: TOKEN });
  const embeddings = (harness: Harness, body: object) => appFor(harness).request("/v1/embeddings", { method: "POST", headers: bearer, body: JSON.stringify(body) });

  test("the fallback is not served: 503 no_embedder in OpenAI's shape, and /v1/models lists no embedding model", async () => {
    h = await kernelHarness([]);
    const response = await embeddings(h, { model: "fallback-hash-v1@512", input: "hello" });
    assert.equal(response.status, 503);
    const { error } = (await response.json()) as { error: { code: string; type: string; message: string } };
    assert.deepEqual([error.code, error.type], ["no_embedder", "server_error"]);
    assert.match(error.message, /homed model pull .* -embed-url/);
    const models = (await (await appFor(h).request("/v1/models", { headers: bearer })).json()) as { data: { id: string }[] };
    assert.deepEqual(
      models.data.map((m) => m.id),
      ["homed", "scripted-model"],
    );
  });

  test("an endpoint embedder: its width is learnt from the answer and checked then; its refusal is 502 embedder_failed, the reason in the log only", async () => {
    server = await startScriptedServer([answer(768), answer(768), status(401, "bad key at http://secret.internal")]);
    h = await kernelHarness([], { embedder: createHttpEmbedder({ baseUrl: server.baseUrl, model: "m768" }), vectorRecall: true });
    const wrongWidth = await embeddings(h, { model: "openai:m768", input: "hello", dimensions: 512 });
    assert.equal(wrongWidth.status, 400);
    assert.match(((await wrongWidth.json()) as { error: { message: string } }).error.message, /makes vectors of 768 dimensions, not 512/);
    const ok = (await (await embeddings(h, { model: "openai:m768", input: "hello" })).json()) as { data: { embedding: number[] }[] };
    assert.equal(ok.data[0]!.embedding.length, 768);
    const failed = await embeddings(h, { model: "openai:m768", input: "hello" });
    assert.equal(failed.status, 502);
    const { error } = (await failed.json()) as { error: { code: string; message: string } };
    assert.equal(error.code, "embedder_failed");
    assert.doesNotMatch(error.message, /secret\.internal/);
  });
});

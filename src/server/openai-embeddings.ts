/**
 * OpenAI-compatible `POST /v1/embeddings`, answered by the embedder homed stores its memory with
 * (a sentence encoder, Chinese-CLIP's text tower, or an OpenAI-compatible endpoint), so a RAG stack
 * that shares homed's base URL embeds in the same space homed searches. `/v1/models` lists that
 * model beside the chat models; `model` must name it, since a client that asked for another model
 * and silently got this one would mix two vector spaces in its index.
 *
 * Not served: the fallback embedder (character n-gram hashing), which has no meaning to offer a
 * client: without a real model the route answers 503 `no_embedder`, saying how to install one.
 * Token arrays (`input` as numbers) are refused: homed's models read text, and their tokenizers
 * are not OpenAI's. The batch is bounded in count (OpenAI's own 2,048, so the clients' default
 * batching fits: LangChain 512, the AI SDK 2,048) and in characters.
 */
import { Hono } from "hono";
import { z } from "zod";
import { EmbedError, EmbedTimeoutError, type Embedder } from "../embed/index.ts";
import { HomedError } from "../errors/index.ts";
import type { Logger } from "../log/index.ts";
import { analysedPart, countTokens, loadTokenizer } from "../text/index.ts";
import type { AuthEnv } from "./auth.ts";
import type { ServedModel } from "./openai-models.ts";
import { parseBody } from "./validate.ts";

/** Inputs in one request: OpenAI's own limit, so clients batching for OpenAI fit unchanged. */
export const MAX_EMBED_INPUTS = 2048;
/**
 * Characters in one request, all inputs together: about OpenAI's 300,000-token request limit in
 * English. A model reads at most each input's analysed part (5,000 characters, text/limits.ts) (its own maxTokens, often less), so
 * the bound is on what is read and counted, not on what is embedded.
 */
export const MAX_EMBED_CHARS = 1_000_000;

const TokenArrays = z.union([z.array(z.number()), z.array(z.array(z.number()))]);

const EmbeddingRequestSchema = z
  .object({
    model: z.string().min(1),
    input: z.union([z.string(), z.array(z.string()), TokenArrays]),
    encoding_format: z.enum(["float", "base64"]).nullish(),
    dimensions: z.number().int().positive().nullish(),
    user: z.string().max(200).nullish(),
  })
  .loose();

/** The embedding model as `/v1/models` lists it; its id is the vector space's (`bge-small-zh-v1.5@512`, `openai:bge-m3`). */
export const embeddingModel = (embedder: Embedder): ServedModel => ({ id: embedder.modelId, object: "model", created: 0, owned_by: "homed" });

/** Little-endian float32 bytes in base64, as OpenAI sends with `encoding_format: "base64"`. */
export function float32Base64(vector: Float32Array): string {
  const bytes = new DataView(new ArrayBuffer(vector.length * 4));
  for (let i = 0; i < vector.length; i++) bytes.setFloat32(i * 4, vector[i]!, true);
  return Buffer.from(bytes.buffer).toString("base64");
}

const refuse = (param: string, message: string) => new HomedError("unsupported_value", message, { param });

/** The inputs as strings, or a 400 saying which bound or form is at fault. */
function inputsOf(input: z.output<typeof EmbeddingRequestSchema>["input"]): string[] {
  const texts = typeof input === "string" ? [input] : input;
  if (texts.some((t) => typeof t !== "string"))
    throw refuse("input", "input: token arrays are not accepted here; send the text, as a string or an array of strings (homed's embedder has its own tokenizer)");
  const strings = texts as string[];
  if (strings.length === 0) throw new HomedError("invalid_request", "input: send at least one string", { param: "input" });
  if (strings.length > MAX_EMBED_INPUTS) throw new HomedError("invalid_request", `input: ${strings.length} inputs; at most ${MAX_EMBED_INPUTS} in one request`, { param: "input" });
  const empty = strings.findIndex((t) => t.length === 0);
  if (empty >= 0) throw new HomedError("invalid_request", `input[${empty}]: an empty string has no embedding`, { param: "input" });
  const chars = strings.reduce((sum, t) => sum + t.length, 0);
  if (chars > MAX_EMBED_CHARS)
    throw new HomedError("invalid_request", `input: ${chars} characters in all; at most ${MAX_EMBED_CHARS} in one request (send fewer inputs per request)`, { param: "input" });
  return strings;
}

/** `embedder`: the one memory is searched with, or undefined when only the fallback runs. */
export function embeddingRoutes(embedder: Embedder | undefined, log: Pick<Logger, "warn">): Hono<AuthEnv> {
  const app = new Hono<AuthEnv>();
  app.post("/embeddings", async (c) => {
    const body = await parseBody(c, EmbeddingRequestSchema);
    if (!embedder) {
      throw new HomedError(
        "no_embedder",
        "homed has no embedding model to serve: it runs the fallback (character hashing, no meaning). Install one (homed model pull bge-small-en-v1.5) or start with -embed-url, then restart homed",
      );
    }
    if (body.model !== embedder.modelId) {
      throw new HomedError("model_not_found", `The embedding model '${body.model}' does not exist here: homed embeds with '${embedder.modelId}' (GET /v1/models lists it)`, { param: "model" });
    }
    const texts = inputsOf(body.input);
    // Known before embedding unless an endpoint of unstated width has not answered yet (then after).
    const refuseWidth = (width: number) => {
      if (body.dimensions && width && body.dimensions !== width) {
        throw refuse("dimensions", `dimensions: ${embedder.modelId} makes vectors of ${width} dimensions, not ${body.dimensions}; leave dimensions out or send ${width}`);
      }
    };
    refuseWidth(embedder.dimension);
    let vectors: Float32Array[];
    try {
      // "write": what homed stores is embedded so (a sentence encoder's passage prefix; an endpoint
      // retries with backoff rather than giving up after a query's time budget).
      vectors = await embedder.embedTexts(texts, { purpose: "write" });
    } catch (error) {
      if (!(error instanceof EmbedError) && !(error instanceof EmbedTimeoutError)) throw error;
      // The reason may name the endpoint's address: the log has it, the caller gets the fact.
      log.warn(`/v1/embeddings: ${embedder.modelId} failed: ${error.message}`);
      throw new HomedError("embedder_failed", `homed's embedder ${embedder.modelId} failed to embed the input; homed's log says why`, { cause: error });
    }
    refuseWidth(vectors[0]?.length ?? 0);
    await loadTokenizer();
    // What the model read (each input's analysed part), counted with o200k_base as homed counts tokens everywhere.
    const tokens = texts.reduce((sum, t) => sum + countTokens(analysedPart(t)), 0);
    const base64 = body.encoding_format === "base64";
    return c.json({
      object: "list",
      data: vectors.map((v, index) => ({ object: "embedding", index, embedding: base64 ? float32Base64(v) : Array.from(v) })),
      model: embedder.modelId,
      usage: { prompt_tokens: tokens, total_tokens: tokens },
    });
  });
  return app;
}

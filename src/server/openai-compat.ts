/**
 * OpenAI-compatible `/v1/chat/completions` and `/v1/models` (and `/v1/embeddings`, openai-embeddings.ts;
 * `/v1/responses`, responses-route.ts, the same turn in the Responses shape): any OpenAI client pointed at homed
 * gets an agent with memory. The client's messages are the conversation the model sees (plus
 * homed's memory); the newest user message is the turn's input, and only the turn (input, tool
 * rounds, answer) is stored, so re-sent history is never stored twice. The session is the partner
 * on channel "openai", of the partner the credential gives (openai-session.ts); an
 * `X-Homed-Session` header names one of that partner's whose stored history the model sees instead. The client's function tools are offered
 * to the model; a round calling one pauses the turn and answers with those `tool_calls`, and the
 * request whose messages end with their results resumes it (homed's own calls stay inside). `model`
 * chooses the provider (openai-models.ts); what else is honoured is in openai-request.ts. Errors
 * are OpenAI's shape (errors.ts), here and in a stream already begun.
 */
import { randomUUID } from "node:crypto";
import { Hono } from "hono";
import { streamSSE } from "hono/streaming";
import { HomedError } from "../errors/index.ts";
import type { Kernel, TurnResult } from "../kernel/index.ts";
import type { Logger } from "../log/index.ts";
import type { AuthEnv } from "./auth.ts";
import { openAiStreamError } from "./errors.ts";
import { embeddingModel, embeddingRoutes } from "./openai-embeddings.ts";
import { HOMED_MODEL_ID, modelView, servedModel, servedModels } from "./openai-models.ts";
import { CompletionRequestSchema, forwardedParams, refuseUnsupported } from "./openai-request.ts";
import { finishReason, openAiTurn } from "./openai-turn.ts";
import { responsesRoutes } from "./responses-route.ts";
import { parseBody } from "./validate.ts";

export { HOMED_MODEL_ID } from "./openai-models.ts";

/** The client's calls a paused turn waits for, as OpenAI's `tool_calls` (homed's own never leave homed). */
const toolCallsOf = (result: TurnResult) =>
  result.paused ? { tool_calls: result.paused.pending.map((c) => ({ id: c.id, type: "function" as const, function: { name: c.function.name, arguments: c.function.arguments } })) } : {};

export function openAiRoutes(kernel: Kernel, log: Pick<Logger, "warn">): Hono<AuthEnv> {
  const app = new Hono<AuthEnv>();

  // The embedding model is listed after the chat models (openai-embeddings.ts); chat never selects it.
  const embedding = kernel.recallEmbedder ? [embeddingModel(kernel.recallEmbedder)] : [];
  app.get("/models", async (c) => c.json({ object: "list", data: [...(await servedModels(kernel.providers)), ...embedding].map(modelView) }));
  app.get("/models/:id{.+}", async (c) => {
    const id = c.req.param("id");
    return c.json(modelView(embedding.find((m) => m.id === id) ?? (await servedModel(kernel.providers, id))));
  });
  app.route("/", embeddingRoutes(kernel.recallEmbedder, log));
  /** The chat model of an id; the embedding model's id is refused saying what it is for. */
  const chatModel = (id: string) => {
    if (embedding.some((m) => m.id === id))
      throw new HomedError("model_not_found", `'${id}' is homed's embedding model: it answers POST /v1/embeddings, not chat ('${HOMED_MODEL_ID}' is the active provider)`, { param: "model" });
    return servedModel(kernel.providers, id);
  };

  app.route("/responses", responsesRoutes(kernel, chatModel));

  app.post("/chat/completions", async (c) => {
    const body = await parseBody(c, CompletionRequestSchema);
    refuseUnsupported(body);
    const { turn, model } = await openAiTurn(kernel, c, body, { chatModel, params: forwardedParams(body), field: "messages" });

    const id = `chatcmpl-${randomUUID()}`;
    const created = Math.floor(Date.now() / 1000);
    const head = { id, created, model: model.id };
    const chunk = (delta: object, finish: string | null) => ({ ...head, object: "chat.completion.chunk", choices: [{ index: 0, delta, finish_reason: finish }] });

    if (!body.stream) {
      const result = await kernel.turn(turn);
      return c.json({
        ...head,
        object: "chat.completion",
        choices: [{ index: 0, message: { role: "assistant", content: result.text || (result.paused ? null : ""), ...toolCallsOf(result) }, finish_reason: finishReason(result) }],
        ...(result.usage ? { usage: result.usage } : {}),
      });
    }
    return streamSSE(c, async (stream) => {
      const controller = new AbortController();
      stream.onAbort(() => controller.abort(new Error("client disconnected")));
      await stream.writeSSE({ data: JSON.stringify(chunk({ role: "assistant", content: "" }, null)) });
      try {
        const result = await kernel.turn({
          ...turn,
          signal: controller.signal,
          onEvent: (e) => {
            if (e.type === "content") void stream.writeSSE({ data: JSON.stringify(chunk({ content: e.text }, null)) });
          },
        });
        const calls = toolCallsOf(result).tool_calls;
        if (calls) await stream.writeSSE({ data: JSON.stringify(chunk({ tool_calls: calls.map((c, index) => ({ index, ...c })) }, null)) });
        await stream.writeSSE({ data: JSON.stringify(chunk({}, finishReason(result))) });
        // As OpenAI does: usage alone in a last chunk with no choices, only when asked for.
        if (body.stream_options?.include_usage && result.usage) {
          await stream.writeSSE({ data: JSON.stringify({ ...head, object: "chat.completion.chunk", choices: [], usage: result.usage }) });
        }
      } catch (error) {
        await stream.writeSSE({ data: JSON.stringify(openAiStreamError(error)) });
      }
      await stream.writeSSE({ data: "[DONE]" });
    });
  });
  return app;
}

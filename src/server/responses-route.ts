/**
 * OpenAI's Responses API, `POST /v1/responses`: the default of the OpenAI Agents SDK and of the AI
 * SDK's `openai("…")`. The same turn as `/v1/chat/completions` (openai-turn.ts: the session from
 * the credential, the client's messages as the conversation, the client's function tools pausing
 * the turn), its request read by responses-request.ts and its answer shaped here as a Response
 * object, or as the Responses stream (`response.created` … `response.completed`, each event with
 * its `sequence_number`). A response id names its session and turn (response-id.ts);
 * `previous_response_id` continues that session through the same privacy check as
 * `X-Homed-Session`. Errors are OpenAI's shape (errors.ts); in a stream already begun, an `error`
 * event.
 */
import { type Context, Hono } from "hono";
import { streamSSE } from "hono/streaming";
import { HomedError } from "../errors/index.ts";
import type { Kernel, TurnRequest, TurnResult } from "../kernel/index.ts";
import type { Usage } from "../llm/index.ts";
import type { AuthEnv } from "./auth.ts";
import { openAiStreamError } from "./errors.ts";
import type { ServedModel } from "./openai-models.ts";
import { referencedAnswer } from "./openai-session.ts";
import { finishReason, openAiTurn } from "./openai-turn.ts";
import { messageItemId, newResponseId, previousResponseSession, turnOfMessageItem } from "./response-id.ts";
import { chatForm, refuseUnsupportedResponse, responseParams, ResponsesRequestSchema, type ResponsesRequest } from "./responses-request.ts";
import { parseBody } from "./validate.ts";

/** Usage as the Responses API counts it (homed's is summed over the turn's model calls). */
const responseUsage = (usage: Usage | undefined) =>
  usage
    ? {
        input_tokens: usage.prompt_tokens,
        input_tokens_details: { cached_tokens: 0 },
        output_tokens: usage.completion_tokens,
        output_tokens_details: { reasoning_tokens: 0 },
        total_tokens: usage.total_tokens,
      }
    : null;

/** Why a response is incomplete (an answer cut at max_output_tokens, or filtered), or null when whole. */
function incompleteDetails(result: TurnResult): { reason: "max_output_tokens" | "content_filter" } | null {
  const finish = finishReason(result);
  if (finish === "length") return { reason: "max_output_tokens" };
  return finish === "content_filter" ? { reason: "content_filter" } : null;
}

const messageItem = (id: string, text: string, status: "in_progress" | "completed") => ({
  type: "message" as const,
  id,
  status,
  role: "assistant" as const,
  content: status === "completed" ? [textPart(text)] : [],
});
const textPart = (text: string) => ({ type: "output_text" as const, text, annotations: [], logprobs: [] });

/** The client's calls a paused turn waits for, as `function_call` items (homed's own never leave homed). */
const functionCalls = (result: TurnResult) =>
  (result.paused?.pending ?? []).map((c) => ({
    type: "function_call" as const,
    id: `fc_${c.id}`,
    call_id: c.id,
    name: c.function.name,
    arguments: c.function.arguments,
    status: "completed" as const,
  }));

/** `chatModel`: the chat model a request's `model` names (openai-compat.ts). */
export function responsesRoutes(kernel: Kernel, chatModel: (id: string) => Promise<ServedModel>): Hono<AuthEnv> {
  const app = new Hono<AuthEnv>();

  app.post("/", async (c) => {
    const body = await parseBody(c, ResponsesRequestSchema);
    refuseUnsupportedResponse(body);
    const previous = body.previous_response_id;
    if (previous != null && c.req.header("x-homed-session") !== undefined) {
      throw new HomedError("invalid_request", "previous_response_id: give either previous_response_id or X-Homed-Session, not both", { param: "previous_response_id" });
    }
    const continued = previous != null || c.req.header("x-homed-session") !== undefined;
    // An item_reference to one of homed's answers is its stored text, if this credential may see it.
    const referenced = async (id: string) => {
      const turnId = turnOfMessageItem(id);
      return turnId === undefined ? undefined : await referencedAnswer(kernel, c, body.user, turnId);
    };
    const form = await chatForm(body, continued, referenced);
    const params = responseParams(body);
    const { turn, model } = await openAiTurn(kernel, c, form, { chatModel, params, field: "input", ...(previous != null ? { named: previousResponseSession(previous) } : {}) });
    const { turnId, responseId } = newResponseId(turn.session.id, body.store !== false);
    turn.turnId = turnId;
    const messageId = messageItemId(turnId);
    const created_at = Math.floor(Date.now() / 1000);

    /** The Response object around its output, as the request configured it. */
    const response = (status: string, output: object[], result?: TurnResult) => ({
      id: responseId,
      object: "response",
      created_at,
      status,
      background: false,
      error: null,
      incomplete_details: result ? incompleteDetails(result) : null,
      instructions: body.instructions ?? null,
      max_output_tokens: body.max_output_tokens ?? null,
      model: model.id,
      output,
      parallel_tool_calls: body.parallel_tool_calls ?? true,
      previous_response_id: previous ?? null,
      store: body.store !== false,
      temperature: body.temperature ?? null,
      text: { format: body.text?.format ?? { type: "text" } },
      tool_choice: body.tool_choice ?? "auto",
      tools: body.tools ?? [],
      top_p: body.top_p ?? null,
      truncation: body.truncation ?? "disabled",
      usage: responseUsage(result?.usage),
      user: body.user ?? null,
      metadata: body.metadata ?? {},
    });
    const finalStatus = (result: TurnResult) => (incompleteDetails(result) ? "incomplete" : "completed");

    if (!body.stream) {
      const result = await kernel.turn(turn);
      const output = [...(result.text || !result.paused ? [messageItem(messageId, result.text, "completed")] : []), ...functionCalls(result)];
      return c.json(response(finalStatus(result), output, result));
    }
    return streamResponse(c, kernel, turn, { body, messageId, response, finalStatus });
  });
  return app;
}

type Shape = {
  body: ResponsesRequest;
  messageId: string;
  response: (status: string, output: object[], result?: TurnResult) => object;
  finalStatus: (result: TurnResult) => string;
};

/**
 * The Responses stream: `response.created` and `response.in_progress`; the message item opened at
 * the first text (`output_item.added`, `content_part.added`), its `output_text.delta`s, closed at
 * the end (`output_text.done`, `content_part.done`, `output_item.done`); then each client call as a
 * `function_call` item with its arguments; last `response.completed` (or `response.incomplete`)
 * with the whole Response and its usage.
 */
function streamResponse(c: Context<AuthEnv>, kernel: Kernel, turn: TurnRequest, shape: Shape) {
  const { messageId, response, finalStatus } = shape;
  return streamSSE(c, async (stream) => {
    const controller = new AbortController();
    stream.onAbort(() => controller.abort(new Error("client disconnected")));
    let sequence = 0;
    // Events are written in order: a delta's write is chained after the one before it.
    let written: Promise<unknown> = Promise.resolve();
    const send = (type: string, fields: object) => {
      const data = JSON.stringify({ type, sequence_number: sequence++, ...fields });
      // A write to a client gone fails; the turn is cancelled by onAbort, so nothing is left to say.
      written = written.then(() => stream.writeSSE({ event: type, data })).catch(() => {});
      return written;
    };
    const output: object[] = [];
    let text: string | undefined;
    const openMessage = () => {
      if (text !== undefined) return;
      text = "";
      void send("response.output_item.added", { output_index: 0, item: messageItem(messageId, "", "in_progress") });
      void send("response.content_part.added", { item_id: messageId, output_index: 0, content_index: 0, part: textPart("") });
    };
    const delta = (piece: string) => {
      openMessage();
      text += piece;
      void send("response.output_text.delta", { item_id: messageId, output_index: 0, content_index: 0, delta: piece, logprobs: [] });
    };

    await send("response.created", { response: response("in_progress", []) });
    await send("response.in_progress", { response: response("in_progress", []) });
    try {
      const result = await kernel.turn({
        ...turn,
        signal: controller.signal,
        onEvent: (e) => {
          if (e.type === "content" && e.text) delta(e.text);
        },
      });
      // An answer that came without deltas (a stage's reply, a blocked input) is still the answer.
      if (text === undefined && (result.text || !result.paused)) delta(result.text);
      if (text !== undefined) {
        const item = messageItem(messageId, text, "completed");
        void send("response.output_text.done", { item_id: messageId, output_index: 0, content_index: 0, text, logprobs: [] });
        void send("response.content_part.done", { item_id: messageId, output_index: 0, content_index: 0, part: textPart(text) });
        void send("response.output_item.done", { output_index: 0, item });
        output.push(item);
      }
      for (const call of functionCalls(result)) {
        const output_index = output.length;
        void send("response.output_item.added", { output_index, item: { ...call, arguments: "", status: "in_progress" } });
        void send("response.function_call_arguments.delta", { item_id: call.id, output_index, delta: call.arguments });
        void send("response.function_call_arguments.done", { item_id: call.id, output_index, name: call.name, arguments: call.arguments });
        void send("response.output_item.done", { output_index, item: call });
        output.push(call);
      }
      const status = finalStatus(result);
      await send(status === "completed" ? "response.completed" : "response.incomplete", { response: response(status, output, result) });
    } catch (error) {
      // As OpenAI's stream says it: the error's fields, and the same as `error` (what the SDKs read).
      const { error: body } = openAiStreamError(error);
      await send("error", { code: body.code, message: body.message, param: body.param, error: body });
    }
  });
}

/**
 * OpenAI-compatible `/v1/chat/completions` and `/v1/models`: any OpenAI client pointed at homed
 * gets an agent with memory. homed keeps the history itself, so only the newest user message of
 * the request is taken as input; the session comes from the `X-Homed-Session` header (a session
 * id) or the `user` field (a partner on channel "openai"), else partner "default".
 */
import { randomUUID } from "node:crypto";
import { Hono } from "hono";
import { streamSSE } from "hono/streaming";
import { z } from "zod";
import { contentText } from "../context/index.ts";
import type { Kernel } from "../kernel/index.ts";
import { ApiError } from "./errors.ts";
import { turnError } from "./turn-errors.ts";
import { parseBody } from "./validate.ts";

export const HOMED_MODEL_ID = "homed";

const CompletionRequestSchema = z.object({
  model: z.string().min(1),
  messages: z
    .array(z.object({ role: z.string(), content: z.union([z.string(), z.array(z.object({ type: z.string(), text: z.string().optional() }).loose()), z.null()]).optional() }).loose())
    .min(1),
  stream: z.boolean().optional(),
  user: z.string().max(200).optional(),
});

export function openAiRoutes(kernel: Kernel): Hono {
  const app = new Hono();

  app.get("/models", (c) =>
    c.json({ object: "list", data: [{ id: HOMED_MODEL_ID, object: "model", created: 0, owned_by: "homed" }] }),
  );

  app.post("/chat/completions", async (c) => {
    const body = await parseBody(c, CompletionRequestSchema);
    const lastUser = [...body.messages].reverse().find((m) => m.role === "user");
    const input = lastUser ? contentText(lastUser.content as never).trim() : "";
    if (!input) throw new ApiError(400, "invalid_request", "messages: the request has no user message with text");
    const headerSession = c.req.header("x-homed-session");
    const session = headerSession ? await kernel.sessions.get(headerSession) : await kernel.sessions.open("openai", body.user ?? "default");
    if (!session) throw new ApiError(404, "session_not_found", `No session with id ${headerSession}`);

    const id = `chatcmpl-${randomUUID()}`;
    const created = Math.floor(Date.now() / 1000);
    const chunk = (delta: object, finish: string | null) => ({ id, object: "chat.completion.chunk", created, model: HOMED_MODEL_ID, choices: [{ index: 0, delta, finish_reason: finish }] });

    if (!body.stream) {
      try {
        const result = await kernel.turn({ session, input });
        return c.json({
          id,
          object: "chat.completion",
          created,
          model: HOMED_MODEL_ID,
          choices: [{ index: 0, message: { role: "assistant", content: result.text }, finish_reason: "stop" }],
        });
      } catch (error) {
        throw turnError(error) ?? error;
      }
    }
    return streamSSE(c, async (stream) => {
      const controller = new AbortController();
      stream.onAbort(() => controller.abort(new Error("client disconnected")));
      await stream.writeSSE({ data: JSON.stringify(chunk({ role: "assistant", content: "" }, null)) });
      try {
        await kernel.turn({
          session,
          input,
          signal: controller.signal,
          onEvent: (e) => {
            if (e.type === "content") void stream.writeSSE({ data: JSON.stringify(chunk({ content: e.text }, null)) });
          },
        });
        await stream.writeSSE({ data: JSON.stringify(chunk({}, "stop")) });
      } catch (error) {
        const api = turnError(error);
        await stream.writeSSE({ data: JSON.stringify({ error: { message: api?.message ?? "The turn failed; see the log.", type: api?.error ?? "internal" } }) });
      }
      await stream.writeSSE({ data: "[DONE]" });
    });
  });
  return app;
}

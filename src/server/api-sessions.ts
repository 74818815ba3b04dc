/**
 * `/api/sessions`: list and create sessions, send a message (the answer streams back as SSE),
 * and export a session's L1 context dump.
 */
import { Hono } from "hono";
import { streamSSE } from "hono/streaming";
import { z } from "zod";
import { exportContextDump } from "../context/index.ts";
import type { Kernel, TurnEvent } from "../kernel/index.ts";
import type { Logger } from "../log/index.ts";
import { HomedError } from "../errors/index.ts";
import { publicError } from "./errors.ts";
import { parseBody } from "./validate.ts";

const CreateSessionSchema = z.object({
  channel: z.string().min(1).max(100).default("console"),
  partner: z.string().min(1).max(200),
  title: z.string().max(200).optional(),
});

const SendMessageSchema = z.object({ content: z.string().min(1).max(200_000) });

export function sessionRoutes(kernel: Kernel, log: Pick<Logger, "error">): Hono {
  const app = new Hono();
  const sessionOr404 = async (id: string) => {
    const session = await kernel.sessions.get(id);
    if (!session) throw new HomedError("session_not_found", `No session with id ${id}`);
    return session;
  };

  app.get("/", async (c) => c.json({ sessions: await kernel.sessions.list() }));

  app.post("/", async (c) => {
    const body = await parseBody(c, CreateSessionSchema);
    return c.json(await kernel.sessions.open(body.channel, body.partner, body.title), 201);
  });

  app.get("/:id/context", async (c) => {
    const session = await sessionOr404(c.req.param("id"));
    return c.json(await exportContextDump(kernel.client, session.id));
  });

  app.post("/:id/messages", async (c) => {
    const session = await sessionOr404(c.req.param("id"));
    const { content } = await parseBody(c, SendMessageSchema);
    return streamSSE(c, async (stream) => {
      const controller = new AbortController();
      // A client that goes away cancels the turn; what was said so far stays in history.
      stream.onAbort(() => controller.abort(new Error("client disconnected")));
      const send = (event: string, data: unknown) => stream.writeSSE({ event, data: JSON.stringify(data) });
      const onEvent = (e: TurnEvent) => void send(e.type, e);
      try {
        const result = await kernel.turn({ session, input: content, signal: controller.signal, onEvent });
        await send("done", result);
      } catch (error) {
        const known = publicError(error);
        if (!known) log.error(`turn in session ${session.id} failed: ${(error as Error).stack ?? error}`);
        await send("error", known ? { error: known.error, message: known.message } : { error: "internal", message: "The turn failed; see the log." });
      }
    });
  });
  return app;
}

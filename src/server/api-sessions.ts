/**
 * `/api/sessions`: list, create and rename sessions, send a message (the answer streams back as SSE),
 * and export a session's L1 context dump.
 */
import { Hono } from "hono";
import { streamSSE } from "hono/streaming";
import { z } from "zod";
import { exportContextDump, type ContextEvent } from "../context/index.ts";
import { NoProviderError, VOICE_MAX_BYTES, type Deleted, type Kernel, type PermissionAnswer, type Session, type TurnEvent, type TurnFailure, type TurnResult } from "../kernel/index.ts";
import type { Logger } from "../log/index.ts";
import { auditBy } from "./auth.ts";
import { randomUUID } from "node:crypto";
import { HomedError } from "../errors/index.ts";
import { publicError } from "./errors.ts";
import { clientTools as parseClientTools } from "./openai-request.ts";
import { firstExchange, modelTitle } from "./conversation-title.ts";
import { parseBody } from "./validate.ts";

const CreateSessionSchema = z.object({
  channel: z.string().min(1).max(100).default("console"),
  partner: z.string().min(1).max(200),
  title: z.string().max(200).optional(),
  /** true: a new conversation beside the partner's others on this channel; else the channel's own one (made on first contact). */
  new: z.boolean().optional(),
});

/** A conversation's name; empty or null clears it (the console then shows the partner). */
const RenameSessionSchema = z.object({ title: z.string().trim().max(200).nullable() });

/** A voice message (the console's microphone, `homed acp`'s audio): checked for size before its base64 is. */
const VoiceSchema = z.object({
  data: z
    .string()
    .refine((data) => Math.floor((data.length * 3) / 4) <= VOICE_MAX_BYTES, `a voice message is at most ${VOICE_MAX_BYTES / 1024 / 1024} MiB`)
    .pipe(z.base64("audio.data is the recording in base64")),
  mime: z
    .string()
    .max(100)
    .regex(/^audio\/[\w.+-]+(;.*)?$/, "audio.mime is an audio type (audio/webm, audio/wav…)"),
  /** Where it was recorded (`console`, `acp`): kept with its block. */
  source: z.enum(["console", "acp"]).default("console"),
});

const SendMessageSchema = z
  .object({
    content: z.string().max(200_000).optional(),
    /** A voice message, heard through the transcription endpoint when one is configured (kernel/voice.ts). */
    audio: VoiceSchema.optional(),
    /** Photos sent with the message (the console's paste), as data URLs: stored as image blocks, embedded by the image model. */
    images: z
      .array(
        z.object({
          url: z
            .string()
            .max(20_000_000)
            .regex(/^data:image\/(png|jpeg|webp|gif);base64,[A-Za-z0-9+/=]+$/, "expected a data:image/(png|jpeg|webp|gif);base64 URL"),
        }),
      )
      .min(1)
      .max(8)
      .optional(),
    /**
     * A live event of this conversation: it and everything after it are forgotten (Sessions.rewind
     * says why) and `content` takes their place — regenerate, edit and resend, retry.
     */
    replace: z.string().min(1).max(100).optional(),
    /**
     * Ask over this stream before shell and terminal tools run (`homed acp` does): each such call
     * is a `permission` event, answered by POST /api/sessions/:id/permissions/:request.
     */
    ask: z.boolean().optional(),
    /**
     * The caller's own tools, offered to the model beside homed's (`homed acp` offers the editor's
     * MCP servers' tools so): a round that calls one ends the turn `client_tools` with the calls in
     * `done.paused.pending`, and the caller runs them and sends their `toolResults`.
     */
    tools: z
      .array(z.looseObject({ type: z.string() }))
      .max(500)
      .optional(),
    /** Results for the paused turn's calls: the turn goes on (no `content` then). */
    toolResults: z
      .array(z.object({ tool_call_id: z.string().min(1), content: z.string().max(1_000_000) }))
      .min(1)
      .optional(),
  })
  .refine((m) => (m.content === undefined && m.audio === undefined) !== (m.toolResults === undefined), "send either content or audio (a new message) or toolResults (for the paused turn's calls)")
  .refine((m) => m.replace === undefined || m.content !== undefined || m.audio !== undefined, "replace goes with content (the message that takes the replaced events' place)")
  .refine((m) => m.content === undefined || m.content.length > 0 || m.images !== undefined || m.audio !== undefined, { message: "content is empty (send some text, or images)", path: ["content"] });

/**
 * Name the conversation by the model, unless it was renamed meanwhile: `ifTitle` is the title
 * the caller saw (the one from the first message, or null), and a different one now is kept.
 */
const ModelTitleSchema = z.object({ ifTitle: z.string().max(200).nullable() });

/** `?memory=forget`: forget what was said in it too; else (`keep`, the default) it stays as cold history. */
const DeleteSessionSchema = z.object({ memory: z.enum(["keep", "forget"]).default("keep") });

const PermissionAnswerSchema = z.object({ allow: z.boolean(), reason: z.string().max(2000).optional() });

/** `GET /api/sessions`: every conversation. */
export type SessionsAnswer = { sessions: Session[] };
/** `DELETE /api/sessions/:id`: how many live events sank to cold history, or how many events were forgotten. */
export type DeletedAnswer = Deleted;
/** `GET /api/sessions/:id/context`: the conversation's live events, each with its messages. */
export type ContextAnswer = ContextEvent[];
/** `POST /api/sessions/:id/title`: the conversation, and the title the model gave (null: none usable, or it was renamed meanwhile). */
export type ModelTitleAnswer = { session: Session; title: string | null };
/** `GET /api/sessions/:id/failure`: the conversation's last turn, if it failed (else null). */
export type FailureAnswer = { failure: TurnFailure | null };
/** What `POST /api/sessions/:id/messages` streams, by event name: each turn event under its type, then the result or the error. */
export type MessageEvents = { [E in TurnEvent as E["type"]]: E } & {
  done: TurnResult;
  error: { error: string; message: string };
  permission: { request: string; call: { id: string; name: string; arguments: string } };
};

export function sessionRoutes(kernel: Kernel, log: Pick<Logger, "error" | "info" | "audit">): Hono {
  const app = new Hono();
  const sessionOr404 = async (id: string) => {
    const session = await kernel.sessions.get(id);
    if (!session) throw new HomedError("session_not_found", `No session with id ${id}`);
    return session;
  };

  /** Permission questions waiting for their answer, by session and request id. */
  const asked = new Map<string, (answer: PermissionAnswer) => void>();

  app.get("/", async (c) => c.json<SessionsAnswer>({ sessions: await kernel.sessions.list() }));

  app.post("/", async (c) => {
    const body = await parseBody(c, CreateSessionSchema);
    const session = body.new ? await kernel.sessions.start(body.channel, body.partner, body.title) : await kernel.sessions.open(body.channel, body.partner, body.title);
    return c.json(session, 201);
  });

  app.patch("/:id", async (c) => {
    const id = c.req.param("id");
    const { title } = await parseBody(c, RenameSessionSchema);
    if (!(await kernel.sessions.rename(id, title || null))) throw new HomedError("session_not_found", `No session with id ${id}`);
    return c.json(await sessionOr404(id));
  });

  /** Deletes the conversation (Sessions.remove says what happens to its memory); the answer counts what sank or was forgotten. */
  app.delete("/:id", async (c) => {
    const id = c.req.param("id");
    const query = DeleteSessionSchema.safeParse(c.req.query());
    if (!query.success) throw new HomedError("invalid_request", `memory: ${query.error.issues[0]!.message}`);
    const deleted = await kernel.sessions.remove(id, { forget: query.data.memory === "forget" });
    if (!deleted) throw new HomedError("session_not_found", `No session with id ${id}`);
    log.audit({
      event: "conversation_deleted",
      ...auditBy(c),
      outcome: "ok",
      detail: `console deleted conversation ${id} (${query.data.memory === "forget" ? `${deleted.forgotten} events forgotten` : `${deleted.sunk} live events sank to cold history`})`,
    });
    return c.json<DeletedAnswer>(deleted);
  });

  app.get("/:id/context", async (c) => {
    const session = await sessionOr404(c.req.param("id"));
    return c.json<ContextAnswer>(await exportContextDump(kernel.client, session.id));
  });

  app.get("/:id/failure", async (c) => {
    const session = await sessionOr404(c.req.param("id"));
    return c.json<FailureAnswer>({ failure: (await kernel.sessions.failure(session.id)) ?? null });
  });

  app.post("/:id/title", async (c) => {
    const session = await sessionOr404(c.req.param("id"));
    const { ifTitle } = await parseBody(c, ModelTitleSchema);
    const exchange = firstExchange(await exportContextDump(kernel.client, session.id));
    if (!exchange) throw new HomedError("invalid_request", `Session ${session.id} has no answered question to name it by yet`);
    const provider = await kernel.providers.active();
    if (!provider) throw new NoProviderError();
    const title = await modelTitle(provider, exchange);
    // The model's words took a moment: a name given meanwhile (the person's) wins.
    if (title === undefined || (await sessionOr404(session.id)).title !== ifTitle) return c.json<ModelTitleAnswer>({ session: await sessionOr404(session.id), title: null });
    await kernel.sessions.rename(session.id, title);
    return c.json<ModelTitleAnswer>({ session: await sessionOr404(session.id), title });
  });

  app.post("/:id/messages", async (c) => {
    const session = await sessionOr404(c.req.param("id"));
    const { content, audio, images, replace, ask, tools, toolResults } = await parseBody(c, SendMessageSchema);
    if (replace !== undefined && (await kernel.sessions.rewind(session.id, replace)) === undefined) {
      throw new HomedError("not_found", `No live event ${replace} in session ${session.id} to replace`);
    }
    const clientTools = tools
      ? parseClientTools(
          { tools },
          kernel.tools.specs().map((t) => t.function.name),
        )
      : undefined;
    return streamSSE(c, async (stream) => {
      const controller = new AbortController();
      // A client that goes away cancels the turn; what was said so far stays in history.
      stream.onAbort(() => controller.abort(new Error("client disconnected")));
      const send = <E extends keyof MessageEvents>(event: E, data: MessageEvents[E]) => stream.writeSSE({ event, data: JSON.stringify(data) });
      const onEvent = (e: TurnEvent) => void send(e.type, e as MessageEvents[typeof e.type]);
      const unregister = ask
        ? kernel.permissions.register(session.id, (call, timeout) => {
            const request = randomUUID();
            const key = `${session.id}/${request}`;
            return new Promise<PermissionAnswer>((resolve) => {
              const settle = (answer: PermissionAnswer) => {
                asked.delete(key);
                resolve(answer);
              };
              asked.set(key, settle);
              // Nobody left to answer: the call is refused, never run unasked.
              const gone = () => settle({ allow: false, reason: "the client went away" });
              if (controller.signal.aborted) return gone();
              controller.signal.addEventListener("abort", gone, { once: true });
              timeout.addEventListener("abort", () => asked.delete(key), { once: true });
              void send("permission", { request, call: { id: call.id, name: call.function.name, arguments: call.function.arguments } });
            });
          })
        : undefined;
      try {
        const voice = audio ? { audio: [{ bytes: Buffer.from(audio.data, "base64"), mime: audio.mime, source: audio.source }] } : {};
        const pictures = images?.map((image) => ({ type: "image_url" as const, image_url: { url: image.url } }));
        const result = await kernel.turn({
          session,
          input: content ?? "",
          ...voice,
          signal: controller.signal,
          onEvent,
          ...(pictures ? { images: pictures } : {}),
          ...(clientTools ? { clientTools } : {}),
          ...(toolResults ? { toolResults } : {}),
        });
        await kernel.sessions.recordFailure(session.id, null);
        await send("done", result);
      } catch (error) {
        const known = publicError(error);
        if (!known) log.error(`turn in session ${session.id} failed: ${(error as Error).stack ?? error}`);
        const failed = known ? { error: known.error, message: known.message } : { error: "internal", message: "The turn failed; see the log." };
        // Kept with the conversation: a page loaded later shows it and can send the message again.
        if (content !== undefined) await kernel.sessions.recordFailure(session.id, { ...failed, input: content, time: new Date().toISOString() });
        await send("error", failed);
      } finally {
        unregister?.();
      }
    });
  });

  app.post("/:id/permissions/:request", async (c) => {
    const answer = await parseBody(c, PermissionAnswerSchema);
    const settle = asked.get(`${c.req.param("id")}/${c.req.param("request")}`);
    if (!settle) throw new HomedError("not_found", `No permission question ${c.req.param("request")} is waiting in session ${c.req.param("id")} (answered, timed out, or its turn ended)`);
    settle(answer.allow ? { allow: true } : { allow: false, reason: answer.reason ?? "refused" });
    return c.body(null, 204);
  });
  return app;
}

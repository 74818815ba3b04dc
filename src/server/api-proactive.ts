/**
 * `/api/proactive`: the turns homed starts itself (a reminder due, new feed items, a terminal's
 * exit when asked). `GET events` is a Server-Sent Events stream of their answers as they come —
 * `woken` events, each a LiveMessage — for the sessions the caller may see (`?client=chat&session=ID`:
 * `homed chat` attached to one session). `GET mutes` and `PUT mutes` read and change what is
 * silenced: a muted source (a plugin) wakes no turn, a muted session is neither woken nor told.
 */
import { Hono } from "hono";
import { streamSSE } from "hono/streaming";
import { z } from "zod";
import { HomedError } from "../errors/index.ts";
import { maySeeSession } from "../memory/index.ts";
import type { Kernel, Mutes, ProactiveMutes } from "../kernel/index.ts";
import type { AuthEnv } from "./auth.ts";
import type { LiveDeliveries, LiveMessage } from "./live-deliveries.ts";
import { accessOf } from "./request-access.ts";
import { parseBody } from "./validate.ts";

/** A comment this often keeps an idle stream open through the server's idle timeout (120 s) and proxies'. */
const KEEPALIVE_MS = 25_000;

const StreamQuerySchema = z.object({ client: z.enum(["console", "chat"]).default("console"), session: z.string().min(1).max(100).optional() });

const MuteSchema = z.object({ kind: z.enum(["source", "session"]), name: z.string().min(1).max(200), muted: z.boolean() });

/** What `GET /api/proactive/events` streams, by event name. */
export type ProactiveEvents = { woken: LiveMessage };
/** `GET` and `PUT /api/proactive/mutes`. */
export type MutesAnswer = Mutes;

/** `stopping`: the daemon's stop, which ends every open stream at once (an open console must not hold the stop for its grace). */
export function proactiveRoutes(kernel: Pick<Kernel, "sessions">, live: LiveDeliveries, mutes: ProactiveMutes, stopping?: AbortSignal): Hono<AuthEnv> {
  const app = new Hono<AuthEnv>();

  app.get("/events", (c) => {
    const query = StreamQuerySchema.safeParse(c.req.query());
    if (!query.success) throw new HomedError("invalid_request", `${query.error.issues[0]!.path.join(".")}: ${query.error.issues[0]!.message}`);
    const access = accessOf(c);
    return streamSSE(c, async (stream) => {
      const closed = new Promise<void>((resolve) => {
        stream.onAbort(resolve);
        if (stopping?.aborted) resolve();
        stopping?.addEventListener("abort", () => resolve(), { once: true });
      });
      const unsubscribe = live.subscribe({
        access,
        client: query.data.client,
        session: query.data.session,
        send: (message) => void stream.writeSSE({ event: "woken", data: JSON.stringify(message), id: message.eventId ?? "" }).catch(() => {}),
      });
      // Headers and a first line at once: the client knows it is listening.
      await stream.write(": listening\n\n");
      const keepalive = setInterval(() => void stream.write(": keepalive\n\n").catch(() => {}), KEEPALIVE_MS);
      try {
        await closed;
      } finally {
        clearInterval(keepalive);
        unsubscribe();
      }
    });
  });

  app.get("/mutes", (c) => c.json<MutesAnswer>(mutes.list()));

  app.put("/mutes", async (c) => {
    const { kind, name, muted } = await parseBody(c, MuteSchema);
    if (kind === "session") {
      const session = await kernel.sessions.get(name);
      if (!session || !maySeeSession(accessOf(c), session)) throw new HomedError("session_not_found", `No session with id ${name}`);
    }
    return c.json<MutesAnswer>(await mutes.set({ kind, name }, muted));
  });

  return app;
}

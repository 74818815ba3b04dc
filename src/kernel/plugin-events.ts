/**
 * Events plugins push through their rings, as input for the session they name (`session`, set
 * by the SDK from the tool call that asked for them — a terminal's pushes name the session that
 * created it). Every event is logged with its plugin; one naming a session waits for that
 * session's next turn and is given to the model then, in the system message (pre_action), oldest
 * first. An event naming no session reaches no turn, and says so in the log.
 */
import { z } from "zod";
import type { PluginHost } from "../plugins/index.ts";
import type { Participant } from "./stages.ts";

/** Per session, the newest events kept until its next turn; older ones are dropped and counted. */
export const MAX_PENDING_EVENTS = 50;
/** An event longer than this (as JSON) is cut, so one chatty terminal cannot fill the window. */
export const MAX_EVENT_CHARS = 8000;
/** Sessions with events waiting at once; a plugin naming more is refused and counted. */
const MAX_SESSIONS_WAITING = 1000;

const Addressed = z.looseObject({ session: z.string().min(1).optional(), type: z.string().optional() });

export type PluginEventLog = { info(line: string): void; warn(line: string): void };
export type PluginEventInbox = { participant: Participant; stop(): void };

export function pluginEventInbox(host: PluginHost, log: PluginEventLog): PluginEventInbox {
  const waiting = new Map<string, string[]>();
  const stop = host.onEvent((plugin, event) => {
    const parsed = Addressed.safeParse(event);
    const json = JSON.stringify(event);
    const what = `plugin ${plugin} pushed ${parsed.success && parsed.data.type ? parsed.data.type : "an event"} (${json.length} chars)`;
    const session = parsed.success ? parsed.data.session : undefined;
    if (session === undefined) return log.info(`${what}; it names no session, so no turn receives it`);
    const queue = waiting.get(session) ?? [];
    if (queue.length === 0 && waiting.size >= MAX_SESSIONS_WAITING) return log.warn(`${what} for session ${session}: dropped, ${MAX_SESSIONS_WAITING} sessions already have events waiting`);
    queue.push(`[${plugin}] ${json.length > MAX_EVENT_CHARS ? `${json.slice(0, MAX_EVENT_CHARS)}… (${json.length - MAX_EVENT_CHARS} more chars cut)` : json}`);
    waiting.set(session, queue);
    log.info(`${what} for session ${session}: waiting for its next turn`);
    if (queue.length > MAX_PENDING_EVENTS) {
      const dropped = queue.splice(0, queue.length - MAX_PENDING_EVENTS).length;
      log.warn(`session ${session}: ${dropped} older pushed event dropped, more than ${MAX_PENDING_EVENTS} waiting for its next turn`);
    }
  });
  const participant: Participant = {
    name: "plugin-events",
    hooks: {
      pre_action({ sessionId }) {
        const events = waiting.get(sessionId);
        if (!events) return;
        waiting.delete(sessionId);
        return {
          inject: `Events pushed by plugins since the last turn, oldest first:\n${events.join("\n")}`,
          report: { events: events.length },
        };
      },
    },
  };
  return { participant, stop };
}

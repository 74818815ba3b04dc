/**
 * Events plugins push through their rings, as input for the session they name (`session`, set
 * by the SDK from the tool call that asked for them — a terminal's pushes name the session that
 * created it). Every event is logged with its plugin; one naming a session waits for that
 * session's next turn and is given to the model then, in the system message (pre_action), oldest
 * first. An event naming no session reaches no turn, and says so in the log. An event marked
 * `urgent: true` does not wait: it wakes a turn of its session at once (`wake`), at most one
 * every WAKE_INTERVAL_MS per session — urgent events inside the interval are woken for together
 * when it ends, so a plugin cannot make the model run in a loop.
 */
import { z } from "zod";
import type { PluginHost } from "../plugins/index.ts";
import type { Kernel } from "./kernel.ts";
import type { Participant } from "./stages.ts";

/** Per session, the newest events kept until its next turn; older ones are dropped and counted. */
export const MAX_PENDING_EVENTS = 50;
/** An event longer than this (as JSON) is cut, so one chatty terminal cannot fill the window. */
export const MAX_EVENT_CHARS = 8000;
/** Sessions with events waiting at once; a plugin naming more is refused and counted. */
const MAX_SESSIONS_WAITING = 1000;

/** Per session, at most one woken turn this often (a turn itself takes seconds of a model). */
export const WAKE_INTERVAL_MS = 5000;

const Addressed = z.looseObject({ session: z.string().min(1).optional(), type: z.string().optional(), urgent: z.boolean().optional() });

export type PluginEventLog = { info(line: string): void; warn(line: string): void };
export type PluginEventInbox = { participant: Participant; stop(): void };
/** Runs a turn of the session now; the waiting events reach it through pre_action like any others. */
export type Wake = (sessionId: string, plugin: string) => Promise<unknown>;

/** A Wake through the kernel: a turn of the session, its input saying why it runs. */
export function kernelWake(kernel: Pick<Kernel, "sessions" | "turn">, log: PluginEventLog): Wake {
  return async (sessionId, plugin) => {
    const session = await kernel.sessions.get(sessionId);
    if (!session) return log.warn(`plugin ${plugin} pushed an urgent event for session ${sessionId}: no such session, nothing woken`);
    const result = await kernel.turn({ session, input: `[homed: woken by an urgent event from plugin ${plugin}; the events are in the system message]` });
    log.info(`session ${sessionId}: turn woken by plugin ${plugin} ended (${result.stopReason})`);
  };
}

export function pluginEventInbox(host: PluginHost, log: PluginEventLog, wake?: Wake): PluginEventInbox {
  const waiting = new Map<string, string[]>();
  /** When each session was last woken, and the sessions with a wake already planned. */
  const lastWake = new Map<string, number>();
  const planned = new Map<string, ReturnType<typeof setTimeout>>();
  const wakeSoon = (session: string, plugin: string) => {
    if (!wake || planned.has(session)) return;
    const wait = Math.max(0, (lastWake.get(session) ?? -Infinity) + WAKE_INTERVAL_MS - Date.now());
    if (wait > 0) log.info(`session ${session}: urgent event from plugin ${plugin} wakes a turn in ${wait} ms (one every ${WAKE_INTERVAL_MS} ms)`);
    const timer = setTimeout(() => {
      planned.delete(session);
      // Nothing left to tell: the events went with a turn that ran meanwhile.
      if (!waiting.has(session)) return;
      lastWake.set(session, Date.now());
      log.info(`session ${session}: woken by an urgent event from plugin ${plugin}`);
      wake(session, plugin).catch((error: unknown) => log.warn(`session ${session}: the turn woken by plugin ${plugin} failed: ${(error as Error).message}`));
    }, wait);
    planned.set(session, timer);
  };
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
    if (parsed.success && parsed.data.urgent) wakeSoon(session, plugin);
    else log.info(`${what} for session ${session}: waiting for its next turn`);
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
  return {
    participant,
    stop() {
      stop();
      for (const timer of planned.values()) clearTimeout(timer);
      planned.clear();
    },
  };
}

/**
 * Events plugins push through their rings, as input for the session they name (`session`, set
 * by the SDK from the tool call that asked for them — a terminal's pushes name the session that
 * created it). Every event is logged with its plugin; one naming a session waits for that
 * session's next turn and is given to the model then, in the system message (pre_action), oldest
 * first. An event naming no session reaches no turn, and says so in the log. An event marked
 * `urgent: true` does not wait: it wakes a turn of its session at once (`wake`), at most one
 * every WAKE_INTERVAL_MS per session — urgent events inside the interval are woken for together
 * when it ends, so a plugin cannot make the model run in a loop.
 *
 * Proactive turns (issue 29): an event naming no session goes to the person's home session when
 * homed.json names one (`proactive.homeSession`); a muted source's urgent events wake nothing and
 * a muted session is never woken (ProactiveMutes) — their events wait for the next turn. The
 * woken turn's answer goes out through Outbound to wherever the person is (console, `homed chat`,
 * QQ…), unless the session was muted meanwhile.
 */
import { randomUUID } from "node:crypto";
import { z } from "zod";
import type { PluginHost } from "../plugins/index.ts";
import type { Kernel } from "./kernel.ts";
import type { Outbound, OutboundSource } from "./outbound.ts";
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

/** What a person silenced (ProactiveMutes): checked on every event and before every wake and delivery. */
export type WakeMutes = { sourceMuted(plugin: string): boolean; sessionMuted(sessionId: string): boolean };

export type ProactiveOptions = {
  /** The session that receives events naming none (`proactive.homeSession`). */
  homeSession?: string | undefined;
  mutes?: WakeMutes;
};

/** The built-in plugins whose events say why homed speaks first; any other is a plugin event. */
const SOURCE_KINDS: Record<string, OutboundSource["kind"]> = { calendar: "reminder", rss: "feed", terminal: "terminal" };
export const outboundSource = (plugin: string): OutboundSource => ({ kind: SOURCE_KINDS[plugin] ?? "plugin", plugin });

/** Stop reasons whose answer is not worth telling anyone: nothing was said, or it was cut off. */
const UNTOLD = new Set(["blocked", "cancelled"]);

/**
 * A Wake through the kernel: a turn of the session, its input saying why it runs; its answer then
 * goes out through `outbound` (when given) to wherever the person is.
 */
export function kernelWake(kernel: Pick<Kernel, "sessions" | "turn">, log: PluginEventLog, outbound?: Outbound, mutes?: WakeMutes): Wake {
  return async (sessionId, plugin) => {
    const session = await kernel.sessions.get(sessionId);
    if (!session) return log.warn(`plugin ${plugin} pushed an urgent event for session ${sessionId}: no such session, nothing woken`);
    const turnId = randomUUID();
    const result = await kernel.turn({ session, turnId, input: `[homed: woken by an urgent event from plugin ${plugin}; the events are in the system message]` });
    log.info(`session ${sessionId}: turn woken by plugin ${plugin} ended (${result.stopReason})`);
    if (!outbound || !result.text.trim() || UNTOLD.has(result.stopReason)) return;
    if (mutes?.sessionMuted(sessionId)) return log.info(`session ${sessionId}: muted, the woken answer waits in the session`);
    const reached = await outbound.deliver({ sessionId, text: result.text, source: outboundSource(plugin), eventId: turnId });
    log.info(`session ${sessionId}: woken answer ${reached.length ? `delivered to ${reached.join(", ")}` : "reached no one (it waits in the session)"}`);
  };
}

export function pluginEventInbox(host: PluginHost, log: PluginEventLog, wake?: Wake, { homeSession, mutes }: ProactiveOptions = {}): PluginEventInbox {
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
      // Muted meanwhile: the events wait for the person's next turn there.
      if (mutes?.sessionMuted(session)) return log.info(`session ${session}: muted, nothing woken; the events wait for its next turn`);
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
    const session = (parsed.success ? parsed.data.session : undefined) ?? homeSession;
    if (session === undefined) return log.info(`${what}; it names no session and no proactive.homeSession is set, so no turn receives it`);
    const queue = waiting.get(session) ?? [];
    if (queue.length === 0 && waiting.size >= MAX_SESSIONS_WAITING) return log.warn(`${what} for session ${session}: dropped, ${MAX_SESSIONS_WAITING} sessions already have events waiting`);
    queue.push(`[${plugin}] ${json.length > MAX_EVENT_CHARS ? `${json.slice(0, MAX_EVENT_CHARS)}… (${json.length - MAX_EVENT_CHARS} more chars cut)` : json}`);
    waiting.set(session, queue);
    const urgent = parsed.success && parsed.data.urgent === true;
    if (urgent && mutes?.sourceMuted(plugin)) log.info(`${what} for session ${session}: plugin ${plugin} is muted, so it wakes nothing and waits for the next turn`);
    else if (urgent && mutes?.sessionMuted(session)) log.info(`${what} for session ${session}: the session is muted, so it wakes nothing and waits for the next turn`);
    else if (urgent) wakeSoon(session, plugin);
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

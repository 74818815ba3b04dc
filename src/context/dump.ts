/**
 * The context dump: a JSON array of events, each `{id, time, messages}`, in chronological
 * order — what the daemon exports for a session and `homed context render` reads. Parsed
 * once here; an invalid dump is rejected with the first bad event named.
 */
import type { z } from "zod";
import { ContextEventSchema, type ContextEvent } from "./messages.ts";
import { eventTokens } from "./tokens.ts";
import type { RenderableEvent } from "./render.ts";
import { HomedError } from "../errors/index.ts";

export class ContextDumpError extends HomedError {
  constructor(message: string, options?: { cause?: unknown }) {
    super("context_dump", message, options);
    this.name = "ContextDumpError";
  }
}

function describeIssue(issue: z.core.$ZodIssue): string {
  const path = issue.path
    .map((p) => (typeof p === "number" ? `[${p}]` : `.${String(p)}`))
    .join("")
    .replace(/^\./, "");
  return path ? `${path}: ${issue.message}` : issue.message;
}

function eventLabel(raw: unknown, index: number): string {
  const id = raw && typeof raw === "object" && "id" in raw && typeof raw.id === "string" ? ` (id "${raw.id}")` : "";
  return `event ${index}${id}`;
}

/** Parses the text of a dump; `source` names it in errors. */
export function parseContextDump(text: string, source: string): ContextEvent[] {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (error) {
    throw new ContextDumpError(`Cannot read context dump ${source}: not JSON (${(error as Error).message})`, { cause: error });
  }
  if (!Array.isArray(raw)) throw new ContextDumpError(`Cannot read context dump ${source}: expected a JSON array of events`);
  const events: ContextEvent[] = [];
  const ids = new Set<string>();
  let previousTime = -Infinity;
  raw.forEach((item, index) => {
    const fail = (reason: string): never => {
      throw new ContextDumpError(`Cannot read context dump ${source}: ${eventLabel(item, index)}: ${reason}`);
    };
    const parsed = ContextEventSchema.safeParse(item);
    if (!parsed.success) fail(describeIssue(parsed.error.issues[0]!));
    const event = parsed.data!;
    if (ids.has(event.id)) fail("id used by an earlier event");
    const time = Date.parse(event.time);
    if (time < previousTime) fail(`time ${event.time} is before the previous event's: events must be chronological`);
    ids.add(event.id);
    previousTime = time;
    events.push(event);
  });
  return events;
}

/** Events with their token estimates, ready to render. */
export function toRenderable(events: readonly ContextEvent[]): RenderableEvent[] {
  return events.map((e) => ({ id: e.id, messages: e.messages, tokens: eventTokens(e.messages) }));
}

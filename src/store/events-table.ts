/**
 * Queries on `events` for the console and the kernel, with typed rows. Recall's own queries
 * (full-text, vectors) live with recall in src/memory; these are the plain ones.
 */
import type { Client } from "@libsql/client";
import { and, asc, desc, eq, inArray, isNull, ne, sql } from "drizzle-orm";
import { queryDb, type Executor } from "./query-db.ts";
import { events } from "./schema.ts";

/** What the context inspector shows of each event of a session, in the session's order. */
export type TimelineRow = {
  id: string;
  layer: "L1" | "L2" | "L3";
  time: number;
  role: string | null;
  text: string;
  tokens: number;
  lastAccess: number | null;
  sunkAt: number | null;
};

export function sessionTimeline(client: Client, sessionId: string): Promise<TimelineRow[]> {
  return queryDb(client)
    .select({ id: events.id, layer: events.layer, time: events.time, role: events.role, text: events.text, tokens: events.tokens, lastAccess: events.lastAccess, sunkAt: events.sunkAt })
    .from(events)
    .where(eq(events.sessionId, sessionId))
    .orderBy(asc(events.seq));
}

/** Files the session's live events that have no scene yet under `sceneId`. */
export async function fileLiveEventsInScene(client: Client, sessionId: string, sceneId: string): Promise<void> {
  await queryDb(client)
    .update(events)
    .set({ sceneId })
    // `+layer`: by the layer index SQLite walked every live event of every session (20k live
    // events: 12 ms a turn, vs 0.04 ms through the session's own index).
    .where(and(eq(events.sessionId, sessionId), sql`+${events.layer} = 'L1'`, isNull(events.sceneId)));
}

/** Who alone may recall the event (`partner:NAME` / `project:NAME`), or null: the user's. */
export async function setEventPrivateTo(client: Executor, id: string, privateTo: string | null): Promise<void> {
  await queryDb(client).update(events).set({ privateTo }).where(eq(events.id, id));
}

/** An event as the console's memory browser shows it. */
export type EventRow = {
  id: string;
  layer: "L1" | "L2" | "L3";
  text: string;
  time: number;
  conversation: string;
  scope: "user" | "conversation" | "project";
  /** `partner:NAME` / `project:NAME`, or null: the user's, recalled from every chat. */
  privateTo: string | null;
  sessionId: string;
  speaker: string | null;
  role: string | null;
  sourceId: string | null;
  tokens: number;
  accessCount: number;
};

const EVENT_ROW = {
  id: events.id,
  layer: events.layer,
  text: events.text,
  time: events.time,
  conversation: events.conversation,
  scope: events.scope,
  privateTo: events.privateTo,
  sessionId: events.sessionId,
  speaker: events.speaker,
  role: events.role,
  sourceId: events.sourceId,
  tokens: events.tokens,
  accessCount: events.accessCount,
};

export async function eventsByIds(client: Client, ids: readonly string[]): Promise<EventRow[]> {
  if (ids.length === 0) return [];
  return queryDb(client).select(EVENT_ROW).from(events).where(inArray(events.id, [...ids]));
}

export type EventFilter = {
  layer?: "L1" | "L2" | "L3";
  notLayer?: "L1" | "L2" | "L3";
  /** Text holding this, case-insensitively (a plain substring, not a search). */
  containing?: string;
  scope?: "user" | "conversation" | "project";
  conversation?: string;
  limit: number;
};

/** Events matching every given filter, newest first. */
export function listEvents(client: Client, f: EventFilter): Promise<EventRow[]> {
  const where = [
    f.layer ? eq(events.layer, f.layer) : undefined,
    f.notLayer ? ne(events.layer, f.notLayer) : undefined,
    f.containing ? sql`instr(lower(${events.text}), lower(${f.containing})) > 0` : undefined,
    f.scope ? eq(events.scope, f.scope) : undefined,
    f.conversation ? eq(events.conversation, f.conversation) : undefined,
  ];
  return queryDb(client)
    .select(EVENT_ROW)
    .from(events)
    .where(and(...where))
    .orderBy(desc(events.time), desc(events.seq))
    .limit(f.limit);
}

/** Events, tokens and characters per layer (only the layers that hold any). */
export function layerTotals(client: Client): Promise<{ layer: "L1" | "L2" | "L3"; events: number; tokens: number; chars: number }[]> {
  return queryDb(client)
    .select({
      layer: events.layer,
      events: sql<number>`COUNT(*)`,
      tokens: sql<number>`COALESCE(SUM(${events.tokens}), 0)`,
      chars: sql<number>`COALESCE(SUM(length(${events.text})), 0)`,
    })
    .from(events)
    .groupBy(events.layer);
}

/** How many memories were written each day, by the layer each is in now (oldest day first). */
export function writtenPerDay(client: Client): Promise<{ layer: "L1" | "L2" | "L3"; day: string; n: number }[]> {
  const day = sql<string>`date(${events.createdAt} / 1000, 'unixepoch')`;
  return queryDb(client)
    .select({ layer: events.layer, day, n: sql<number>`COUNT(*)` })
    .from(events)
    .groupBy(events.layer, day)
    .orderBy(day);
}

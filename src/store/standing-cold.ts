/**
 * Cold events in steady use: the model has cited (or recalled) them at least `minAccesses` times.
 * Cooling never distills those (it takes events with at most 2 accesses), so they stay verbatim in
 * L2 for good, and the active window may hold them beside important facts (DESIGN §3).
 */
import { and, desc, eq, gte, or, type SQL } from "drizzle-orm";
import { queryDb, type Executor } from "./query-db.ts";
import { visibleTo } from "./cold-scope.ts";
import { events } from "./schema.ts";

export type StandingColdEvent = { id: string; text: string; speaker: string | null; accessCount: number };

export async function standingColdEvents(
  client: Executor,
  options: {
    minAccesses: number;
    limit: number;
    /** Only this conversation's events and user-wide ones (an explicit filter). */
    conversation?: string;
    /** A chat's viewer: the private scopes it may see besides the user's (none given: no filter). */
    privateScopes?: readonly string[];
  },
): Promise<StandingColdEvent[]> {
  const scopes = options.privateScopes;
  const where: (SQL | undefined)[] = [
    eq(events.layer, "L2"),
    gte(events.accessCount, options.minAccesses),
    options.conversation === undefined ? undefined : or(eq(events.conversation, options.conversation), eq(events.scope, "user")),
    scopes === undefined ? undefined : visibleTo(events.privateTo, scopes),
  ];
  return queryDb(client)
    .select({ id: events.id, text: events.text, speaker: events.speaker, accessCount: events.accessCount })
    .from(events)
    .where(and(...where))
    .orderBy(desc(events.accessCount), desc(events.lastAccess))
    .limit(options.limit);
}

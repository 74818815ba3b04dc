/**
 * `memory_list`'s pages: cold events or facts newest first, within a conversation (and the
 * user-wide ones) when one is given, only what a viewer may see when its private scopes are given.
 */
import { and, desc, eq, inArray, or, type SQL } from "drizzle-orm";
import { alias } from "drizzle-orm/sqlite-core";
import { queryDb, type Executor } from "./query-db.ts";
import { visibleTo } from "./cold-scope.ts";
import { blocks, events, triples } from "./schema.ts";

export type ListingPage = { conversation?: string; privateScopes?: readonly string[]; limit: number; offset: number };

export type ColdEventListing = { id: string; time: number; speaker: string | null; text: string; accessCount: number; privateTo: string | null };

export function coldEventPage(client: Executor, page: ListingPage): Promise<ColdEventListing[]> {
  const where: (SQL | undefined)[] = [
    eq(events.layer, "L2"),
    page.conversation ? or(eq(events.conversation, page.conversation), eq(events.scope, "user")) : undefined,
    page.privateScopes && visibleTo(events.privateTo, page.privateScopes),
  ];
  return queryDb(client)
    .select({ id: events.id, time: events.time, speaker: events.speaker, text: events.text, accessCount: events.accessCount, privateTo: events.privateTo })
    .from(events)
    .where(and(...where))
    .orderBy(desc(events.time))
    .limit(page.limit)
    .offset(page.offset);
}

export type FactListingRow = {
  id: string;
  kind: string;
  scope: string;
  privateTo: string | null;
  evidence: string;
  importance: number;
  revision: number;
  subject: string | null;
  predicate: string;
  object: string | null;
};

export function factPage(client: Executor, page: ListingPage): Promise<FactListingRow[]> {
  const subject = alias(blocks, "s");
  const object = alias(blocks, "o");
  const where: (SQL | undefined)[] = [page.conversation ? inArray(triples.scope, [page.conversation, "user"]) : undefined, page.privateScopes && visibleTo(triples.privateTo, page.privateScopes)];
  return queryDb(client)
    .select({
      id: triples.id,
      kind: triples.kind,
      scope: triples.scope,
      privateTo: triples.privateTo,
      evidence: triples.evidence,
      importance: triples.importance,
      revision: triples.revision,
      subject: subject.content,
      predicate: triples.predicate,
      object: object.content,
    })
    .from(triples)
    .innerJoin(subject, eq(subject.id, triples.subjectBlockId))
    .innerJoin(object, eq(object.id, triples.objectBlockId))
    .where(and(...where))
    .orderBy(desc(triples.updatedAt))
    .limit(page.limit)
    .offset(page.offset);
}

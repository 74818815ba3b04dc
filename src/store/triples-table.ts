/** Queries on `triples` (L3 facts) for the console, with their subject and object words. */
import type { Client } from "@libsql/client";
import { and, desc, eq, inArray, notInArray, or, sql, type SQL } from "drizzle-orm";
import { alias } from "drizzle-orm/sqlite-core";
import { queryDb, type Executor } from "./query-db.ts";
import { blocks, triples } from "./schema.ts";

export type FactRow = {
  id: string;
  predicate: string;
  kind: string;
  scope: string;
  /** As `EventRow.privateTo`. */
  privateTo: string | null;
  confidence: number;
  revision: number;
  evidence: string;
  sourceSession: string | null;
  sourceEventId: string | null;
  excerpt: string | null;
  updatedAt: number;
  subject: string | null;
  object: string | null;
};

export type FactFilter = {
  ids?: readonly string[];
  /** `{ anyConversation: true }`: any conversation's facts (not user-wide, not project-wide). */
  scope?: { equals: string } | { anyConversation: true };
  /** Only the facts this conversation sees: its own and the user-wide ones. */
  visibleFrom?: string;
  limit?: number;
};

/** Facts matching every given filter, most recently changed first when a limit is given. */
export async function listFacts(client: Client, f: FactFilter): Promise<FactRow[]> {
  if (f.ids && f.ids.length === 0) return [];
  const subject = alias(blocks, "s");
  const object = alias(blocks, "o");
  const where: (SQL | undefined)[] = [
    f.ids ? inArray(triples.id, [...f.ids]) : undefined,
    f.scope ? ("equals" in f.scope ? eq(triples.scope, f.scope.equals) : notInArray(triples.scope, ["user", "project"])) : undefined,
    f.visibleFrom !== undefined ? or(eq(triples.scope, f.visibleFrom), eq(triples.scope, "user")) : undefined,
  ];
  const query = queryDb(client)
    .select({
      id: triples.id,
      predicate: triples.predicate,
      kind: triples.kind,
      scope: triples.scope,
      privateTo: triples.privateTo,
      confidence: triples.confidence,
      revision: triples.revision,
      evidence: triples.evidence,
      sourceSession: triples.sourceSession,
      sourceEventId: triples.sourceEventId,
      excerpt: triples.excerpt,
      updatedAt: triples.updatedAt,
      subject: subject.content,
      object: object.content,
    })
    .from(triples)
    .innerJoin(subject, eq(subject.id, triples.subjectBlockId))
    .innerJoin(object, eq(object.id, triples.objectBlockId))
    .where(and(...where));
  return f.limit === undefined ? query : query.orderBy(desc(triples.updatedAt)).limit(f.limit);
}

/** As setEventPrivateTo, for a fact. */
export async function setFactPrivateTo(client: Executor, id: string, privateTo: string | null): Promise<void> {
  await queryDb(client).update(triples).set({ privateTo }).where(eq(triples.id, id));
}

export async function tripleCount(client: Client): Promise<number> {
  const [row] = await queryDb(client).select({ n: sql<number>`COUNT(*)` }).from(triples);
  return Number(row!.n);
}

/** Queries on `triples` (L3 facts) for the console, with their subject and object words. */
import type { Client } from "@libsql/client";
import { and, desc, eq, gte, inArray, lte, notInArray, or, sql, type SQL } from "drizzle-orm";
import { alias } from "drizzle-orm/sqlite-core";
import { queryDb, type Executor } from "./query-db.ts";
import { blocks, tripleRevisions, triples } from "./schema.ts";

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
  /** Last changed within these bounds, inclusive (milliseconds since the epoch). */
  since?: number;
  until?: number;
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
    f.since !== undefined ? gte(triples.updatedAt, f.since) : undefined,
    f.until !== undefined ? lte(triples.updatedAt, f.until) : undefined,
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

/** A fact's whole row with its object's text (the row is kept as a revision's snapshot). */
export type SameSubjectFact = Record<string, unknown> & { id: string; revision: number; object_text: string };

/**
 * The facts of one scope, privacy and subject whose predicate is `predicate` (lowercase), newest
 * first, each as its raw row (column names as stored: a revision keeps this row as its snapshot)
 * with its object's text as `object_text`.
 */
export async function factsOfSubject(tx: Executor, f: { scope: string; privateTo: string | null; subjectBlockId: string; predicate: string }): Promise<SameSubjectFact[]> {
  const rows = await queryDb(tx).all<SameSubjectFact>(sql`SELECT t.*, o.content AS object_text FROM triples t JOIN blocks o ON o.id = t.object_block_id
    WHERE t.scope = ${f.scope} AND t.private_to IS ${f.privateTo} AND t.subject_block_id = ${f.subjectBlockId} AND lower(t.predicate) = ${f.predicate}
    ORDER BY t.updated_at DESC`);
  return rows.map((r) => ({ ...r, revision: Number(r.revision) }));
}

export type NewTripleRow = typeof triples.$inferInsert;

export async function insertTriple(tx: Executor, row: NewTripleRow): Promise<void> {
  await queryDb(tx).insert(triples).values(row);
}

/** Raises a fact's confidence and importance to at least these (a restatement of it). */
export async function reaffirmFact(tx: Executor, id: string, confidence: number, importance: number, now: number): Promise<void> {
  await queryDb(tx)
    .update(triples)
    .set({ confidence: sql`max(${triples.confidence}, ${confidence})`, importance: sql`max(${triples.importance}, ${importance})`, updatedAt: now })
    .where(eq(triples.id, id));
}

/** Replaces a fact's object and what goes with it. */
export async function reviseFact(tx: Executor, id: string, set: Partial<NewTripleRow>): Promise<void> {
  await queryDb(tx).update(triples).set(set).where(eq(triples.id, id));
}

export async function setFactVector(tx: Executor, id: string, modelId: string, vector: Float32Array): Promise<void> {
  await queryDb(tx).update(triples).set({ embedding: vector, embedModel: modelId }).where(eq(triples.id, id));
}

/** Keeps a fact's old row as revision `revision`, then drops all but its newest `kept` revisions. */
export async function keepRevision(tx: Executor, tripleId: string, revision: number, snapshot: string, now: number, kept: number): Promise<void> {
  const db = queryDb(tx);
  await db.insert(tripleRevisions).values({ tripleId, revision, snapshot, createdAt: now });
  const newest = db.select({ revision: tripleRevisions.revision }).from(tripleRevisions).where(eq(tripleRevisions.tripleId, tripleId)).orderBy(desc(tripleRevisions.revision)).limit(kept);
  await db.delete(tripleRevisions).where(and(eq(tripleRevisions.tripleId, tripleId), notInArray(tripleRevisions.revision, newest)));
}

/** How much each fact has been used: times the model cited it, and when it last did (the console's "last used"). */
export type FactUse = { id: string; createdAt: number; citedCount: number; lastCited: number | null };

export async function factUse(client: Executor, ids: readonly string[]): Promise<FactUse[]> {
  if (ids.length === 0) return [];
  return queryDb(client)
    .select({ id: triples.id, createdAt: triples.createdAt, citedCount: triples.citedCount, lastCited: triples.lastAccess })
    .from(triples)
    .where(inArray(triples.id, [...ids]));
}

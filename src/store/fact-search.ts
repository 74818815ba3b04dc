/**
 * The queries of ranked retrieval over L3 facts (memory/stable-query.ts): BM25 over a fact search
 * table and the exact vector scan as typed sql templates, and the facts themselves with their
 * subject and object words. Every one takes the same scope filter.
 */
import { and, desc, eq, gte, inArray, lte, sql, type SQL } from "drizzle-orm";
import { alias } from "drizzle-orm/sqlite-core";
import { queryDb, type Executor } from "./query-db.ts";
import { visibleTo } from "./cold-scope.ts";
import { blocks, triples } from "./schema.ts";
import { bm25Of, type SearchTable } from "../search/index.ts";

/** Which facts a query sees. */
export type FactVisibility = {
  /** Only this conversation's facts and user-wide ones. */
  conversation?: string;
  /** A chat's viewer: the private scopes it may see besides the user's (none: only the user's). */
  privateScopes?: readonly string[];
  /** Last written at or after / at or before (ms since the epoch): `memory_recall`'s since/until. */
  since?: number;
  until?: number;
};

function visibility(v: FactVisibility): SQL | undefined {
  const scoped = v.conversation !== undefined ? inArray(triples.scope, [v.conversation, "user"]) : undefined;
  const scopes = v.privateScopes;
  const visible = scopes === undefined ? undefined : visibleTo(triples.privateTo, scopes);
  const since = v.since === undefined ? undefined : gte(triples.updatedAt, v.since);
  const until = v.until === undefined ? undefined : lte(triples.updatedAt, v.until);
  return and(scoped, visible, since, until);
}

const andVisible = (v: FactVisibility) => {
  const filter = visibility(v);
  return filter ? sql` AND ${filter}` : sql``;
};

/** The best `limit` facts by BM25 in one fact search table (`match`: its MATCH expression); lower rank is better. */
export function factBm25Rows(client: Executor, table: SearchTable, match: string, v: FactVisibility, limit: number): Promise<{ id: string; rank: number }[]> {
  return queryDb(client).all(
    sql`SELECT f.doc_id AS id, ${sql.raw(bm25Of(table))} AS rank FROM ${sql.raw(table)} f JOIN triples ON ${triples.id} = f.doc_id
        WHERE ${sql.raw(table)} MATCH ${match}${andVisible(v)} ORDER BY rank LIMIT ${limit}`,
  );
}

/**
 * The `limit` facts nearest to a query vector by an exact scan over the vectors `modelId` made
 * (L3 is small — distilled — so a scan stays cheap where events need the DiskANN index).
 */
export function factVectorRows(client: Executor, vector: Uint8Array, modelId: string, v: FactVisibility, limit: number): Promise<{ id: string; distance: number }[]> {
  return queryDb(client).all(
    sql`SELECT ${triples.id} AS id, vector_distance_cos(${triples.embedding}, vector32(${vector})) AS distance FROM triples
        WHERE ${triples.embedModel} = ${modelId} AND ${triples.embedding} IS NOT NULL${andVisible(v)} ORDER BY distance LIMIT ${limit}`,
  );
}

/** A fact as recall ranks and shows it. */
export type FactListing = { id: string; evidence: string; importance: number; citedCount: number; updatedAt: number; subject: string | null; predicate: string; object: string | null };

function selectListings(client: Executor) {
  const subject = alias(blocks, "s");
  const object = alias(blocks, "o");
  return queryDb(client)
    .select({
      id: triples.id,
      evidence: triples.evidence,
      importance: triples.importance,
      citedCount: triples.citedCount,
      updatedAt: triples.updatedAt,
      subject: subject.content,
      predicate: triples.predicate,
      object: object.content,
    })
    .from(triples)
    .innerJoin(subject, eq(subject.id, triples.subjectBlockId))
    .innerJoin(object, eq(object.id, triples.objectBlockId))
    .$dynamic();
}

export async function factListings(client: Executor, ids: readonly string[]): Promise<FactListing[]> {
  if (ids.length === 0) return [];
  return selectListings(client).where(inArray(triples.id, [...ids]));
}

/** The most important visible facts, at least `minImportance`: the most important, cited, recent first. */
export function importantFactListings(client: Executor, minImportance: number, v: FactVisibility, limit: number): Promise<FactListing[]> {
  return selectListings(client)
    .where(and(sql`${triples.importance} >= ${minImportance}`, visibility(v)))
    .orderBy(desc(triples.importance), desc(triples.citedCount), desc(triples.updatedAt))
    .limit(limit);
}

/**
 * What `memory_stats` and `memory_doctor` read about the store's health: vector coverage per
 * layer and model, facts stored twice, audited ids that no longer name a record, the cooling
 * backlog and lease, and where the database lives. Plain reads; nothing changes.
 */
import type { Client } from "@libsql/client";
import { and, desc, eq, inArray, isNotNull, lte, ne, sql } from "drizzle-orm";
import { queryDb } from "./query-db.ts";
import { blocks, events, injectionAudit, jobLeases, triples } from "./schema.ts";
import { visibleTo } from "./cold-scope.ts";
import { sessionIdsOf } from "./sessions-table.ts";

/**
 * Who the probes below may pick from (memory/access.ts): undefined for the owner (everything), else
 * the private scopes and the sessions' partners a partner may see, so a partner's `memory_doctor` never
 * names an id or reads a text it may not see.
 */
export type HealthViewer = { privateScopes: readonly string[]; sessionPartners: readonly string[] } | undefined;

export type VectorCoverageByLayer = {
  /** Per layer (events) or "L3" (facts): how many, and how many carry a vector of each model. */
  events: { layer: string; total: number; byModel: Record<string, number> }[];
  facts: { total: number; byModel: Record<string, number> };
  images: { total: number; byModel: Record<string, number> };
};

function byModel(rows: { model: string | null; n: number }[]): Record<string, number> {
  return Object.fromEntries(rows.filter((r) => r.model !== null).map((r) => [r.model!, Number(r.n)]));
}

export async function vectorCoverageByLayer(client: Client): Promise<VectorCoverageByLayer> {
  const db = queryDb(client);
  const n = sql<number>`COUNT(*)`;
  const withVector = sql<string | null>`CASE WHEN ${events.embedding} IS NULL THEN NULL ELSE ${events.embedModel} END`;
  const eventRows = await db.select({ layer: events.layer, model: withVector, n }).from(events).groupBy(events.layer, withVector);
  const layers = [...new Set(eventRows.map((r) => r.layer))].sort();
  const factModel = sql<string | null>`CASE WHEN ${triples.embedding} IS NULL THEN NULL ELSE ${triples.embedModel} END`;
  const factRows = await db.select({ model: factModel, n }).from(triples).groupBy(factModel);
  const imageModel = sql<string | null>`CASE WHEN ${blocks.embedding} IS NULL THEN NULL ELSE ${blocks.embedModel} END`;
  const imageRows = await db.select({ model: imageModel, n }).from(blocks).where(eq(blocks.kind, "image")).groupBy(imageModel);
  const total = (rows: { n: number }[]) => rows.reduce((sum, r) => sum + Number(r.n), 0);
  return {
    events: layers.map((layer) => {
      const rows = eventRows.filter((r) => r.layer === layer);
      return { layer, total: total(rows), byModel: byModel(rows) };
    }),
    facts: { total: total(factRows), byModel: byModel(factRows) },
    images: { total: total(imageRows), byModel: byModel(imageRows) },
  };
}

/** One event with a vector of `model`, for a probe that embeds its text again. */
export async function eventWithVector(client: Client, model: string, viewer?: HealthViewer): Promise<{ id: string; text: string; vector: Float32Array } | undefined> {
  const [row] = await queryDb(client)
    .select({ id: events.id, text: events.text, embedding: events.embedding })
    .from(events)
    .where(and(eq(events.embedModel, model), isNotNull(events.embedding), viewer && visibleTo(events.privateTo, viewer.privateScopes)))
    .orderBy(sql`random()`)
    .limit(1);
  return row?.embedding ? { id: row.id, text: row.text, vector: row.embedding } : undefined;
}

/** Facts stored more than once: same subject, predicate and object (node blocks are shared by text). */
export async function duplicateFacts(client: Client, viewer?: HealthViewer): Promise<{ ids: string[] }[]> {
  const rows = await queryDb(client)
    .select({ ids: sql<string>`group_concat(${triples.id}, ' ')` })
    .from(triples)
    .where(viewer && visibleTo(triples.privateTo, viewer.privateScopes))
    .groupBy(triples.subjectBlockId, sql`lower(${triples.predicate})`, triples.objectBlockId)
    .having(sql`COUNT(*) > 1`);
  return rows.map((r) => ({ ids: r.ids.split(" ") }));
}

/** The ids named by the newest `limit` injection audits, and which of them no longer exist. */
export async function auditedIds(client: Client, limit: number, viewer?: HealthViewer): Promise<{ records: number; ids: number; missing: string[] }> {
  const db = queryDb(client);
  const rows = await db
    .select({ ids: injectionAudit.ids })
    .from(injectionAudit)
    .where(viewer && sql`${injectionAudit.sessionId} IN (${sessionIdsOf(viewer.sessionPartners)})`)
    .orderBy(desc(injectionAudit.id))
    .limit(limit);
  const named = new Set<string>();
  for (const row of rows) for (const entry of JSON.parse(row.ids) as { id: string }[]) named.add(entry.id);
  const ids = [...named];
  const found = new Set<string>();
  for (let i = 0; i < ids.length; i += 500) {
    const chunk = ids.slice(i, i + 500);
    for (const r of await db.select({ id: events.id }).from(events).where(inArray(events.id, chunk))) found.add(r.id);
    for (const r of await db.select({ id: triples.id }).from(triples).where(inArray(triples.id, chunk))) found.add(r.id);
  }
  return { records: rows.length, ids: ids.length, missing: ids.filter((id) => !found.has(id)) };
}

/** Cold events cooling would distill now (≤ `maxAccesses` accesses, idle since `idleBefore`), and how many were distilled. */
export async function coolingBacklog(client: Client, maxAccesses: number, idleBefore: number): Promise<{ due: number; distilled: number }> {
  const db = queryDb(client);
  const n = sql<number>`COUNT(*)`;
  const [due] = await db
    .select({ n })
    .from(events)
    .where(and(eq(events.layer, "L2"), lte(events.accessCount, maxAccesses), lte(sql`COALESCE(${events.lastAccess}, ${events.createdAt})`, idleBefore)));
  const [distilled] = await db.select({ n }).from(events).where(eq(events.layer, "L3"));
  return { due: Number(due!.n), distilled: Number(distilled!.n) };
}

export async function leaseOf(client: Client, job: string): Promise<{ holder: string; expiresAt: number } | undefined> {
  const [row] = await queryDb(client).select({ holder: jobLeases.holder, expiresAt: jobLeases.expiresAt }).from(jobLeases).where(eq(jobLeases.job, job));
  return row;
}

/** The main database's file, or undefined for a remote or in-memory one. */
export async function storagePath(client: Client): Promise<string | undefined> {
  const rows = await client.execute("SELECT file FROM pragma_database_list WHERE name = 'main'");
  const file = rows.rows[0]?.file;
  return file ? String(file) : undefined;
}

const countBy = (rows: { k: string | null; n: number }[]) => Object.fromEntries(rows.map((r) => [String(r.k), Number(r.n)]));

/** Events per layer, blocks per holder, facts per evidence mark, and the injection audits kept. */
export async function memoryTotals(client: Client): Promise<{ events: Record<string, number>; blocks: Record<string, number>; facts: Record<string, number>; injections: number }> {
  const db = queryDb(client);
  const n = sql<number>`count(*)`;
  const [audits] = await db.select({ n }).from(injectionAudit);
  return {
    events: countBy(await db.select({ k: events.layer, n }).from(events).groupBy(events.layer)),
    blocks: countBy(await db.select({ k: blocks.holder, n }).from(blocks).groupBy(blocks.holder)),
    facts: countBy(await db.select({ k: triples.evidence, n }).from(triples).groupBy(triples.evidence)),
    injections: Number(audits!.n),
  };
}

/** A fact picked at random, for a probe. */
export async function randomFactId(client: Client, viewer?: HealthViewer): Promise<string | undefined> {
  const [row] = await queryDb(client)
    .select({ id: triples.id })
    .from(triples)
    .where(viewer && visibleTo(triples.privateTo, viewer.privateScopes))
    .orderBy(sql`random()`)
    .limit(1);
  return row?.id;
}

/** A cold event picked at random, for a recall probe by its own text. */
export async function randomColdEvent(client: Client, viewer?: HealthViewer): Promise<{ id: string; conversation: string; text: string } | undefined> {
  const [row] = await queryDb(client)
    .select({ id: events.id, conversation: events.conversation, text: events.text })
    .from(events)
    .where(and(eq(events.layer, "L2"), viewer && visibleTo(events.privateTo, viewer.privateScopes)))
    .orderBy(sql`random()`)
    .limit(1);
  return row;
}

/** Blocks held by another layer than their event's: none, while every move changes both in one write. */
export async function blocksHeldElsewhere(client: Client): Promise<number> {
  const [row] = await queryDb(client).select({ n: sql<number>`count(*)` }).from(blocks).innerJoin(events, eq(events.id, blocks.eventId)).where(ne(blocks.holder, events.layer));
  return Number(row!.n);
}

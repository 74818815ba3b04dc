/** The `injection_audit` table: what memory each turn was given (memory/injection.ts), newest kept. */
import { and, desc, eq, sql } from "drizzle-orm";
import { queryDb, type Executor } from "./query-db.ts";
import { injectionAudit, sessions } from "./schema.ts";
import { sessionIdsOf } from "./sessions-table.ts";

/** One memory an injection brought to a turn. */
export type AuditedMemory = { id: string; layer: string; band: string; evidence: string };

export type InjectionAuditRecord = {
  id: number;
  time: number;
  sessionId: string | null;
  query: string;
  ids: AuditedMemory[];
  counts: { L2: number; L3: number };
  chars: number;
};

/**
 * Records an injection and, in the same write, keeps only the newest `keep` records. Every turn
 * writes one, so these are typed sql templates rather than the query builder (~150 µs a query to build).
 */
export async function insertInjectionAudit(client: Executor, record: Omit<InjectionAuditRecord, "id">, keep: number): Promise<void> {
  const db = queryDb(client);
  await db.batch([
    db.run(
      sql`INSERT INTO injection_audit (time, session_id, query, ids, counts, chars) VALUES (${record.time}, ${record.sessionId}, ${record.query}, ${JSON.stringify(record.ids)}, ${JSON.stringify(record.counts)}, ${record.chars})`,
    ),
    db.run(sql`DELETE FROM injection_audit WHERE id <= (SELECT max(id) FROM injection_audit) - ${keep}`),
  ]);
}

/**
 * The newest `limit` records, of one session when `sessionId` is given, and only of the sessions
 * of these `partners` when they are given.
 */
export async function injectionAuditRecords(client: Executor, options: { limit: number; sessionId?: string; partners?: readonly string[] }): Promise<InjectionAuditRecord[]> {
  const rows = await queryDb(client)
    .select()
    .from(injectionAudit)
    .where(
      and(
        options.sessionId ? eq(injectionAudit.sessionId, options.sessionId) : undefined,
        options.partners !== undefined ? sql`${injectionAudit.sessionId} IN (${sessionIdsOf(options.partners)})` : undefined,
      ),
    )
    .orderBy(desc(injectionAudit.id))
    .limit(options.limit);
  return rows.map((r) => ({ ...r, ids: JSON.parse(r.ids) as AuditedMemory[], counts: JSON.parse(r.counts) as InjectionAuditRecord["counts"] }));
}

/** The queries of the last audited turns, newest first, with the partner whose turn each was. */
export function recentAuditQueries(client: Executor, limit: number): Promise<{ query: string; partner: string | null }[]> {
  return queryDb(client)
    .select({ query: injectionAudit.query, partner: sessions.partner })
    .from(injectionAudit)
    .leftJoin(sessions, eq(sessions.id, injectionAudit.sessionId))
    .orderBy(desc(injectionAudit.id))
    .limit(limit);
}

/**
 * When each of these memories was last given to a turn, by the injection audit (its newest 1000
 * turns): the memory ids sit in each record's JSON list, read with json_each.
 */
export async function lastInjected(client: Executor, ids: readonly string[]): Promise<{ id: string; time: number }[]> {
  if (ids.length === 0) return [];
  const rows = await queryDb(client).all<{ id: string; time: number }>(
    sql`SELECT json_extract(j.value, '$.id') AS id, max(a.time) AS time FROM injection_audit a, json_each(a.ids) j
      WHERE json_extract(j.value, '$.id') IN (${sql.join(
        ids.map((id) => sql`${id}`),
        sql`, `,
      )}) GROUP BY 1`,
  );
  return rows.map((r) => ({ id: r.id, time: Number(r.time) }));
}

/** Reads of `injection_audit` beyond the audit view's own (memory/injection.ts writes and lists it). */
import { desc, eq } from "drizzle-orm";
import { queryDb, type Executor } from "./query-db.ts";
import { injectionAudit, sessions } from "./schema.ts";

/** The queries of the last audited turns, newest first, with the partner whose turn each was. */
export function recentAuditQueries(client: Executor, limit: number): Promise<{ query: string; partner: string | null }[]> {
  return queryDb(client)
    .select({ query: injectionAudit.query, partner: sessions.partner })
    .from(injectionAudit)
    .leftJoin(sessions, eq(sessions.id, injectionAudit.sessionId))
    .orderBy(desc(injectionAudit.id))
    .limit(limit);
}

/** Exports a session's L1 as the context dump that `homed context render` reads. */
import type { Client } from "@libsql/client";
import type { ContextEvent } from "../context/index.ts";

export async function exportContextDump(client: Client, sessionId: string): Promise<ContextEvent[]> {
  const rows = await client.execute({
    sql: "SELECT id, time, messages FROM events WHERE session_id = ? AND layer = 'L1' ORDER BY seq",
    args: [sessionId],
  });
  return rows.rows.map((r) => ({ id: String(r.id), time: new Date(Number(r.time)).toISOString(), messages: JSON.parse(String(r.messages)) }));
}

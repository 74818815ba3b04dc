/**
 * `coldcontext_recall`: moves confirmed cold events back into L1. In one write transaction the
 * events (in their original order: time, then position in the session) become layer L1 and
 * their blocks' single holder becomes L1; only when that commits are they gone from L2. Nothing
 * is copied or deleted, so a failure at any point leaves every event where it was.
 */
import type { Client } from "@libsql/client";

export class RecallError extends Error {
  readonly code = "recall";
  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = "RecallError";
  }
}

export type RecalledEvent = { id: string; sessionId: string; seq: number; time: number; text: string };

export async function coldcontextRecall(client: Client, ids: readonly string[], now: number = Date.now()): Promise<RecalledEvent[]> {
  const unique = [...new Set(ids)];
  if (unique.length === 0) return [];
  const marks = unique.map(() => "?").join(", ");
  const tx = await client.transaction("write");
  try {
    const rows = await tx.execute({
      sql: `SELECT id, session_id, seq, time, text FROM events WHERE layer = 'L2' AND id IN (${marks}) ORDER BY time, session_id, seq`,
      args: unique,
    });
    if (rows.rows.length !== unique.length) {
      const found = new Set(rows.rows.map((r) => String(r.id)));
      const missing = unique.filter((id) => !found.has(id));
      throw new RecallError(`Cannot recall ${missing.join(", ")}: not in cold context (L2)`);
    }
    await tx.execute({
      sql: `UPDATE blocks SET holder = 'L1' WHERE holder = 'L2' AND event_id IN (${marks})`,
      args: unique,
    });
    await tx.execute({
      sql: `UPDATE events SET layer = 'L1', access_count = access_count + 1, last_access = ? WHERE id IN (${marks})`,
      args: [now, ...unique],
    });
    await tx.commit();
    return rows.rows.map((r) => ({
      id: String(r.id),
      sessionId: String(r.session_id),
      seq: Number(r.seq),
      time: Number(r.time),
      text: String(r.text),
    }));
  } finally {
    tx.close();
  }
}

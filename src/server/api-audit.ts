/**
 * The recall audit: what memory injected into each turn (query, ids, counts per layer,
 * characters), kept for the last 1000 turns so a person can see why the model "remembered"
 * something. Written as the turn streams its recall report; read by the console.
 */
import type { Client } from "@libsql/client";
import { Hono } from "hono";
import { z } from "zod";

export const AUDIT_KEEP = 1000;

/** The participant's report, as the memory participant sends it; anything else is not recorded. */
const ReportSchema = z.object({
  query: z.string(),
  ids: z.array(z.string()),
  counts: z.record(z.string(), z.number()),
  chars: z.number(),
});

export async function recordRecall(client: Client, sessionId: string, report: unknown, now = Date.now()): Promise<void> {
  const parsed = ReportSchema.safeParse(report);
  if (!parsed.success) return;
  const r = parsed.data;
  await client.batch(
    [
      { sql: "INSERT INTO injection_audit (time, session_id, query, ids, counts, chars) VALUES (?, ?, ?, ?, ?, ?)", args: [now, sessionId, r.query, JSON.stringify(r.ids), JSON.stringify(r.counts), r.chars] },
      { sql: "DELETE FROM injection_audit WHERE id <= (SELECT id FROM injection_audit ORDER BY id DESC LIMIT 1 OFFSET ?)", args: [AUDIT_KEEP] },
    ],
    "write",
  );
}

export function auditRoutes(client: Client): Hono {
  const app = new Hono();
  app.get("/", async (c) => {
    const rows = await client.execute({ sql: "SELECT id, time, session_id, query, ids, counts, chars FROM injection_audit ORDER BY id DESC LIMIT ?", args: [AUDIT_KEEP] });
    return c.json({
      entries: rows.rows.map((r) => ({
        id: Number(r.id), time: Number(r.time), sessionId: r.session_id, query: String(r.query),
        ids: JSON.parse(String(r.ids)) as string[], counts: JSON.parse(String(r.counts)) as Record<string, number>, chars: Number(r.chars),
      })),
    });
  });
  return app;
}

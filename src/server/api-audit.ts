/**
 * `/api/audit`: the recall audit — what memory injected into each of the last 1000 turns (the
 * memory participant writes it), so a person can see why the model "remembered" something.
 * `POST /api/audit/replay` measures recall latency on the live store by running the last audited
 * queries again through the cold-context query (peek only: nothing moves, nothing is counted).
 */
import type { Client } from "@libsql/client";
import { Hono } from "hono";
import { z } from "zod";
import type { Embedder } from "../embed/index.ts";
import { coldcontextQuery, listInjections, OWNER, type AuditRecord } from "../memory/index.ts";
import { recentAuditQueries } from "../store/index.ts";
import { HomedError } from "../errors/index.ts";

export const AUDIT_SHOWN = 1000;
const AuditQuerySchema = z.object({ session: z.string().min(1).max(200).optional() });
/** Queries replayed per measurement: enough for a p95, few enough to answer in about a second. */
export const REPLAY_QUERIES = 100;

/** `embedder`: the one recall searches with (undefined with the fallback: words and grams only). */
/** `GET /api/audit`: each turn's recall, newest first. */
export type AuditAnswer = { entries: AuditRecord[] };
/** `POST /api/audit/replay`: each audited query run again through cold search, timed. */
export type ReplayAnswer = { embedder: string; samples: { query: string; ms: number; found: number }[] };

export function auditRoutes(client: Client, embedder: Embedder | undefined): Hono {
  const app = new Hono();
  // `?session=ID`: that conversation's turns only (the chat page puts each turn's recall line back after a reload).
  app.get("/", async (c) => {
    const parsed = AuditQuerySchema.safeParse(c.req.query());
    if (!parsed.success) throw new HomedError("invalid_request", `${parsed.error.issues[0]!.path.join(".")}: ${parsed.error.issues[0]!.message}`);
    return c.json<AuditAnswer>({ entries: await listInjections(client, { limit: AUDIT_SHOWN, sessionId: parsed.data.session, access: OWNER }) });
  });

  app.post("/replay", async (c) => {
    const samples: ReplayAnswer["samples"] = [];
    for (const { query, partner } of await recentAuditQueries(client, REPLAY_QUERIES)) {
      const started = performance.now();
      const found = await coldcontextQuery(client, query, { k: 10, conversation: partner ?? undefined, embedder });
      samples.push({ query, ms: performance.now() - started, found: found.length });
    }
    return c.json<ReplayAnswer>({ embedder: embedder?.modelId ?? "none (words + grams)", samples });
  });
  return app;
}

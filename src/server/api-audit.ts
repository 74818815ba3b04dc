/**
 * `/api/audit`: the recall audit — what memory injected into each of the last 1000 turns (the
 * memory participant writes it), so a person can see why the model "remembered" something.
 */
import type { Client } from "@libsql/client";
import { Hono } from "hono";
import { listInjections } from "../memory/index.ts";

export const AUDIT_SHOWN = 1000;

export function auditRoutes(client: Client): Hono {
  const app = new Hono();
  app.get("/", async (c) => c.json({ entries: await listInjections(client, { limit: AUDIT_SHOWN }) }));
  return app;
}

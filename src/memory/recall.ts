/**
 * `coldcontext_recall`: moves confirmed cold events back into L1. In one write transaction the
 * events (in their original order: time, then position in the session) become layer L1 and
 * their blocks' single holder becomes L1; only when that commits are they gone from L2. Nothing
 * is copied or deleted, so a failure at any point leaves every event where it was.
 */
import type { Client } from "@libsql/client";
import { moveColdToL1 } from "../store/index.ts";
import { HomedError } from "../errors/index.ts";

/** A recall that cannot move what it was asked to (code in src/errors/table.ts). */
export class RecallError extends HomedError {
  constructor(message: string, options?: ErrorOptions) {
    super("recall", message, options);
  }
}

export type RecalledEvent = { id: string; sessionId: string; seq: number; time: number; text: string };

export async function coldcontextRecall(client: Client, ids: readonly string[], now: number = Date.now()): Promise<RecalledEvent[]> {
  const unique = [...new Set(ids)];
  if (unique.length === 0) return [];
  const outcome = await moveColdToL1(client, unique, now);
  if ("missing" in outcome) throw new RecallError(`Cannot recall ${outcome.missing.join(", ")}: not in cold context (L2)`);
  return outcome.moved;
}

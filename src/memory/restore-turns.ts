/**
 * Peek → confirm → move, for a chat (DESIGN §3): the confirmed cold events of the chat's own
 * session go back into its L1 with the rest of their turns, in their original places (L1 is
 * read in session order), through `coldcontextRecall`'s one transaction. Only the session's own
 * events: L1 is per session, and an event moved back into another session's L1 would reach
 * that session, not this chat. Other sessions' memories keep reaching the chat as injected lines.
 */
import type { Client } from "@libsql/client";
import { coldTurnOf } from "../store/index.ts";
import { coldcontextRecall, RecallError, type RecalledEvent } from "./recall.ts";

export type RestoreOutcome = {
  /** Moved back into L1, in session order. */
  restored: RecalledEvent[];
  tokens: number;
  /** Confirmed ids not moved, and why. */
  skipped: { id: string; reason: string }[];
};

/**
 * Moves the turns of `ids` (best first) back into the session's L1, whole turns only, while their
 * tokens stay within `maxTokens`. Nothing moves for an id that is not this session's cold event.
 */
export async function restoreColdTurns(client: Client, sessionId: string, ids: readonly string[], options: { maxTokens: number; now?: number }): Promise<RestoreOutcome> {
  const chosen = new Map<string, { seq: number; tokens: number }>();
  const skipped: RestoreOutcome["skipped"] = [];
  let tokens = 0;
  for (const id of ids) {
    if (chosen.has(id)) continue;
    const turn = (await coldTurnOf(client, sessionId, id)).filter((e) => !chosen.has(e.id));
    if (turn.length === 0) {
      skipped.push({ id, reason: "not a cold event of this session" });
      continue;
    }
    const size = turn.reduce((sum, e) => sum + e.tokens, 0);
    if (tokens + size > options.maxTokens) {
      skipped.push({ id, reason: `its turn (${size} tokens) does not fit the ${options.maxTokens}-token restore allowance` });
      continue;
    }
    tokens += size;
    for (const e of turn) chosen.set(e.id, e);
  }
  if (chosen.size === 0) return { restored: [], tokens: 0, skipped };
  try {
    return { restored: await coldcontextRecall(client, [...chosen.keys()], options.now), tokens, skipped };
  } catch (error) {
    // Distilled or moved since the peek (cooling runs beside chats): nothing moved at all.
    if (!(error instanceof RecallError)) throw error;
    return { restored: [], tokens: 0, skipped: [...skipped, ...[...chosen.keys()].map((id) => ({ id, reason: error.message }))] };
  }
}

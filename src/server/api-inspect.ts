/**
 * `/api/inspect/:sessionId`: the context inspector — what the model would see now. The live
 * events (L1) with their tokens, their relevance to the latest user message (the score a prune
 * would rank them by) and whether they are pinned; the budget they fill; and what sank to L2.
 * Reads only: inspecting never prunes or moves anything.
 */
import type { Client } from "@libsql/client";
import { Hono } from "hono";
import { loadL1Events, messageText, OVERFLOW_THRESHOLD, pinnedCount, queryTfidf, relevance, type L1Row } from "../context/index.ts";
import { embedText, type Embedder } from "../embed/index.ts";
import { loadTokenizer, searchWords } from "../text/index.ts";
import { HomedError } from "../errors/index.ts";
import { sessionExists, sessionTimeline } from "../store/index.ts";

const preview = (text: string) => (text.length > 240 ? `${text.slice(0, 240)}…` : text);

/** The text a prune would score against: the newest user message still in L1. */
function latestUserInput(events: readonly L1Row[]): string {
  for (let i = events.length - 1; i >= 0; i--) {
    const user = events[i]!.messages.find((m) => m.role === "user");
    if (user) return messageText(user);
  }
  return "";
}

async function scores(events: readonly L1Row[], input: string, embedder: Embedder): Promise<number[]> {
  if (!input) return events.map(() => 0);
  const query = { dense: { model: embedder.modelId, vector: await embedText(embedder, input) }, tfidf: queryTfidf(await searchWords(input), events) };
  return events.map((e) => relevance(query, e));
}

/**
 * `toolTokens` is what the tool definitions sent with each request take from the budget now
 * (plugins come and go, so it is asked per request): history renders in what is left.
 */
/** One live event as the inspector shows it: its tokens, relevance to the latest message, and pin. */
export type InspectedEvent = { id: string; time: number; roles: string[]; tokens: number; score: number; pinned: boolean; text: string };
/** `GET /api/inspect/:sessionId`: what the model would see now, and what sank. */
export type Inspection = {
  budget: number;
  toolTokens: number;
  usedTokens: number;
  ratio: number;
  threshold: number;
  scoredAgainst: string;
  live: InspectedEvent[];
  sunk: { id: string; layer: string; time: number; sunkAt: number | null; tokens: number; lastAccess: number | null; text: string }[];
};

/** `turnBudget`: what a turn of the active provider gets now (smaller than the configured one for a model with a small known window). */
export function inspectRoutes(client: Client, embedder: Embedder, turnBudget: () => Promise<number>, toolTokens: () => number): Hono {
  const app = new Hono();
  app.get("/:sessionId", async (c) => {
    const sessionId = c.req.param("sessionId");
    if (!(await sessionExists(client, sessionId))) throw new HomedError("session_not_found", `No session with id ${sessionId}`);
    const events = await loadL1Events(client, sessionId);
    const timeline = await sessionTimeline(client, sessionId);
    const byId = new Map(timeline.map((r) => [r.id, r]));
    const used = events.reduce((sum, e) => sum + e.tokens, 0);
    const budget = await turnBudget();
    const pinned = pinnedCount({ budget, avgTokensPerEvent: events.length ? used / events.length : 0 });
    const input = latestUserInput(events);
    const scored = await scores(events, input, embedder);
    await loadTokenizer();
    return c.json<Inspection>({
      budget,
      toolTokens: toolTokens(),
      usedTokens: used,
      ratio: used / budget,
      threshold: OVERFLOW_THRESHOLD,
      scoredAgainst: input,
      live: events.map((e, i) => ({
        id: e.id,
        time: byId.get(e.id)?.time ?? 0,
        roles: e.messages.map((m) => m.role),
        tokens: e.tokens,
        score: scored[i] ?? 0,
        pinned: i >= events.length - pinned,
        text: preview(byId.get(e.id)?.text ?? ""),
      })),
      // `time` is when it was said, `sunkAt` when pruning sank it (null for events that never were live).
      sunk: timeline.filter((r) => r.layer !== "L1").map((r) => ({ id: r.id, layer: r.layer, time: r.time, sunkAt: r.sunkAt, tokens: r.tokens, lastAccess: r.lastAccess, text: preview(r.text) })),
    });
  });
  return app;
}

/**
 * The L1 context engine over the store: events enter with their vectors, each turn checks for
 * overflow and sinks the least relevant events to L2, and rendering reads what stays.
 */
import type { Client } from "@libsql/client";
import { createFallbackEmbedder, embedText, type Embedder } from "../embed/index.ts";
import type { Logger } from "../log/index.ts";
import { describeMasked, searchWords, yieldIfLong } from "../text/index.ts";
import { loadL1Events, sinkToL2, writeL1Event, type L1Row } from "./l1-store.ts";
import type { ContextEvent } from "./messages.ts";
import { formatOverflowCheck, overflowRatio, OVERFLOW_THRESHOLD, planPrune, type PrunePlan } from "./prune.ts";
import { renderUnderBudget, type RenderResult } from "./render.ts";
import { queryTfidf } from "./score.ts";

export type ContextEngineOptions = {
  client: Client;
  /** Default: the deterministic fallback, until a real embedder is configured. */
  embedder?: Embedder;
  logger?: Pick<Logger, "info">;
  /** Configured pinned recent events (default 10, further bounded by the budget). */
  pinned?: number;
};

export interface ContextEngine {
  readonly embedder: Embedder;
  append(sessionId: string, conversation: string, event: ContextEvent): Promise<{ seq: number; tokens: number }>;
  /** Overflow check against `budget` and, above the threshold, a prune scored against `input`. */
  prune(sessionId: string, input: string, budget: number): Promise<PrunePlan>;
  /**
   * After cold turns moved back into L1 (`restored`): when L1 is over `budget`, sinks the least
   * relevant of the other events (never the pinned recent ones) so the next render holds them.
   */
  makeRoom(sessionId: string, input: string, budget: number, restored: readonly string[]): Promise<PrunePlan>;
  render(sessionId: string, budget: number): Promise<RenderResult>;
}

export function createContextEngine(options: ContextEngineOptions): ContextEngine {
  const { client } = options;
  const embedder = options.embedder ?? createFallbackEmbedder();
  /** Overflow checks so far, per session: the `#k` of the log line. */
  const checks = new Map<string, number>();
  return {
    embedder,
    // Each step first gives the event loop its turn if the turn so far has held it (`yieldIfLong`):
    // a turn's SQL and JSON work is synchronous, and between steps is where it can be split.
    async append(sessionId, conversation, event) {
      const written = await writeL1Event(client, { sessionId, conversation, event, embedder });
      if (written.masked.length > 0) options.logger?.info(`session ${sessionId}: event ${event.id}: secrets masked (${describeMasked(written.masked)})`);
      return { seq: written.seq, tokens: written.tokens };
    },
    prune,
    async makeRoom(sessionId, input, budget, restored) {
      await yieldIfLong();
      const events = await loadL1Events(client, sessionId);
      // Under the budget nothing need sink, and the query is not even embedded.
      const query = overflowRatio(events, budget) <= 1 ? {} : await queryOf(input, events);
      const plan = planPrune(events, query, { budget, pinned: options.pinned, keep: new Set(restored) });
      await sinkToL2(client, plan.sink);
      options.logger?.info(`session ${sessionId}: restored ${restored.length} cold events into L1 (${restored.join(", ")}); sank ${plan.sink.length} to make room (budget ${budget})`);
      return plan;
    },
    async render(sessionId, budget) {
      await yieldIfLong();
      return renderUnderBudget(await loadL1Events(client, sessionId), budget);
    },
  };

  async function queryOf(input: string, events: readonly L1Row[]) {
    return {
      dense: { model: embedder.modelId, vector: await embedText(embedder, input) },
      tfidf: queryTfidf(await searchWords(input), events),
    };
  }

  async function prune(sessionId: string, input: string, budget: number): Promise<PrunePlan> {
    await yieldIfLong();
    const events = await loadL1Events(client, sessionId);
    const k = (checks.get(sessionId) ?? 0) + 1;
    checks.set(sessionId, k);
    const ratio = overflowRatio(events, budget);
    // The session id makes the line findable among concurrent turns.
    options.logger?.info(`session ${sessionId}: ${formatOverflowCheck(k, ratio, events.length)}`);
    // Below the threshold the query is not even embedded: most turns cost one read.
    if (ratio <= OVERFLOW_THRESHOLD) return planPrune(events, {}, { budget, pinned: options.pinned });
    const plan = planPrune(events, await queryOf(input, events), { budget, pinned: options.pinned });
    await yieldIfLong();
    await sinkToL2(client, plan.sink);
    return plan;
  }
}

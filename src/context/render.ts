/**
 * Rendering L1 under a token budget (DESIGN §3). The unit is the event, never the message:
 * an event goes in whole or not at all, and since every event is a closed group
 * (messages.ts), no render can hold a tool call without its result or a result without its
 * call, whatever the budget.
 *
 * Events are taken newest first and emitted in chronological order. An event larger than a
 * quarter of the budget is a *runaway frame* (a tool that dumped a whole log, a pasted file):
 * it is skipped wherever it sits and rendering goes on, because letting it in would starve
 * every other turn, and stopping at it would render nothing when it is the newest. An event
 * that merely does not fit in what is left is skipped too, and older, smaller events may
 * still fill the rest: relevance pruning already chose what L1 holds, so its events are all
 * worth a place, and gaps are no stranger than the ones pruning leaves.
 *
 * Never empty when some non-runaway event exists: the first one met (newest first) is at most
 * a quarter of the budget, so it always fits.
 */
import type { ChatMessage } from "./messages.ts";

export type RenderableEvent = {
  id: string;
  messages: readonly ChatMessage[];
  /** Sum of `messageTokens` over `messages`. */
  tokens: number;
};

export type RenderResult = {
  messages: ChatMessage[];
  /** Ids of the rendered events, chronological. */
  included: string[];
  /** Events skipped as runaway frames (> budget / 4). */
  runaway: string[];
  /** Events that did not fit in what was left of the budget. */
  dropped: string[];
  tokens: number;
};

/** Share of the budget above which one event is a runaway frame. */
export const RUNAWAY_SHARE = 0.25;

export function renderUnderBudget(events: readonly RenderableEvent[], budget: number): RenderResult {
  if (!Number.isFinite(budget) || budget <= 0) throw new RangeError(`Cannot render: budget must be a positive number, got ${budget}`);
  const runawayAbove = budget * RUNAWAY_SHARE;
  const chosen: RenderableEvent[] = [];
  const runaway: string[] = [];
  const dropped: string[] = [];
  let used = 0;
  for (let i = events.length - 1; i >= 0; i--) {
    const event = events[i]!;
    if (event.tokens > runawayAbove) {
      runaway.push(event.id);
      continue;
    }
    if (used + event.tokens > budget) {
      dropped.push(event.id);
      continue;
    }
    chosen.push(event);
    used += event.tokens;
  }
  chosen.reverse();
  return {
    messages: chosen.flatMap((e) => e.messages),
    included: chosen.map((e) => e.id),
    runaway: runaway.reverse(),
    dropped: dropped.reverse(),
    tokens: used,
  };
}

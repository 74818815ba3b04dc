/**
 * The seven stages of a turn (DESIGN §4) and the participants that hook them. Each hook runs
 * under a deadline; a participant's failure policy says whether a failure (or a missed
 * deadline) is logged and skipped (`continue`, the default: one bad participant must not take
 * every turn down) or ends the turn (`fail`, for participants whose absence would be unsafe,
 * e.g. an audit that must see every tool call).
 */
import type { AssistantMessage, ToolCall } from "../llm/index.ts";

import { STAGES, type Stage } from "../plugins/index.ts";
import { yieldIfLong } from "../text/index.ts";
import { HomedError } from "../errors/index.ts";

// The stages are part of the plugin protocol (plugins declare which they hook), so their one
// list lives there; the kernel runs them.
export { STAGES };
export type StageName = Stage;

export type TurnInfo = { sessionId: string; channel: string; partner: string; turnId: string };

export type OnInput = TurnInfo & { input: string };
/** Block the turn, answer without the model, or rewrite the input. */
export type OnInputDecision = { block: string } | { reply: string } | { input: string } | void;

/**
 * `sessionHistory`: the request renders the session's stored history (L1); false when the caller
 * sends its own conversation (an OpenAI client's messages), so moving events into L1 shows nothing.
 */
/** `contextWindow`: the model's context window in tokens, when known (provider setting or a well-known model). */
export type PreAction = TurnInfo & { input: string; sessionHistory: boolean; contextWindow?: number };
/**
 * Lines to inject into the request (e.g. recalled memory), with a report for the surfaces.
 * `restored`: events the participant moved back into the session's L1 (cold turns recall was
 * sure of); the kernel makes room for them under the request's history budget.
 */
export type PreActionResult = { inject?: string; report?: Record<string, unknown>; restored?: string[] } | void;

export type PostAction = TurnInfo & { message: AssistantMessage; iteration: number };
/** Replace the model's message: filter content, drop calls, or redirect to other calls. */
export type PostActionDecision = { message: AssistantMessage } | void;

export type BeforeToolCall = TurnInfo & { call: ToolCall };
export type BeforeToolCallDecision = { deny: string } | { arguments: string } | void;

export type AfterToolCall = TurnInfo & { call: ToolCall; result: string };
export type AfterToolCallDecision = { result: string } | void;

export type BeforeOutput = TurnInfo & { text: string };
export type BeforeOutputDecision = { text: string } | void;

export type StopReason = "no_tool_calls" | "all_denied" | "iteration_limit" | "blocked" | "short_circuit" | "cancelled" | "error" | "client_tools";

export type AfterOutput = TurnInfo & { text: string; stopReason: StopReason; iterations: number; toolCalls: number /** Names of the tools called this turn. */; tools: string[]; ms: number };

/** Statistics a participant gathered on the turn, shown with it (a `report` turn event). */
export type AfterOutputResult = { report?: Record<string, unknown> } | void;

export type Hooks = {
  on_input?: (p: OnInput) => Promise<OnInputDecision> | OnInputDecision;
  pre_action?: (p: PreAction) => Promise<PreActionResult> | PreActionResult;
  post_action?: (p: PostAction) => Promise<PostActionDecision> | PostActionDecision;
  before_toolcall?: (p: BeforeToolCall) => Promise<BeforeToolCallDecision> | BeforeToolCallDecision;
  after_toolcall?: (p: AfterToolCall) => Promise<AfterToolCallDecision> | AfterToolCallDecision;
  before_output?: (p: BeforeOutput) => Promise<BeforeOutputDecision> | BeforeOutputDecision;
  after_output?: (p: AfterOutput) => Promise<AfterOutputResult> | AfterOutputResult;
};

export type Participant = {
  name: string;
  hooks: Hooks;
  /** Per-hook deadline (default 2000 ms). */
  deadlineMs?: number;
  onFailure?: "continue" | "fail";
};

export class StageError extends HomedError {
  constructor(
    readonly stage: StageName,
    readonly participant: string,
    message: string,
    options?: ErrorOptions,
  ) {
    super("stage_failed", `Stage ${stage} failed in participant ${participant}: ${message}`, options);
    this.name = "StageError";
  }
}

const DEFAULT_DEADLINE_MS = 2000;

export type StageLog = (line: string) => void;

/** Runs one participant's hook under its deadline; returns undefined when it failed and may be skipped. */
export async function runHook<S extends StageName>(
  participant: Participant,
  stage: S,
  payload: Parameters<NonNullable<Hooks[S]>>[0],
  log: StageLog,
): Promise<Awaited<ReturnType<NonNullable<Hooks[S]>>> | undefined> {
  const hook = participant.hooks[stage] as ((p: typeof payload) => unknown) | undefined;
  if (!hook) return undefined;
  // Hooks run one after another within a turn: between two is a place to give the loop its turn.
  await yieldIfLong();
  const deadline = participant.deadlineMs ?? DEFAULT_DEADLINE_MS;
  let timer: ReturnType<typeof setTimeout> | undefined;
  try {
    const late = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`missed its ${deadline} ms deadline`)), deadline);
    });
    return (await Promise.race([Promise.resolve().then(() => hook(payload)), late])) as Awaited<ReturnType<NonNullable<Hooks[S]>>>;
  } catch (error) {
    const message = (error as Error).message;
    if (participant.onFailure === "fail") throw new StageError(stage, participant.name, message, { cause: error });
    log(`stage ${stage}: participant ${participant.name} failed and was skipped: ${message}`);
    return undefined;
  } finally {
    clearTimeout(timer);
  }
}

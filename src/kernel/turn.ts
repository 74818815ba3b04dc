/**
 * One turn of the agent: on_input → persist the input → prune and pre_action → the inner loop
 * `post_action → [before_toolcall → run → after_toolcall] → post_action` → before_output →
 * persist the answer → after_output. Every message is written to L1 as an event before anything
 * that depends on it runs (the user's input before the model is called, each tool round once
 * its results are in), so a crash loses nothing already said and history is always a valid
 * sequence: an interrupted round is closed with synthetic "interrupted" results.
 */
import { randomUUID } from "node:crypto";
import { contentText, maskEventSecrets, messageTokens, type AudioPart, type Content, type ContextEngine, type ContextEvent } from "../context/index.ts";
import { INTERRUPTED_RESULT, ProviderError, type AssistantMessage, type ChatModel, type ProviderMessage, type StreamDelta, type ToolCall, type ToolSpec, type Usage } from "../llm/index.ts";
import { loadTokenizer } from "../text/index.ts";
import { runHook, type Participant, type StageLog, type StopReason, type TurnInfo } from "./stages.ts";
import { toolImagesMessage, withoutImages } from "./tool-images.ts";
import { toolError, toolSpecTokens, type ImagePart, type RestoreResult, type ToolCallContext, type ToolRegistry } from "./tools.ts";

export type { ImagePart };

export type TurnEvent =
  | StreamDelta
  | { type: "recall"; participant: string; report: Record<string, unknown> }
  /** A participant's statistics on the finished turn (after_output). */
  | { type: "report"; participant: string; report: Record<string, unknown> }
  | { type: "tool_result"; id: string; name: string; result: string; denied: boolean /** Images the tool returned, shown to the model after the round's results. */; images?: number }
  | { type: "iteration"; n: number };

export type TurnOptions = {
  engine: ContextEngine;
  client: ChatModel;
  model: string;
  participants: readonly Participant[];
  tools: ToolRegistry;
  systemPrompt: string;
  /** Token budget of the rendered context. */
  budget: number;
  maxIterations: number;
  log: StageLog;
  /** False for a model that reads text only: images reach it as `[image]` (default true). */
  vision?: boolean;
  /** Moves cold events of the session (whole turns) back into L1: the memory tools' `restore`. */
  restoreCold?: (sessionId: string, ids: readonly string[]) => Promise<RestoreResult>;
};

export type TurnInput = TurnInfo & {
  conversation: string;
  input: string;
  /** Images sent with the input (a client's image_url parts): stored with it and shown to the model. */
  images?: ImagePart[];
  /** Voice messages with the input, as audio parts (kernel/voice.ts): stored with it as audio blocks; their transcript is in `input`. */
  audio?: AudioPart[];
  signal?: AbortSignal;
  onEvent?: (e: TurnEvent) => void;
  /**
   * Request fields sent to the model with every round (an OpenAI client's `temperature`,
   * `stop`, `seed`…). `tool_choice` goes with the first round only: once a tool round ran, a
   * `required` or named choice would make the model call tools again until the iteration limit.
   */
  params?: Record<string, unknown>;
  /**
   * The caller's own tools (an OpenAI client's `tools`), offered to the model beside homed's.
   * A round that calls one pauses the turn (`stopReason: "client_tools"`, `paused`) instead of
   * running it; the caller runs it and resumes with `resume`.
   */
  clientTools?: ToolSpec[];
  /** Continues a paused turn with the caller's results for its pending calls (`input` is unused). */
  resume?: { paused: PausedRound; results: ProviderMessage[] };
  /**
   * The caller's conversation before this turn (an OpenAI client's messages). When given, the
   * model sees it and this turn's own messages instead of the session's stored history, so an
   * edit, a regeneration or a new chat in the client is what the model sees. None of it is
   * stored again: the session keeps what was said through homed, once.
   */
  history?: ProviderMessage[];
  /** The caller's own instructions (a client's system messages), after homed's system prompt. */
  instructions?: string;
  /** The model's context window in tokens, when known: what pre_action injects may grow with it. */
  contextWindow?: number;
};

/**
 * A turn waiting for the caller's tool results. Nothing of the paused round is stored until they
 * come, so history is never left with an unanswered call: if they never come, the round is gone.
 */
export type PausedRound = {
  /** The round's assistant message, every call in it (homed's as run, the caller's pending). */
  message: AssistantMessage;
  /** Results of homed's own calls of the round, already run. */
  results: ProviderMessage[];
  /** The images those calls returned, stored after the caller's results (toolImagesMessage). */
  images?: ProviderMessage[];
  /** The caller's calls, to be answered in order. */
  pending: ToolCall[];
  systemMessage: ProviderMessage;
  /** What the turn stored before it paused (its input, homed-only rounds): the model sees them on resume. */
  turnMessages: ProviderMessage[];
  iterations: number;
  toolCalls: number;
  usage?: Usage;
};

export type TurnResult = {
  text: string;
  stopReason: StopReason;
  iterations: number;
  toolCalls: number;
  reason?: string;
  /** Tokens over every model call of the turn, when the provider reported them. */
  usage?: Usage;
  /** The provider's finish_reason for the turn's last model call ("length": cut at max_tokens). */
  finishReason?: string;
  /** Set when `stopReason` is `client_tools`: what a `resume` continues. */
  paused?: PausedRound;
};

const addUsage = (sum: Usage | undefined, more: Usage | undefined): Usage | undefined =>
  more
    ? {
        prompt_tokens: (sum?.prompt_tokens ?? 0) + more.prompt_tokens,
        completion_tokens: (sum?.completion_tokens ?? 0) + more.completion_tokens,
        total_tokens: (sum?.total_tokens ?? 0) + more.total_tokens,
      }
    : sum;

/** The request fields of one round: `tool_choice` only until a tool round has run. */
function roundParams(params: Record<string, unknown> | undefined, round: number): Record<string, unknown> | undefined {
  if (!params || round === 1 || !("tool_choice" in params)) return params;
  const { tool_choice: _, ...rest } = params;
  return rest;
}

const iso = () => new Date().toISOString();

export async function runTurn(options: TurnOptions, turn: TurnInput): Promise<TurnResult> {
  const started = performance.now();
  const { participants, log, engine } = options;
  const info: TurnInfo = { sessionId: turn.sessionId, channel: turn.channel, partner: turn.partner, turnId: turn.turnId };
  const emit = turn.onEvent ?? (() => {});
  /** This turn's messages as stored, for a turn that renders the caller's history (`history`). */
  const turnMessages: ProviderMessage[] = [...(turn.resume?.paused.turnMessages ?? [])];
  /** Stores a group of the turn; the answer's group is stored under the turn's id, so a caller that named the turn finds its answer (a Responses message item). */
  const persist = (messages: ProviderMessage[], marks: Pick<ContextEvent, "stopped"> = {}, id: string = randomUUID()) => {
    const event = { id, time: iso(), messages, ...marks } as ContextEvent;
    // Masked as the store will keep them: the model reads what is stored, secrets included.
    turnMessages.push(...(maskEventSecrets(event).event.messages as ProviderMessage[]));
    return engine.append(turn.sessionId, turn.conversation, event);
  };
  // The caller's history is masked once, like the turns homed stores: a secret pasted earlier in
  // an OpenAI client's conversation (homed's own admin token, a provider key) never reaches a provider.
  const callerHistory = turn.history && (maskEventSecrets({ id: "history", time: iso(), messages: turn.history } as ContextEvent).event.messages as ProviderMessage[]);

  const prepared = turn.resume ? await resumed(turn.resume, persist) : await prepare(options, turn, info, persist, emit);
  if ("stopReason" in prepared) return prepared;
  const { systemMessage } = prepared;
  await loadTokenizer();
  const systemTokens = messageTokens(systemMessage);
  const clientTools = turn.clientTools ?? [];
  const clientNames = new Set(clientTools.map((t) => t.function.name));

  let final: AssistantMessage | undefined;
  let paused: PausedRound | undefined;
  let stopReason: StopReason = "iteration_limit";
  let iterations = prepared.iterations;
  let toolCalls = prepared.toolCalls;
  let usage: Usage | undefined = prepared.usage;
  const toolsUsed = new Set<string>();
  let lastText = "";
  let finishReason: string | undefined;
  /** What the model has streamed in the current iteration: kept if the turn is cancelled. */
  let partial = "";
  const onDelta = (delta: StreamDelta) => {
    if (delta.type === "content") partial += delta.text;
    emit(delta);
  };
  /**
   * Cold turns moved back into L1 during this turn (by pre_action or a memory tool): before each
   * round's render, room is made for them under that round's budget — rendering drops the oldest
   * events first, and restored turns are old.
   */
  const restored = new Set<string>(prepared.restored ?? []);
  const restore: ToolCallContext["restore"] = options.restoreCold
    ? async (ids) => {
        const result = await options.restoreCold!(turn.sessionId, ids);
        for (const id of result.restored) restored.add(id);
        return result;
      }
    : undefined;
  const firstIteration = iterations + 1;
  try {
    for (iterations = firstIteration; iterations <= options.maxIterations; iterations++) {
      emit({ type: "iteration", n: iterations });
      partial = "";
      // The budget covers the whole request: history gets what the system prompt, memory and
      // the tool definitions leave. Tools come and go with plugins, so they are counted per request.
      const tools = [...options.tools.specs(), ...clientTools];
      const historyBudget = historyBudgetOf(options, systemTokens, clientTools);
      if (restored.size > 0 && !turn.history) await engine.makeRoom(turn.sessionId, turn.input, historyBudget, [...restored]);
      const rendered = callerHistory ? fitHistory(callerHistory, turnMessages, historyBudget) : ((await engine.render(turn.sessionId, historyBudget)).messages as ProviderMessage[]);
      const result = await options.client.stream(
        { model: options.model, messages: options.vision === false ? withoutImages([systemMessage, ...rendered]) : [systemMessage, ...rendered], tools, extra: roundParams(turn.params, iterations) },
        { signal: turn.signal, onDelta },
      );
      usage = addUsage(usage, result.usage);
      finishReason = result.finishReason ?? undefined;
      let message = result.message;
      for (const p of participants) {
        const decision = await runHook(p, "post_action", { ...info, message, iteration: iterations }, log);
        if (decision) message = decision.message;
      }
      lastText = contentText(message.content);
      const calls = message.tool_calls ?? [];
      if (calls.length === 0) {
        final = message;
        stopReason = "no_tool_calls";
        break;
      }
      toolCalls += calls.length;
      for (const c of calls) toolsUsed.add(c.function.name);
      const pending = calls.filter((c) => clientNames.has(c.function.name));
      const own = calls.filter((c) => !clientNames.has(c.function.name));
      const { ran, results, denied, images } = await runToolRound(options, info, own, turn.signal, emit, restore);
      if (turn.signal?.aborted) {
        if (pending.length === 0) await persist([{ ...message, tool_calls: ran }, ...results, ...images]);
        throw turn.signal.reason;
      }
      if (pending.length > 0) {
        const asRun = new Map(ran.map((c) => [c.id, c]));
        const all = calls.map((c) => asRun.get(c.id) ?? c);
        paused = {
          message: { ...message, tool_calls: all },
          results,
          ...(images.length ? { images } : {}),
          pending,
          systemMessage,
          turnMessages: [...turnMessages],
          iterations,
          toolCalls,
          ...(usage ? { usage } : {}),
        };
        stopReason = "client_tools";
        break;
      }
      await persist([{ ...message, tool_calls: ran }, ...results, ...images]);
      if (denied === calls.length) {
        stopReason = "all_denied";
        break;
      }
    }
    iterations = Math.min(iterations, options.maxIterations);
  } catch (error) {
    const cancelled = turn.signal?.aborted || (error instanceof ProviderError && error.code === "aborted");
    if (!cancelled) throw error;
    // What the user already saw stays in history; an unfinished tool round never does.
    if (partial) await persist([{ role: "assistant", content: partial }], { stopped: true });
    return { text: partial || lastText, stopReason: "cancelled", iterations, toolCalls, ...(usage ? { usage } : {}) };
  }
  // Paused: the turn is not over, so no output stages yet (they run when it ends).
  if (paused) return { text: lastText, stopReason, iterations, toolCalls, ...(usage ? { usage } : {}), paused };

  let text = final ? contentText(final.content) : lastText;
  if (!final && stopReason === "iteration_limit") text ||= `(stopped after ${options.maxIterations} rounds of tool calls: the iteration limit)`;
  for (const p of participants) {
    const decision = await runHook(p, "before_output", { ...info, text }, log);
    if (decision) text = decision.text;
  }
  if (final) await persist([{ ...final, content: text }], {}, turn.turnId);
  const ms = performance.now() - started;
  for (const p of participants) {
    const result = await runHook(p, "after_output", { ...info, text, stopReason, iterations, toolCalls, tools: [...toolsUsed].sort(), ms }, log);
    if (result?.report) emit({ type: "report", participant: p.name, report: result.report });
  }
  return { text, stopReason, iterations, toolCalls, ...(usage ? { usage } : {}), ...(finishReason ? { finishReason } : {}) };
}

type Persist = (messages: ProviderMessage[], marks?: Pick<ContextEvent, "stopped">, id?: string) => Promise<unknown>;

/**
 * Tokens left for history in a request: history gets what the system prompt, memory and the tool
 * definitions leave. Tools come and go with plugins, so they are counted per request.
 */
function historyBudgetOf(options: TurnOptions, systemTokens: number, clientTools: readonly ToolSpec[]): number {
  return Math.max(1, options.budget - systemTokens - toolSpecTokens([...options.tools.specs(), ...clientTools]));
}

/**
 * The caller's history and this turn's messages within the budget: this turn's whole, then the
 * newest of the history that fits, starting at a user message (never at a tool result whose call
 * was cut off).
 */
function fitHistory(history: ProviderMessage[], own: ProviderMessage[], budget: number): ProviderMessage[] {
  let left = budget - own.reduce((sum, m) => sum + messageTokens(m), 0);
  let start = history.length;
  while (start > 0 && (left -= messageTokens(history[start - 1]!)) >= 0) start--;
  while (start < history.length && history[start]!.role !== "user") start++;
  return [...history.slice(start), ...own];
}
/** Where the loop starts: the system message and the counters so far. */
type Prepared = { systemMessage: ProviderMessage; iterations: number; toolCalls: number; usage?: Usage /** Cold events pre_action moved back into L1. */; restored?: string[] };

/** A paused turn's round, stored whole now that the caller's results are in; the loop goes on. */
async function resumed({ paused, results }: NonNullable<TurnInput["resume"]>, persist: Persist): Promise<Prepared> {
  await persist([paused.message, ...paused.results, ...results, ...(paused.images ?? [])]);
  return { systemMessage: paused.systemMessage, iterations: paused.iterations, toolCalls: paused.toolCalls, ...(paused.usage ? { usage: paused.usage } : {}) };
}

/** A new turn's start: on_input, the input stored, pruning, pre_action's memory in the system message. */
async function prepare(options: TurnOptions, turn: TurnInput, info: TurnInfo, persist: Persist, emit: (e: TurnEvent) => void): Promise<Prepared | TurnResult> {
  const { participants, log, engine } = options;
  // Images and voice messages go with the text as parts, as the store keeps them (a block each).
  const attached = [...(turn.images ?? []), ...(turn.audio ?? [])];
  const userMessage = (text: string): Content => (attached.length ? [...(text ? [{ type: "text" as const, text }] : []), ...attached] : text);
  // on_input: block, short-circuit or rewrite, before anything is stored.
  let input = turn.input;
  for (const p of participants) {
    const decision = await runHook(p, "on_input", { ...info, input }, log);
    if (!decision) continue;
    if ("block" in decision) return { text: "", stopReason: "blocked", iterations: 0, toolCalls: 0, reason: decision.block };
    if ("reply" in decision) {
      await persist([{ role: "user", content: userMessage(input) }]);
      await persist([{ role: "assistant", content: decision.reply }], {}, info.turnId);
      return { text: decision.reply, stopReason: "short_circuit", iterations: 0, toolCalls: 0 };
    }
    input = decision.input;
  }

  await persist([{ role: "user", content: userMessage(input) }]);
  await engine.prune(turn.sessionId, input, options.budget);

  const injections: string[] = [];
  const restored: string[] = [];
  for (const p of participants) {
    const result = await runHook(p, "pre_action", { ...info, input, sessionHistory: turn.history === undefined, ...(turn.contextWindow ? { contextWindow: turn.contextWindow } : {}) }, log);
    if (result?.inject) injections.push(result.inject);
    if (result?.restored) restored.push(...result.restored);
    if (result?.report) emit({ type: "recall", participant: p.name, report: result.report });
  }
  const system = [options.systemPrompt, turn.instructions, ...injections].filter(Boolean).join("\n\n");
  return { systemMessage: { role: "system", content: system }, iterations: 0, toolCalls: 0, restored };
}

/**
 * Runs one round of tool calls in order. A call denied by before_toolcall gets a denial result;
 * when the turn is cancelled midway, calls not yet run get an "interrupted" result so the round
 * stays a closed group.
 */
async function runToolRound(options: TurnOptions, info: TurnInfo, calls: ToolCall[], signal: AbortSignal | undefined, emit: (e: TurnEvent) => void, restore: ToolCallContext["restore"]) {
  const ran: ToolCall[] = [];
  const results: ProviderMessage[] = [];
  const shown: { call: ToolCall; images: ImagePart[] }[] = [];
  let denied = 0;
  const neverAborted = new AbortController().signal;
  for (const original of calls) {
    let call = original;
    let denial: string | undefined;
    if (signal?.aborted) {
      ran.push(call);
      results.push({ role: "tool", tool_call_id: call.id, content: INTERRUPTED_RESULT });
      continue;
    }
    for (const p of options.participants) {
      const decision = await runHook(p, "before_toolcall", { ...info, call }, options.log);
      if (!decision) continue;
      if ("deny" in decision) {
        denial = decision.deny;
        break;
      }
      call = { ...call, function: { ...call.function, arguments: decision.arguments } };
    }
    let result: string;
    let images: ImagePart[] = [];
    if (denial !== undefined) {
      denied++;
      result = toolError("denied", denial);
    } else {
      ({ text: result, images } = await options.tools.run(call.function.name, call.function.arguments, signal ?? neverAborted, {
        sessionId: info.sessionId,
        partner: info.partner,
        ...(restore ? { restore } : {}),
      }));
      for (const p of options.participants) {
        const decision = await runHook(p, "after_toolcall", { ...info, call, result }, options.log);
        if (decision) result = decision.result;
      }
    }
    ran.push(call);
    results.push({ role: "tool", tool_call_id: call.id, content: result });
    shown.push({ call, images });
    emit({ type: "tool_result", id: call.id, name: call.function.name, result, denied: denial !== undefined, ...(images.length ? { images: images.length } : {}) });
  }
  return { ran, results, denied, images: toolImagesMessage(shown) };
}

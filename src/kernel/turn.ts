/**
 * One turn of the agent: on_input → persist the input → prune and pre_action → the inner loop
 * `post_action → [before_toolcall → run → after_toolcall] → post_action` → before_output →
 * persist the answer → after_output. Every message is written to L1 as an event before anything
 * that depends on it runs (the user's input before the model is called, each tool round once
 * its results are in), so a crash loses nothing already said and history is always a valid
 * sequence: an interrupted round is closed with synthetic "interrupted" results.
 */
import { randomUUID } from "node:crypto";
import { contentText, messageTokens, type ContextEngine, type ContextEvent } from "../context/index.ts";
import { INTERRUPTED_RESULT, ProviderError, type AssistantMessage, type ChatModel, type ProviderMessage, type StreamDelta, type ToolCall, type Usage } from "../llm/index.ts";
import { loadTokenizer } from "../text/index.ts";
import { runHook, type Participant, type StageLog, type StopReason, type TurnInfo } from "./stages.ts";
import { toolError, toolSpecTokens, type ToolRegistry } from "./tools.ts";

export type TurnEvent =
  | StreamDelta
  | { type: "recall"; participant: string; report: Record<string, unknown> }
  | { type: "tool_result"; id: string; name: string; result: string; denied: boolean }
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
};

export type TurnInput = TurnInfo & {
  conversation: string;
  input: string;
  signal?: AbortSignal;
  onEvent?: (e: TurnEvent) => void;
  /**
   * Request fields sent to the model with every round (an OpenAI client's `temperature`,
   * `stop`, `seed`…). `tool_choice` goes with the first round only: once a tool round ran, a
   * `required` or named choice would make the model call tools again until the iteration limit.
   */
  params?: Record<string, unknown>;
};

export type TurnResult = {
  text: string;
  stopReason: StopReason;
  iterations: number;
  toolCalls: number;
  reason?: string;
  /** Tokens over every model call of the turn, when the provider reported them. */
  usage?: Usage;
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
  const persist = (messages: ProviderMessage[]) =>
    engine.append(turn.sessionId, turn.conversation, { id: randomUUID(), time: iso(), messages } as ContextEvent);

  // on_input: block, short-circuit or rewrite, before anything is stored.
  let input = turn.input;
  for (const p of participants) {
    const decision = await runHook(p, "on_input", { ...info, input }, log);
    if (!decision) continue;
    if ("block" in decision) return { text: "", stopReason: "blocked", iterations: 0, toolCalls: 0, reason: decision.block };
    if ("reply" in decision) {
      await persist([{ role: "user", content: input }]);
      await persist([{ role: "assistant", content: decision.reply }]);
      return { text: decision.reply, stopReason: "short_circuit", iterations: 0, toolCalls: 0 };
    }
    input = decision.input;
  }

  await persist([{ role: "user", content: input }]);
  await engine.prune(turn.sessionId, input, options.budget);

  const injections: string[] = [];
  for (const p of participants) {
    const result = await runHook(p, "pre_action", { ...info, input }, log);
    if (result?.inject) injections.push(result.inject);
    if (result?.report) emit({ type: "recall", participant: p.name, report: result.report });
  }
  const system = [options.systemPrompt, ...injections].filter(Boolean).join("\n\n");
  const systemMessage: ProviderMessage = { role: "system", content: system };
  await loadTokenizer();
  const systemTokens = messageTokens(systemMessage);

  let final: AssistantMessage | undefined;
  let stopReason: StopReason = "iteration_limit";
  let iterations = 0;
  let toolCalls = 0;
  let usage: Usage | undefined;
  const toolsUsed = new Set<string>();
  let lastText = "";
  /** What the model has streamed in the current iteration: kept if the turn is cancelled. */
  let partial = "";
  const onDelta = (delta: StreamDelta) => {
    if (delta.type === "content") partial += delta.text;
    emit(delta);
  };
  try {
    for (iterations = 1; iterations <= options.maxIterations; iterations++) {
      emit({ type: "iteration", n: iterations });
      partial = "";
      // The budget covers the whole request: history gets what the system prompt, memory and
      // the tool definitions leave. Tools come and go with plugins, so they are counted per request.
      const tools = options.tools.specs();
      const historyBudget = Math.max(1, options.budget - systemTokens - toolSpecTokens(tools));
      const rendered = (await engine.render(turn.sessionId, historyBudget)).messages as ProviderMessage[];
      const result = await options.client.stream(
        { model: options.model, messages: [systemMessage, ...rendered], tools, extra: roundParams(turn.params, iterations) },
        { signal: turn.signal, onDelta },
      );
      usage = addUsage(usage, result.usage);
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
      const { ran, results, denied } = await runToolRound(options, info, calls, turn.signal, emit);
      await persist([{ ...message, tool_calls: ran }, ...results]);
      if (turn.signal?.aborted) throw turn.signal.reason;
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
    if (partial) await persist([{ role: "assistant", content: partial }]);
    return { text: partial || lastText, stopReason: "cancelled", iterations, toolCalls, ...(usage ? { usage } : {}) };
  }

  let text = final ? contentText(final.content) : lastText;
  if (!final && stopReason === "iteration_limit") text ||= `(stopped after ${options.maxIterations} rounds of tool calls: the iteration limit)`;
  for (const p of participants) {
    const decision = await runHook(p, "before_output", { ...info, text }, log);
    if (decision) text = decision.text;
  }
  if (final) await persist([{ ...final, content: text }]);
  const ms = performance.now() - started;
  for (const p of participants) await runHook(p, "after_output", { ...info, text, stopReason, iterations, toolCalls, tools: [...toolsUsed].sort(), ms }, log);
  return { text, stopReason, iterations, toolCalls, ...(usage ? { usage } : {}) };
}

/**
 * Runs one round of tool calls in order. A call denied by before_toolcall gets a denial result;
 * when the turn is cancelled midway, calls not yet run get an "interrupted" result so the round
 * stays a closed group.
 */
async function runToolRound(options: TurnOptions, info: TurnInfo, calls: ToolCall[], signal: AbortSignal | undefined, emit: (e: TurnEvent) => void) {
  const ran: ToolCall[] = [];
  const results: ProviderMessage[] = [];
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
    if (denial !== undefined) {
      denied++;
      result = toolError("denied", denial);
    } else {
      result = await options.tools.call(call.function.name, call.function.arguments, signal ?? neverAborted, { sessionId: info.sessionId, partner: info.partner });
      for (const p of options.participants) {
        const decision = await runHook(p, "after_toolcall", { ...info, call, result }, options.log);
        if (decision) result = decision.result;
      }
    }
    ran.push(call);
    results.push({ role: "tool", tool_call_id: call.id, content: result });
    emit({ type: "tool_result", id: call.id, name: call.function.name, result, denied: denial !== undefined });
  }
  return { ran, results, denied };
}

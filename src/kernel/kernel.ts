/**
 * The kernel: sessions, providers, tools and participants around `runTurn`. Turns of one
 * session run one at a time (a second message waits for the first), so events never interleave.
 */
import { randomUUID } from "node:crypto";
import type { Client } from "@libsql/client";
import { createContextEngine, type ContextEngine } from "../context/index.ts";
import { createFallbackEmbedder, type Embedder } from "../embed/index.ts";
import { ContextWindows, httpChatModel, ProviderError, type ChatModelFactory, type ProviderMessage, type SequenceGuardMode, type ToolSpec } from "../llm/index.ts";
import type { Logger } from "../log/index.ts";
import type { SecretBox } from "../store/index.ts";
import { askWithChat, DEFAULT_INJECTION, MEMORY_TOOLS, partnerAccess, restoreColdTurns, runMemoryTool, type InjectionConfig } from "../memory/index.ts";
import { z } from "zod";
import { memoryParticipant } from "./memory-participant.ts";
import { answerTokensOf, budgetFor } from "./window-budget.ts";
import { ProviderNotFound, ProviderStore, type ProviderEnv } from "./providers.ts";
import { Sessions, type Session } from "./sessions.ts";
import type { Participant } from "./stages.ts";
import { ToolRegistry } from "./tools.ts";
import { PausedTurns } from "./paused-turns.ts";
import { runTurn, type ImagePart, type TurnEvent, type TurnInput, type TurnResult } from "./turn.ts";
import { PermissionGate } from "./permission-gate.ts";
import { KeyedQueue } from "./keyed-queue.ts";
import { HomedError } from "../errors/index.ts";
import { hearVoice, type VoiceInput } from "./voice.ts";

export type KernelOptions = {
  client: Client;
  /** Seals the API keys stored in `secrets` (the daemon's key lives in `<data>/secrets.key`). */
  secrets: SecretBox;
  log: Pick<Logger, "info" | "warn">;
  embedder?: Embedder;
  env?: ProviderEnv;
  /** Rendered-context budget in tokens (default 24000). */
  budget?: number;
  /** Tool rounds per turn before the loop stops (default 8). */
  maxIterations?: number;
  systemPrompt?: string;
  /** `throw` in tests, `repair` (default) in production. */
  sequenceGuard?: SequenceGuardMode;
  /** Provider request timeout per attempt. */
  providerTimeoutMs?: number;
  /**
   * Makes the model client for the active provider; HTTP to it (ChatClient) unless given. Tests
   * pass a ScriptedChat's factory (src/llm/scripted-chat.ts) and need no server.
   */
  chatModel?: ChatModelFactory;
  injection?: InjectionConfig;
  /**
   * Whether recall uses the embedder's vectors. Off for the fallback embedder: its vectors are
   * character n-gram hashes the grams channel already ranks better (measured: LoCoMo dev R@5
   * .620 → .535 when fused in), so they only count the same evidence twice.
   */
  vectorRecall?: boolean;
  /** Where a turn's context window comes from (tests: a list without HTTP); the provider's `/models` by default. */
  contextWindows?: ContextWindows;
};

/** The kernel's settings in `<data>/homed.json` ("kernel"), checked at start. */
export const KernelConfigSchema = z.object({
  /**
   * Tokens of each request (system prompt, injected memory and tool definitions first, history
   * in what they leave). When the model's window is known (configured, reported by the provider
   * or well known) a turn gets at most the window minus room for the answer (window-budget.ts);
   * otherwise set it to the model's window minus that room: too large and providers refuse requests.
   */
  budget: z.number().int().min(500).max(2_000_000).default(24_000),
  /** Tool rounds per turn. Prevents: a model that keeps calling tools looping forever. */
  maxIterations: z.number().int().min(1).max(100).default(8),
  systemPrompt: z.string().min(1).max(20_000).optional(),
});
export type KernelConfig = z.output<typeof KernelConfigSchema>;

export const DEFAULT_SYSTEM_PROMPT =
  "You are homed, a helpful assistant with long-term memory. Memories recalled from earlier conversations may appear below; use them when relevant and cite their ids.";

export class NoProviderError extends HomedError {
  constructor() {
    super("no_provider", "No model provider is configured: add one in the console or set HOMED_BASE_URL and HOMED_MODEL (and HOMED_API_KEY)");
    this.name = "NoProviderError";
  }
}

export type TurnRequest = {
  session: Session;
  input: string;
  /** Images sent with the input (runTurn's `images`). */
  images?: ImagePart[];
  /** Voice messages sent with the input: heard through the transcription endpoint (voice.ts), kept as audio blocks. */
  audio?: VoiceInput[];
  signal?: AbortSignal;
  onEvent?: (e: TurnEvent) => void;
  /** The provider to ask (an id from `providers.list()`); the active one when absent. */
  provider?: string;
  /** Request fields passed to the model as given (`temperature`, `stop`…: see TurnInput). */
  params?: Record<string, unknown>;
  /** The caller's own tools: a round that calls one pauses the turn (see runTurn's `clientTools`). */
  clientTools?: ToolSpec[];
  /** The caller's results for its paused turn's calls: the turn resumes instead of a new one starting. */
  toolResults?: ToolResult[];
  /** The caller's conversation before this turn: what the model sees instead of the stored history (runTurn's `history`). */
  history?: ProviderMessage[];
  /** The caller's instructions, after homed's system prompt. */
  instructions?: string;
  /**
   * The turn's id (stage hooks' `turnId`; its answer is stored under it, runTurn), when the caller
   * names the turn to its client (a Responses id); else a new one. A new uuid each turn.
   */
  turnId?: string;
};

export type ToolResult = { tool_call_id: string; content: string };

export class Kernel {
  readonly sessions: Sessions;
  readonly providers: ProviderStore;
  readonly tools = new ToolRegistry();
  /** Asks the person at a client that can ask (ACP) before shell and terminal tools run. */
  readonly permissions = new PermissionGate();
  readonly engine: ContextEngine;
  /** The embedder recall's vector channel uses, or undefined when vectors are off for recall. */
  readonly recallEmbedder: Embedder | undefined;
  private readonly participants: Participant[] = [];
  /** Turns that render a session's stored history, one at a time per session. */
  private readonly turnQueue = new KeyedQueue();
  /** A session's store writes (events, the overflow check's prune, cold turns restored), one at a time. */
  private readonly storeWrites = new KeyedQueue();
  /** The context engine as turns use it: its writes to a session go through `storeWrites`. */
  private readonly turnEngine: ContextEngine;
  /** Each turn's model context window: configured, reported by the provider, or well known. */
  readonly contextWindows: ContextWindows;

  constructor(private readonly options: KernelOptions) {
    const embedder = options.embedder ?? createFallbackEmbedder();
    const recallEmbedder = options.vectorRecall ? embedder : undefined;
    this.recallEmbedder = recallEmbedder;
    this.sessions = new Sessions(options.client);
    this.pausedTurns = new PausedTurns(options.client);
    this.providers = new ProviderStore(options.client, options.secrets, options.env);
    this.contextWindows = options.contextWindows ?? new ContextWindows({ onReported: (line) => options.log.info(line) });
    this.engine = createContextEngine({ client: options.client, embedder, logger: options.log });
    const engine = this.engine;
    // The engine itself underneath (not a copy of its methods taken now), so what reads or wraps
    // `kernel.engine` later — bench/kernel times its steps that way — is what turns call.
    const writes: Pick<ContextEngine, "append" | "prune" | "makeRoom"> = {
      append: (session, conversation, event) => this.storeWrites.run(session, () => engine.append(session, conversation, event)),
      prune: (session, input, budget) => this.storeWrites.run(session, () => engine.prune(session, input, budget)),
      makeRoom: (session, input, budget, restored) => this.storeWrites.run(session, () => engine.makeRoom(session, input, budget, restored)),
    };
    this.turnEngine = Object.assign(Object.create(engine) as ContextEngine, writes);
    this.participants.push(
      memoryParticipant({
        client: options.client,
        embedder: recallEmbedder,
        config: this.injection,
        // A quarter of the request at most: the rest stays for the live conversation.
        restoreTokens: Math.min(this.injection.restore.maxTokens, Math.floor(this.budget / 4)),
        conversationOf: async (id) => (await this.sessions.get(id))?.partner ?? id,
      }),
    );
    this.registerMemoryTools(recallEmbedder);
  }

  private get injection(): InjectionConfig {
    return this.options.injection ?? DEFAULT_INJECTION;
  }

  /** Rendered-context budget in tokens, per turn, as configured. */
  get budget(): number {
    return this.options.budget ?? 24_000;
  }

  /** The budget the active provider's turns get now: the configured one, or less for a known small window (window-budget.ts). */
  async turnBudget(): Promise<number> {
    const provider = await this.providers.active();
    return provider ? budgetFor(this.budget, await this.contextWindows.of(provider)) : this.budget;
  }

  /** The database the kernel works on. */
  get client(): Client {
    return this.options.client;
  }

  /** The memory tools, callable by the model within the calling session's scope. */
  private registerMemoryTools(embedder: Embedder | undefined): void {
    for (const tool of MEMORY_TOOLS) {
      this.tools.register({
        name: tool.name,
        description: tool.description,
        parameters: z.toJSONSchema(tool.input, { io: "input" }) as Record<string, unknown>,
        run: async (args, _signal, context) =>
          JSON.stringify(
            await runMemoryTool(tool.name, args, {
              client: this.options.client,
              embedder,
              conversation: context.partner,
              // A tool call acts with its turn's partner, never more (DESIGN §3).
              access: partnerAccess(context.partner),
              injection: this.injection,
              ...(context.restore ? { restore: context.restore } : {}),
              log: (line) => this.options.log.info(line),
            }),
          ),
      });
    }
  }

  addParticipant(participant: Participant): void {
    this.participants.push(participant);
  }

  /**
   * Runs one turn. A turn that renders the session's stored history queues behind the session's
   * others: it must see the turn before it whole. A turn that brings its caller's whole
   * conversation (`history`: an OpenAI client's messages) reads nothing of the stored history, so
   * it runs at once, beside the session's other turns (issue 31.8: one partner's four concurrent
   * /v1 streams ran one after another); it only adds its own events to the session, and those
   * writes — each event, the overflow check's prune — go one at a time through the session's
   * store queue, so two turns never prune the same events. A resumed turn (tool results) queues:
   * it continues the session's paused round.
   */
  turn(request: TurnRequest): Promise<TurnResult> {
    if (request.history !== undefined && request.toolResults === undefined) return this.runOne(request);
    return this.turnQueue.run(request.session.id, () => this.runOne(request));
  }

  /** Asks the active provider one question (distillation); throws when none is configured. */
  readonly ask = async (system: string, user: string): Promise<string> => {
    const provider = await this.providers.active();
    if (!provider) throw new NoProviderError();
    const client = this.chatModel({ baseUrl: provider.baseUrl, apiKey: provider.apiKey, timeoutMs: this.options.providerTimeoutMs ?? 60_000 });
    return askWithChat((r) => client.complete(r), provider.model)(system, user);
  };

  private get chatModel(): ChatModelFactory {
    return this.options.chatModel ?? httpChatModel;
  }

  /** Turns in progress, so a shutdown can cancel them (keeping what was said) instead of waiting. */
  private readonly running = new Set<AbortController>();

  /** Cancels every turn in progress; each ends as `cancelled` with its history valid. */
  cancelAll(reason = "homed is stopping"): void {
    for (const controller of this.running) controller.abort(new Error(reason));
  }

  private async runOne(request: TurnRequest): Promise<TurnResult> {
    const { session, signal: callerSignal } = request;
    const own = new AbortController();
    this.running.add(own);
    const signal = callerSignal ? AbortSignal.any([callerSignal, own.signal]) : own.signal;
    const log = this.options.log;
    try {
      const result = await this.runWith(request, signal);
      if (result.stopReason === "cancelled") {
        const why = signal.reason instanceof Error ? signal.reason.message : String(signal.reason ?? "cancelled");
        log.info(`session ${session.id}: turn cancelled after ${result.iterations} rounds (${why}); what was said is kept`);
      }
      return result;
    } catch (error) {
      // The caller answers the client; the log keeps the fault for whoever runs the daemon.
      if (error instanceof ProviderError) log.warn(`session ${session.id}: model error ${error.code}${error.status ? ` (HTTP ${error.status})` : ""}: ${error.message}`);
      else if (error instanceof NoProviderError) log.warn(`session ${session.id}: turn refused: ${error.message}`);
      throw error;
    } finally {
      this.running.delete(own);
    }
  }

  /** Turns waiting for their caller's tool results, by session, kept across restarts (paused-turns.ts). */
  private readonly pausedTurns: PausedTurns;

  /** The paused round these results answer, with them in its calls' order; throws when they answer none. */
  private async resumeOf(sessionId: string, given: ToolResult[]): Promise<NonNullable<TurnInput["resume"]>> {
    const paused = await this.pausedTurns.get(sessionId);
    if (!paused) {
      throw new HomedError("invalid_request", "No turn of this session is waiting for tool results: they answer the tool_calls of homed's last answer in this conversation", { param: "messages" });
    }
    const byId = new Map(given.map((r) => [r.tool_call_id, r.content]));
    const waited = paused.pending.map((c) => c.id);
    if (waited.some((id) => !byId.has(id)) || byId.size !== waited.length) {
      throw new HomedError("invalid_request", `The tool results answer ${[...byId.keys()].join(", ")}, but the paused turn waits for ${waited.join(", ")}`, { param: "messages" });
    }
    await this.pausedTurns.drop(sessionId);
    return { paused, results: paused.pending.map((c) => ({ role: "tool", tool_call_id: c.id, content: byId.get(c.id)! })) };
  }

  private async runWith(
    { session, input: typed, images, audio, onEvent, params, provider: providerId, clientTools, toolResults, history, instructions, turnId }: TurnRequest,
    signal: AbortSignal,
  ): Promise<TurnResult> {
    const provider = providerId === undefined ? await this.providers.active() : await this.providers.target(providerId);
    if (!provider) throw providerId === undefined ? new NoProviderError() : new ProviderNotFound(providerId);
    // A voice message is heard before on_input: its transcript is the input the stages and recall read.
    const voice = audio?.length ? await hearVoice(audio, await this.providers.audioTarget("transcription"), (line) => this.options.log.warn(`session ${session.id}: ${line}`)) : undefined;
    const input = voice ? [voice.said, typed].filter(Boolean).join("\n") : typed;
    // A new message leaves a paused round behind (the client moved on): it is never stored.
    const resume = toolResults ? await this.resumeOf(session.id, toolResults) : (await this.pausedTurns.leave(session.id), undefined);
    const client = this.chatModel({
      baseUrl: provider.baseUrl,
      apiKey: provider.apiKey,
      sequenceGuard: this.options.sequenceGuard ?? "repair",
      timeoutMs: this.options.providerTimeoutMs,
      onRepair: (repairs) => this.options.log.warn(`session ${session.id}: sequence guard repaired a request: ${repairs.join("; ")}`),
    });
    const contextWindow = await this.contextWindows.of(provider);
    const budget = budgetFor(this.budget, contextWindow, answerTokensOf(params));
    const result = await runTurn(
      {
        engine: this.turnEngine,
        client,
        model: provider.model,
        // The permission gate last: what the person is asked about is the call as it will run,
        // after every other participant has rewritten or denied it.
        participants: [...this.participants, this.permissions.participant],
        tools: this.tools,
        systemPrompt: this.options.systemPrompt ?? DEFAULT_SYSTEM_PROMPT,
        budget,
        maxIterations: this.options.maxIterations ?? 8,
        vision: provider.vision !== false,
        log: (line) => this.options.log.warn(`session ${session.id}: ${line}`),
        restoreCold: (sessionId, ids) =>
          this.storeWrites.run(sessionId, async () => {
            const outcome = await restoreColdTurns(this.options.client, sessionId, ids, { maxTokens: Math.min(this.injection.restore.maxTokens, Math.floor(budget / 4)) });
            return { restored: outcome.restored.map((e) => e.id), skipped: outcome.skipped };
          }),
      },
      {
        sessionId: session.id,
        channel: session.channel,
        partner: session.partner,
        turnId: turnId ?? randomUUID(),
        conversation: session.partner,
        input,
        images,
        ...(voice ? { audio: voice.parts } : {}),
        signal,
        onEvent,
        params,
        clientTools,
        resume,
        history,
        instructions,
        contextWindow,
      },
    );
    if (result.paused) await this.pausedTurns.put(session.id, result.paused);
    await this.sessions.touch(session.id);
    return result;
  }
}

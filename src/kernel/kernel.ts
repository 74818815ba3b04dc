/**
 * The kernel: sessions, providers, tools and participants around `runTurn`. Turns of one
 * session run one at a time (a second message waits for the first), so events never interleave.
 */
import { randomUUID } from "node:crypto";
import type { Client } from "@libsql/client";
import { createContextEngine, type ContextEngine } from "../context/index.ts";
import { createFallbackEmbedder, type Embedder } from "../embed/index.ts";
import { ChatClient, type SequenceGuardMode } from "../llm/index.ts";
import type { Logger } from "../log/index.ts";
import { DEFAULT_INJECTION, type InjectionConfig } from "../memory/index.ts";
import { memoryParticipant } from "./memory-participant.ts";
import { ProviderStore, type ProviderEnv } from "./providers.ts";
import { Sessions, type Session } from "./sessions.ts";
import type { Participant } from "./stages.ts";
import { ToolRegistry } from "./tools.ts";
import { runTurn, type TurnEvent, type TurnResult } from "./turn.ts";

export type KernelOptions = {
  client: Client;
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
  injection?: InjectionConfig;
};

export const DEFAULT_SYSTEM_PROMPT =
  "You are homed, a helpful assistant with long-term memory. Memories recalled from earlier conversations may appear below; use them when relevant and cite their ids.";

export class NoProviderError extends Error {
  readonly code = "no_provider";
  constructor() {
    super("No model provider is configured: add one in the console or set HOMED_BASE_URL and HOMED_MODEL (and HOMED_API_KEY)");
    this.name = "NoProviderError";
  }
}

export type TurnRequest = { session: Session; input: string; signal?: AbortSignal; onEvent?: (e: TurnEvent) => void };

export class Kernel {
  readonly sessions: Sessions;
  readonly providers: ProviderStore;
  readonly tools = new ToolRegistry();
  readonly engine: ContextEngine;
  private readonly participants: Participant[] = [];
  private readonly queues = new Map<string, Promise<unknown>>();

  constructor(private readonly options: KernelOptions) {
    const embedder = options.embedder ?? createFallbackEmbedder();
    this.sessions = new Sessions(options.client);
    this.providers = new ProviderStore(options.client, options.env);
    this.engine = createContextEngine({ client: options.client, embedder, logger: options.log });
    this.participants.push(
      memoryParticipant({
        client: options.client,
        embedder,
        config: options.injection ?? DEFAULT_INJECTION,
        conversationOf: async (id) => (await this.sessions.get(id))?.partner ?? id,
      }),
    );
  }

  /** Rendered-context budget in tokens, per turn. */
  get budget(): number {
    return this.options.budget ?? 24_000;
  }

  /** The database the kernel works on. */
  get client(): Client {
    return this.options.client;
  }

  addParticipant(participant: Participant): void {
    this.participants.push(participant);
  }

  /** Runs one turn; turns of the same session queue behind each other. */
  turn(request: TurnRequest): Promise<TurnResult> {
    const id = request.session.id;
    const previous = this.queues.get(id) ?? Promise.resolve();
    const next = previous.catch(() => {}).then(() => this.runOne(request));
    this.queues.set(id, next);
    return next.finally(() => {
      if (this.queues.get(id) === next) this.queues.delete(id);
    });
  }

  private async runOne({ session, input, signal, onEvent }: TurnRequest): Promise<TurnResult> {
    const provider = await this.providers.active();
    if (!provider) throw new NoProviderError();
    const client = new ChatClient({
      baseUrl: provider.baseUrl,
      apiKey: provider.apiKey,
      sequenceGuard: this.options.sequenceGuard ?? "repair",
      timeoutMs: this.options.providerTimeoutMs,
      onRepair: (repairs) => this.options.log.warn(`sequence guard repaired a request: ${repairs.join("; ")}`),
    });
    const result = await runTurn(
      {
        engine: this.engine,
        client,
        model: provider.model,
        participants: this.participants,
        tools: this.tools,
        systemPrompt: this.options.systemPrompt ?? DEFAULT_SYSTEM_PROMPT,
        budget: this.budget,
        maxIterations: this.options.maxIterations ?? 8,
        log: (line) => this.options.log.warn(line),
      },
      { sessionId: session.id, channel: session.channel, partner: session.partner, turnId: randomUUID(), conversation: session.partner, input, signal, onEvent },
    );
    await this.sessions.touch(session.id);
    return result;
  }
}

/**
 * Turns waiting for their caller's tool results, kept in the store (`paused_turns`, one per
 * session) so an OpenAI client whose tool call outlives a daemon restart (an update, a crash)
 * still gets its turn finished. Nothing of the paused round is in the session's history until the
 * results come, so a round never answered leaves history valid; the row goes when the results
 * come or when the session's next message leaves the round behind.
 *
 * The row is written with secrets masked as a stored turn is (issue 15: the user's input, the
 * round's arguments, results; mask-event.ts), so a password typed into a paused turn is not kept
 * on disk even for a while; on resume the model sees the markers, as it does in stored history.
 * The row is never recalled, searched or shown, and lives only until the turn goes on.
 */
import type { Client } from "@libsql/client";
import { z } from "zod";
import { ChatMessageSchema, maskEventSecrets, ToolCallSchema, type ChatMessage, type ContextEvent } from "../context/index.ts";
import { deletePausedTurn, hasPausedTurn, pausedTurnOf, putPausedTurn } from "../store/index.ts";
import type { PausedRound } from "./turn.ts";

const UsageSchema = z.object({ prompt_tokens: z.number(), completion_tokens: z.number(), total_tokens: z.number() });

/** A stored round, checked as it is read back: a row from another version is refused, not trusted. */
const PausedRoundSchema = z.object({
  message: z.looseObject({ role: z.literal("assistant"), content: z.unknown(), tool_calls: z.array(ToolCallSchema) }),
  results: z.array(ChatMessageSchema),
  pending: z.array(ToolCallSchema).min(1),
  systemMessage: ChatMessageSchema,
  turnMessages: z.array(ChatMessageSchema),
  iterations: z.number().int().nonnegative(),
  toolCalls: z.number().int().nonnegative(),
  usage: UsageSchema.optional(),
});

/** Messages with secrets masked, as writeL1Event masks a stored turn's. */
const masked = <M extends ChatMessage>(messages: M[]): M[] => maskEventSecrets({ id: "paused", time: new Date().toISOString(), messages } as ContextEvent).event.messages as M[];

/** The round as it may be kept: its messages masked; the client's calls keep their ids and names. */
function maskedRound(round: PausedRound): PausedRound {
  const [message] = masked([round.message]);
  const [systemMessage] = masked([round.systemMessage]);
  const pending = masked([{ role: "assistant", content: null, tool_calls: round.pending }])[0]!.tool_calls!;
  return { ...round, message: message!, systemMessage: systemMessage!, results: masked(round.results), turnMessages: masked(round.turnMessages), pending };
}

export class PausedTurns {
  constructor(private readonly client: Client) {}

  async put(sessionId: string, round: PausedRound): Promise<void> {
    await putPausedTurn(this.client, sessionId, JSON.stringify(maskedRound(round)));
  }

  /** The session's paused round, or undefined when none waits (or the stored one does not parse). */
  async get(sessionId: string): Promise<PausedRound | undefined> {
    const stored = await pausedTurnOf(this.client, sessionId);
    if (stored === undefined) return undefined;
    let json: unknown;
    try {
      json = JSON.parse(stored);
    } catch {
      return undefined;
    }
    const parsed = PausedRoundSchema.safeParse(json);
    return parsed.success ? (parsed.data as PausedRound) : undefined;
  }

  async drop(sessionId: string): Promise<void> {
    await deletePausedTurn(this.client, sessionId);
  }

  /** Drops the session's paused round if it has one: a read first, so a turn with none costs no write. */
  async leave(sessionId: string): Promise<void> {
    if (await hasPausedTurn(this.client, sessionId)) await this.drop(sessionId);
  }
}

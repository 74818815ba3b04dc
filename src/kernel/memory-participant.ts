/**
 * Built-in memory as a stage participant (not a special case in the loop):
 * - `pre_action`: builds the turn's injection from cold context and stable facts within the
 *   conversation's scope (peeking only: nothing moves), audits it, and reports it to surfaces;
 * - `after_output`: the ids the model cited gain weight for next time.
 */
import type { Client } from "@libsql/client";
import type { Embedder } from "../embed/index.ts";
import { auditInjection, buildInjection, recordCitations, type InjectedLine, type InjectionConfig } from "../memory/index.ts";
import type { Participant } from "./stages.ts";

export type MemoryParticipantOptions = {
  client: Client;
  embedder?: Embedder;
  config: InjectionConfig;
  /** Resolves a session to its recall scope (the conversation key). */
  conversationOf: (sessionId: string) => Promise<string>;
};

export function memoryParticipant(options: MemoryParticipantOptions): Participant {
  const injectedByTurn = new Map<string, InjectedLine[]>();
  return {
    name: "memory",
    deadlineMs: 3000,
    hooks: {
      async pre_action({ sessionId, turnId, input }) {
        const conversation = await options.conversationOf(sessionId);
        const injection = await buildInjection(options.client, input, { conversation, embedder: options.embedder, config: options.config });
        if (injection.lines.length) {
          await auditInjection(options.client, sessionId, injection, options.config.auditKeep);
          injectedByTurn.set(turnId, injection.lines);
          // A cancelled turn never reaches after_output: forget the oldest so the map stays small.
          if (injectedByTurn.size > 64) injectedByTurn.delete(injectedByTurn.keys().next().value!);
        }
        return {
          inject: injection.text || undefined,
          report: { query: injection.query, counts: injection.counts, chars: injection.chars, lines: injection.lines.map((l) => l.line), ids: injection.lines.map((l) => l.id) },
        };
      },
      async after_output({ turnId, text }) {
        const injected = injectedByTurn.get(turnId);
        injectedByTurn.delete(turnId);
        if (injected) await recordCitations(options.client, text, injected);
      },
    },
  };
}

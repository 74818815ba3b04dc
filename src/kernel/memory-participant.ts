/**
 * Built-in memory as a stage participant (not a special case in the loop):
 * - `pre_action`: builds the turn's injection from cold context and stable facts within the
 *   user's whole memory, the conversation's own first, never what is private to another partner
 *   (a peek), moves the chat's own cold turns recall is sure of back into L1 (confirm → move),
 *   audits what was injected, and reports both to surfaces;
 * - `after_output`: the ids the model cited gain weight for next time, and the turn is observed
 *   as an occurrence of its scene (its fingerprint now includes the tools it used); the turn's
 *   events are tagged with the scene so later recall in the same situation favours them.
 */

/** Words of the input that describe its topic in a fingerprint. */
const TOPIC_WORDS = 8;
import type { Client } from "@libsql/client";
import type { Embedder } from "../embed/index.ts";
import {
  activeScene,
  auditInjection,
  buildInjection,
  injectionOf,
  observeScene,
  restoreColdTurns,
  recordCitations,
  timeOfDay,
  visibleScopes,
  type Fingerprint,
  type InjectedLine,
  type InjectionConfig,
} from "../memory/index.ts";
import { searchWords, topicWords } from "../text/index.ts";
import type { Participant } from "./stages.ts";
import { fileLiveEventsInScene } from "../store/index.ts";

export type MemoryParticipantOptions = {
  client: Client;
  embedder?: Embedder;
  config: InjectionConfig;
  /** Tokens one turn may restore from cold context (the config's cap, bounded by the request's budget). */
  restoreTokens: number;
  /** Resolves a session to its recall scope (the conversation key). */
  conversationOf: (sessionId: string) => Promise<string>;
};

export function memoryParticipant(options: MemoryParticipantOptions): Participant {
  /** What pre_action learned about a turn, for after_output. */
  const turns = new Map<string, { fingerprint: Fingerprint; injected: InjectedLine[] }>();
  return {
    name: "memory",
    deadlineMs: 3000,
    hooks: {
      async pre_action({ sessionId, turnId, channel, partner, input, sessionHistory, contextWindow }) {
        const conversation = await options.conversationOf(sessionId);
        const topic = [...new Set(await searchWords(input))].slice(0, TOPIC_WORDS);
        // Words as written name the scene in the console (0.05-0.25 ms a turn beside searchWords' 0.14-0.36).
        const words = await topicWords(input, TOPIC_WORDS);
        const fingerprint: Fingerprint = { channel, partner, topic, words, timeOfDay: timeOfDay(Date.now()) };
        const sceneId = await activeScene(options.client, fingerprint);
        // All of the user's memory, this conversation's first; never another partner's private memory.
        // As much as the model's window and the scores' fall-off call for (injection-window.ts).
        let injection = await buildInjection(options.client, input, { prefer: conversation, viewer: { partner }, embedder: options.embedder, config: options.config, sceneId, contextWindow });
        // Peek → confirm → move: what recall is sure of from this chat's own past comes back as
        // the original turns, and its lines leave the injection (the model reads them verbatim).
        const confident = injection.lines.filter((l) => l.confident).map((l) => l.id);
        const restored = confident.length && sessionHistory ? (await restoreColdTurns(options.client, sessionId, confident, { maxTokens: options.restoreTokens })).restored.map((e) => e.id) : [];
        if (restored.length) {
          const moved = new Set(restored);
          injection = injectionOf(
            injection.query,
            injection.lines.filter((l) => !moved.has(l.id)),
          );
        }
        if (injection.lines.length || restored.length) await auditInjection(options.client, sessionId, injection, options.config.auditKeep, Date.now(), restored);
        turns.set(turnId, { fingerprint, injected: injection.lines });
        // A cancelled turn never reaches after_output: forget the oldest so the map stays small.
        if (turns.size > 64) turns.delete(turns.keys().next().value!);
        return {
          inject: injection.text || undefined,
          ...(restored.length ? { restored } : {}),
          report: {
            // Cold events moved back into this chat's context (L1), whole turns, in their places.
            restored,
            query: injection.query,
            counts: injection.counts,
            chars: injection.chars,
            lines: injection.lines.map((l) => l.line),
            ids: injection.lines.map((l) => l.id),
            // What was searched: the user's memory and what is private to this partner.
            scopes: ["user", ...visibleScopes({ partner })],
          },
        };
      },
      async after_output({ sessionId, turnId, text, tools }) {
        const turn = turns.get(turnId);
        turns.delete(turnId);
        if (!turn) return;
        if (turn.injected.length) await recordCitations(options.client, text, turn.injected);
        const { sceneId } = await observeScene(options.client, { ...turn.fingerprint, tools });
        if (sceneId) {
          await fileLiveEventsInScene(options.client, sessionId, sceneId);
        }
      },
    },
  };
}

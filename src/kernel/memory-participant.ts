/**
 * Built-in memory as a stage participant (not a special case in the loop): at `pre_action` it
 * peeks into cold context for the input, within the conversation's scope, and injects the best
 * few as cited lines. Peeking changes nothing; moving memories back into L1 is a deliberate
 * recall, not a side effect of reading.
 */
import type { Client } from "@libsql/client";
import type { Embedder } from "../embed/index.ts";
import { coldcontextQuery, type Candidate } from "../memory/index.ts";
import type { Participant } from "./stages.ts";

export type MemoryParticipantOptions = {
  client: Client;
  embedder?: Embedder;
  /** Resolves a session to its recall scope (the conversation key). */
  conversationOf: (sessionId: string) => Promise<string>;
  /** Memories injected per turn (default 5). */
  k?: number;
  /** Characters per injected memory, so one long memory cannot crowd out the rest. */
  maxChars?: number;
};

const shortId = (id: string) => id.replace(/[^a-zA-Z0-9]/g, "").slice(-8);

function line(c: Candidate, maxChars: number): string {
  const when = new Date(c.time).toISOString().slice(0, 10);
  const text = c.text.length > maxChars ? `${c.text.slice(0, maxChars)}…` : c.text;
  return `- (id:${shortId(c.id)}) [${when}${c.speaker ? ` ${c.speaker}` : ""}] ${text.replace(/\s+/g, " ")}`;
}

export function memoryParticipant(options: MemoryParticipantOptions): Participant {
  const k = options.k ?? 5;
  const maxChars = options.maxChars ?? 400;
  return {
    name: "memory",
    deadlineMs: 3000,
    hooks: {
      async pre_action({ sessionId, input }) {
        const conversation = await options.conversationOf(sessionId);
        const found = await coldcontextQuery(options.client, input, { k, conversation, embedder: options.embedder });
        const lines = found.map((c) => line(c, maxChars));
        const inject = lines.length ? `Relevant memories from earlier conversations (cite an id when you use one):\n${lines.join("\n")}` : undefined;
        return {
          inject,
          report: { query: input, ids: found.map((c) => c.id), counts: { L2: found.length, L3: 0 }, chars: inject?.length ?? 0, lines },
        };
      },
    },
  };
}

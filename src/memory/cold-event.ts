/**
 * Writes cold-context (L2) events: the same shape as L1 — an `events` row plus its blocks —
 * with layer and holder L2, the message's provenance (`source_id`, unique per conversation) and
 * its vector in the embedder's space. Statements are built here and run by the caller inside its
 * own transaction (an import stages them first: see src/store/import-staging.ts); the caller indexes the
 * event's `searchText` for search.
 */
import { createHash } from "node:crypto";
import type { InStatement } from "@libsql/client";
import type { SearchText } from "../search/index.ts";
import type { PrivateScope } from "./scope.ts";
import { countTokensYielding, loadTokenizer } from "../text/index.ts";

export type ColdMessage = {
  conversation: string;
  session: string;
  /** Milliseconds since the epoch. */
  time: number;
  speaker: string;
  role: "user" | "assistant" | "system" | "tool";
  text: string;
  /** The message's id where it came from; unique per conversation. */
  sourceId: string;
  /** Image references (URL or path) shared with the message. */
  images?: readonly string[];
  scope?: "user" | "conversation" | "project";
  /** Private to one partner or project (`homed import --scope`); absent: every chat may recall it. */
  privateTo?: PrivateScope | null;
};

/** Stable ids: re-importing a message names the same event, whatever order lines come in. */
export function coldEventId(conversation: string, sourceId: string): string {
  return `ev_${createHash("sha256").update(`${conversation}\u0000${sourceId}`).digest("hex").slice(0, 24)}`;
}

/** The session id an imported message lives in: sessions are per conversation. */
export const coldSessionId = (conversation: string, session: string) => `${conversation}/${session}`;

export type VectorTag = { modelId: string; vector: Float32Array };

/**
 * What the search index holds for a message: its speaker, its text, and the text of its
 * neighbours in the session (`context`). The stored text and the vector stay the message's own.
 * Why the speaker: questions name people ("what did Caroline research?") and a message does not
 * say who wrote it. Why the neighbours: an answer rarely repeats its question's words — the
 * turn before it does ("what did you do yesterday?" / "I went to a support group"). Measured on
 * LoCoMo dev with words+grams fused: R@5/R@50 .443/.682 bare, .506/.758 with the speaker,
 * .620/.861 with the speaker and two neighbours each side. The neighbours go in their own
 * column and count half (`CONTEXT_WEIGHT`): the message that says the words ranks first.
 */
export function searchText(message: ColdMessage, context: string): SearchText {
  return { own: `${message.speaker}: ${message.text}`, context };
}

/**
 * A cold event's INSERTs, into the visible tables or an import's staging ones (which take the
 * rowid first). A staged event has no staged text block: the import's last step makes it from the
 * event row (src/store/import-staging.ts), which saved writing and deleting a copy of every text
 * (100k messages: 10.3-10.4 -> 9.1-9.3 s).
 */
function insertsInto(staged: boolean) {
  const [events, blocks] = staged ? ["import_events (event_rowid, ", "import_blocks (event_rowid, "] : ["events (", "blocks ("];
  const mark = staged ? "?, " : "";
  const block = (kind: string) => `INSERT INTO ${blocks}id, event_id, kind, holder, content, created_at) VALUES (${mark}?, ?, '${kind}', 'L2', ?, ?)`;
  return {
    event: `INSERT INTO ${events}id, session_id, conversation, scope, private_to, layer, seq, time, speaker, role, source_id,
              messages, text, tokens, embed_model, embedding, created_at)
            VALUES (${mark}?, ?, ?, ?, ?, 'L2', ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    text: staged ? undefined : block("text"),
    image: block("image"),
  };
}

/** Built once: an import writes a statement or two a message, and each new string is hashed again where they are merged. */
const INSERTS = { visible: insertsInto(false), staged: insertsInto(true) };

/**
 * The rows of one cold event. `stagedAs`: the rowid the event will have once its import makes it
 * visible — then the event and its image blocks go to the import's staging tables (`import_events`,
 * `import_blocks`), where no recall sees them until the event row itself exists (see
 * src/store/import-staging.ts).
 */
export async function coldEventStatements(message: ColdMessage, seq: number, vector: VectorTag | undefined, now: number, stagedAs?: number): Promise<InStatement[]> {
  await loadTokenizer();
  const id = coldEventId(message.conversation, message.sourceId);
  const messages = JSON.stringify([{ role: message.role, name: message.speaker, content: message.text }]);
  const embedding = vector ? new Uint8Array(vector.vector.buffer, vector.vector.byteOffset, vector.vector.byteLength) : null;
  const sql = stagedAs === undefined ? INSERTS.visible : INSERTS.staged;
  const rowid = stagedAs === undefined ? [] : [stagedAs];
  const statements: InStatement[] = [
    {
      sql: sql.event,
      args: [
        ...rowid,
        id,
        coldSessionId(message.conversation, message.session),
        message.conversation,
        message.scope ?? "conversation",
        message.privateTo ?? null,
        seq,
        message.time,
        message.speaker,
        message.role,
        message.sourceId,
        messages,
        message.text,
        await countTokensYielding(message.text),
        vector?.modelId ?? null,
        embedding,
        now,
      ],
    },
  ];
  if (sql.text) statements.push({ sql: sql.text, args: [`${id}.0`, id, message.text, now] });
  for (const [i, image] of (message.images ?? []).entries()) statements.push({ sql: sql.image, args: [...rowid, `${id}.${i + 1}`, id, image, now] });
  return statements;
}

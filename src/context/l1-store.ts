/**
 * L1 in the store: writing an event with its blocks and both vectors, reading a session's
 * live events back for pruning, and sinking events to L2.
 *
 * A sink is two UPDATEs in one transaction — `events.layer` and `blocks.holder` — so ids stay,
 * nothing is copied, and a block is never in two layers or in none, even if the process dies
 * halfway. The event was indexed for search when it was written, so it is searchable in L2 the
 * moment it sinks.
 */
import type { Client, InArgs, Transaction } from "@libsql/client";
import { dataUrlImageBytes, EmbedError, embedText, type Embedder } from "../embed/index.ts";
import { conversationScopeKey, indexForSearch, VECTOR_DIM } from "../store/index.ts";
import { loadTokenizer, searchWords, TfidfCorpus, yieldIfLong, type SparseVector } from "../text/index.ts";
import { eventText, messageText, type ChatMessage, type ContextEvent } from "./messages.ts";
import { maskEventSecrets } from "./mask-event.ts";
import type { MaskedSecret } from "../text/index.ts";
import type { PrunableEvent } from "./prune.ts";
import { eventTokensYielding } from "./tokens.ts";

export type BlockKind = "text" | "image";

export type NewBlock = { id: string; kind: BlockKind; content: string; mime?: string };

/**
 * The blocks of an event: one text block per message with text, one image block per image
 * part. Ids derive from the event id and position, so they are stable and re-derivable.
 */
export function eventBlocks(eventId: string, messages: readonly ChatMessage[]): NewBlock[] {
  const blocks: NewBlock[] = [];
  const add = (kind: BlockKind, content: string) => blocks.push({ id: `${eventId}#${blocks.length}`, kind, content });
  for (const message of messages) {
    const text = messageText(message);
    if (text.length > 0) add("text", text);
    if (Array.isArray(message.content)) {
      for (const part of message.content) if (part.type === "image_url") add("image", part.image_url.url);
    }
  }
  return blocks;
}

/**
 * Vectors for image blocks pasted inline (data: URLs), in the same space as text, when the
 * embedder has an image encoder. Remote image URLs are not fetched: that would leak what the
 * user looks at. An image that does not decode simply has no vector; the turn goes on.
 */
async function embedImageBlocks(embedder: Embedder, blocks: readonly NewBlock[]): Promise<Map<string, Float32Array>> {
  const vectors = new Map<string, Float32Array>();
  if (!embedder.embedImages) return vectors;
  for (const block of blocks) {
    const bytes = block.kind === "image" ? dataUrlImageBytes(block.content) : undefined;
    if (!bytes) continue;
    try {
      const [vector] = await embedder.embedImages([bytes], { purpose: "write" });
      if (vector) vectors.set(block.id, vector);
    } catch (error) {
      if (!(error instanceof EmbedError)) throw error;
    }
  }
  return vectors;
}

export type WriteL1Input = {
  sessionId: string;
  conversation: string;
  event: ContextEvent;
  embedder: Embedder;
  now?: number;
};

function asBlob(vector: Float32Array): Uint8Array {
  return new Uint8Array(vector.buffer, vector.byteOffset, vector.byteLength);
}

async function sessionTfidfCorpus(tx: Transaction, sessionId: string): Promise<TfidfCorpus> {
  // `+layer`: by the layer index SQLite walked every live event of every session (20k live
  // events: 14 ms on each append, vs 0.02 ms through the session's own index).
  const rows = await tx.execute({ sql: "SELECT tfidf FROM events WHERE session_id = ? AND +layer = 'L1' AND tfidf IS NOT NULL", args: [sessionId] });
  return TfidfCorpus.fromDocuments(rows.rows.map((r) => Object.keys(JSON.parse(String(r.tfidf)) as SparseVector)));
}

/**
 * Writes one event into L1. Its TF-IDF vector is weighted by the session's live L1 events at
 * the time of writing (L1 is bounded by pruning, so this read stays small); reweighting every
 * stored vector on each write would cost a write per event per turn.
 */
export async function writeL1Event(client: Client, input: WriteL1Input): Promise<{ seq: number; tokens: number; masked: MaskedSecret[] }> {
  const { embedder } = input;
  // Secrets are masked before anything is analysed or stored (`masked`: kinds, for the log).
  const { event, masked } = maskEventSecrets(input.event);
  if (embedder.dimension !== VECTOR_DIM) {
    throw new Error(`Cannot write event ${event.id}: embedder ${embedder.modelId} has dimension ${embedder.dimension}, the store holds ${VECTOR_DIM}`);
  }
  await loadTokenizer();
  const text = eventText(event.messages);
  const tokens = await eventTokensYielding(event.messages);
  const words = await searchWords(text);
  const dense = await embedText(embedder, text);
  const blocks = eventBlocks(event.id, event.messages);
  const imageVectors = await embedImageBlocks(embedder, blocks);
  const now = input.now ?? Date.now();
  // The loop's turn between the analysis above and the writes below (each synchronous).
  await yieldIfLong();
  const tx = await client.transaction("write");
  try {
    const tfidf = (await sessionTfidfCorpus(tx, input.sessionId)).vector(words);
    const next = await tx.execute({ sql: "SELECT COALESCE(MAX(seq), -1) + 1 AS seq FROM events WHERE session_id = ?", args: [input.sessionId] });
    const seq = Number(next.rows[0]!.seq);
    await tx.execute({
      sql: `INSERT INTO events (id, session_id, conversation, layer, seq, time, role, messages, text, tokens, embed_model, embedding, tfidf, created_at)
            VALUES (?, ?, ?, 'L1', ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      args: [
        event.id, input.sessionId, input.conversation, seq, Date.parse(event.time), event.messages[0]!.role,
        JSON.stringify(event.messages), text, tokens, embedder.modelId, asBlob(dense), JSON.stringify(tfidf), now,
      ],
    });
    for (const block of blocks) {
      const vector = imageVectors.get(block.id);
      await tx.execute({
        sql: "INSERT INTO blocks (id, event_id, kind, holder, content, embed_model, embedding, created_at) VALUES (?, ?, ?, 'L1', ?, ?, ?, ?)",
        args: [block.id, event.id, block.kind, block.content, vector ? embedder.modelId : null, vector ? asBlob(vector) : null, now],
      });
    }
    // Indexed with the turn before it: an answer rarely repeats its question's words, so once it
    // sinks it must still be findable by them (the same idea as imported history's neighbours;
    // measured there: LoCoMo R@5 .506 → .611 with one neighbour each side).
    const previous = await tx.execute({ sql: "SELECT text FROM events WHERE session_id = ? AND seq = ?", args: [input.sessionId, seq - 1] });
    const context = previous.rows[0] ? String(previous.rows[0].text) : "";
    await indexForSearch(tx, "event", event.id, { own: text, context }, conversationScopeKey(input.conversation), { isNew: true });
    await yieldIfLong();
    await tx.commit();
    return { seq, tokens, masked };
  } finally {
    tx.close();
  }
}

/** A session's L1 as the context dump `homed context render` reads (the inverse of parseContextDump). */
export async function exportContextDump(client: Client, sessionId: string): Promise<ContextEvent[]> {
  const rows = await client.execute({
    sql: "SELECT id, time, messages FROM events WHERE session_id = ? AND layer = 'L1' ORDER BY seq",
    args: [sessionId],
  });
  return rows.rows.map((r) => ({ id: String(r.id), time: new Date(Number(r.time)).toISOString(), messages: JSON.parse(String(r.messages)) }));
}

export type L1Row = PrunableEvent & { seq: number; messages: ChatMessage[] };

/** A session's live events, chronological, with what pruning and rendering need. */
export async function loadL1Events(client: Client, sessionId: string): Promise<L1Row[]> {
  const result = await client.execute({
    sql: "SELECT id, seq, tokens, messages, embed_model, embedding, tfidf FROM events WHERE session_id = ? AND layer = 'L1' ORDER BY seq",
    args: [sessionId],
  });
  return result.rows.map((row) => {
    const bytes = row.embedding as ArrayBuffer | null;
    return {
      id: String(row.id),
      seq: Number(row.seq),
      tokens: Number(row.tokens),
      // Stored by this module from parsed, closed groups: trusted, not re-validated.
      messages: JSON.parse(String(row.messages)) as ChatMessage[],
      dense: bytes && row.embed_model ? { model: String(row.embed_model), vector: new Float32Array(bytes.slice(0)) } : undefined,
      tfidf: row.tfidf ? (JSON.parse(String(row.tfidf)) as SparseVector) : undefined,
    };
  });
}

/** SQLite's bound-parameter limit is far above this; chunks keep each statement small. */
const CHUNK = 500;

/**
 * Moves events and their blocks from L1 to L2 in one transaction. Every id must be an L1
 * event; otherwise nothing moves and the error names the count that did not match.
 */
export async function sinkToL2(client: Client, ids: readonly string[], now: number = Date.now()): Promise<void> {
  const eventIds = [...new Set(ids)];
  if (eventIds.length === 0) return;
  const tx = await client.transaction("write");
  try {
    let moved = 0;
    for (let i = 0; i < eventIds.length; i += CHUNK) {
      const ids = eventIds.slice(i, i + CHUNK) as InArgs & string[];
      const marks = ids.map(() => "?").join(", ");
      // `+layer`/`+holder`: by ids, not through the layer/holder index, which walks every live
      // event (and block) of every session.
      const events = await tx.execute({ sql: `UPDATE events SET layer = 'L2', sunk_at = ? WHERE +layer = 'L1' AND id IN (${marks})`, args: [now, ...ids] });
      moved += events.rowsAffected;
      await tx.execute({ sql: `UPDATE blocks SET holder = 'L2' WHERE +holder = 'L1' AND event_id IN (${marks})`, args: ids });
    }
    if (moved !== eventIds.length) {
      throw new Error(`Cannot sink to L2: ${eventIds.length - moved} of ${eventIds.length} events are not in L1`);
    }
    await tx.commit();
  } finally {
    // close() without commit rolls back: a failed sink leaves every holder as it was.
    tx.close();
  }
}

/**
 * L1 in the store: writing an event with its blocks and both vectors, reading a session's
 * live events back for pruning, and sinking events to L2.
 *
 * A sink is two UPDATEs in one transaction — `events.layer` and `blocks.holder` — so ids stay,
 * nothing is copied, and a block is never in two layers or in none, even if the process dies
 * halfway. The event was indexed for search when it was written, so it is searchable in L2 the
 * moment it sinks.
 */
import { createHash } from "node:crypto";
import type { Client, Transaction } from "@libsql/client";
import { dataUrlImageBytes, EmbedError, embedText, imageEmbedder, type Embedder } from "../embed/index.ts";
import { eventTextAt, insertBlock, insertBlockBytes, insertEvent, liveEvents, liveTfidfJson, nextSeq, sinkEvents } from "../store/index.ts";
import { indexEvent, mergeInBackground } from "../search/index.ts";
import { loadTokenizer, searchWords, TfidfCorpus, yieldIfLong, type SparseVector } from "../text/index.ts";
import { eventText, messageText, type ChatMessage, type ContextEvent } from "./messages.ts";
import { maskEventSecrets } from "./mask-event.ts";
import type { MaskedSecret } from "../text/index.ts";
import type { PrunableEvent } from "./prune.ts";
import { eventTokensYielding } from "./tokens.ts";

export type BlockKind = "text" | "image" | "audio";

/** `content`: text, an image's URL, or an audio block's transcript (null: not transcribed). */
export type NewBlock = { id: string; kind: BlockKind; content: string | null; mime?: string; bytes?: Uint8Array };

/**
 * The blocks of an event: one text block per message with text, one image block per image
 * part, one audio block per voice message. Ids derive from the event id and position, so they
 * are stable and re-derivable; an audio block keeps the id its part names (the console plays it by it).
 */
export function eventBlocks(eventId: string, messages: readonly ChatMessage[]): NewBlock[] {
  const blocks: NewBlock[] = [];
  const add = (kind: BlockKind, content: string) => blocks.push({ id: `${eventId}#${blocks.length}`, kind, content });
  for (const message of messages) {
    const text = messageText(message);
    if (text.length > 0) add("text", text);
    if (Array.isArray(message.content)) {
      for (const part of message.content) {
        if (part.type === "image_url") add("image", part.image_url.url);
        if (part.type === "audio") {
          const { id, mime, transcript, data } = part.audio;
          blocks.push({ id, kind: "audio", content: transcript ?? null, mime, ...(data ? { bytes: Buffer.from(data, "base64") } : {}) });
        }
      }
    }
  }
  return blocks;
}

/** The messages as stored: an audio part's bytes go to its block, not into the event's JSON. */
const withoutAudioData = (messages: readonly ChatMessage[]): ChatMessage[] =>
  messages.map((m) =>
    Array.isArray(m.content) && m.content.some((p) => p.type === "audio" && p.audio.data !== undefined)
      ? ({ ...m, content: m.content.map((p) => (p.type === "audio" ? { ...p, audio: { ...p.audio, data: undefined } } : p)) } as ChatMessage)
      : m,
  );

/**
 * Vectors for image blocks pasted inline (data: URLs), by the embedder's image model: itself
 * (Chinese-CLIP: the same space as text) or CLIP beside a text-only model (CLIP's own space).
 * Remote image URLs are not fetched: that would leak what the user looks at. An image that does
 * not decode simply has no vector; the turn goes on.
 */
async function embedImageBlocks(embedder: Embedder, blocks: readonly NewBlock[]): Promise<{ model?: string; vectors: Map<string, Float32Array> }> {
  const vectors = new Map<string, Float32Array>();
  const images = imageEmbedder(embedder);
  if (!images?.embedImages) return { vectors };
  for (const block of blocks) {
    const bytes = block.kind === "image" && block.content ? dataUrlImageBytes(block.content) : undefined;
    if (!bytes) continue;
    try {
      const [vector] = await images.embedImages([bytes], { purpose: "write" });
      if (vector) vectors.set(block.id, vector);
    } catch (error) {
      if (!(error instanceof EmbedError)) throw error;
    }
  }
  return { model: images.modelId, vectors };
}

export type WriteL1Input = {
  sessionId: string;
  conversation: string;
  event: ContextEvent;
  embedder: Embedder;
  now?: number;
};

async function sessionTfidfCorpus(tx: Transaction, sessionId: string): Promise<TfidfCorpus> {
  const vectors = await liveTfidfJson(tx, sessionId);
  return TfidfCorpus.fromDocuments(vectors.map((json) => Object.keys(JSON.parse(json) as SparseVector)));
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
  await loadTokenizer();
  const text = eventText(event.messages);
  const tokens = await eventTokensYielding(event.messages);
  const words = await searchWords(text);
  const dense = await embedText(embedder, text);
  const blocks = eventBlocks(event.id, event.messages);
  const images = await embedImageBlocks(embedder, blocks);
  const now = input.now ?? Date.now();
  // The loop's turn between the analysis above and the writes below (each synchronous).
  await yieldIfLong();
  const tx = await client.transaction("write");
  try {
    const tfidf = (await sessionTfidfCorpus(tx, input.sessionId)).vector(words);
    const seq = await nextSeq(tx, input.sessionId);
    const rowid = await insertEvent(tx, {
      id: event.id,
      sessionId: input.sessionId,
      conversation: input.conversation,
      layer: "L1",
      seq,
      time: Date.parse(event.time),
      role: event.messages[0]!.role,
      messages: JSON.stringify(withoutAudioData(event.messages)),
      text,
      tokens,
      embedModel: embedder.modelId,
      embedding: dense,
      tfidf: JSON.stringify(tfidf),
      stopped: event.stopped ?? null,
      createdAt: now,
    });
    for (const block of blocks) {
      const vector = images.vectors.get(block.id);
      await insertBlock(tx, {
        id: block.id,
        eventId: event.id,
        kind: block.kind,
        holder: "L1",
        content: block.content,
        ...(block.mime ? { mime: block.mime } : {}),
        ...(block.bytes ? { size: block.bytes.byteLength, sha256: createHash("sha256").update(block.bytes).digest("hex") } : {}),
        embedModel: vector ? images.model! : null,
        embedding: vector ?? null,
        createdAt: now,
      });
      if (block.bytes) await insertBlockBytes(tx, block.id, block.bytes);
    }
    // Indexed with the turn before it: an answer rarely repeats its question's words, so once it
    // sinks it must still be findable by them (the same idea as imported history's neighbours;
    // measured there: LoCoMo R@5 .506 → .611 with one neighbour each side).
    const context = (await eventTextAt(tx, input.sessionId, seq - 1)) ?? "";
    await indexEvent(tx, rowid, { own: text, context });
    await yieldIfLong();
    await tx.commit();
    // Each turn's event is a segment of its own; every eighth of a level, they are merged.
    void mergeInBackground(client);
    return { seq, tokens, masked };
  } finally {
    tx.close();
  }
}

/** A session's L1 as the context dump `homed context render` reads (the inverse of parseContextDump). */
export async function exportContextDump(client: Client, sessionId: string): Promise<ContextEvent[]> {
  const rows = await liveEvents(client, sessionId);
  return rows.map((r) => ({ id: r.id, time: new Date(r.time).toISOString(), messages: JSON.parse(r.messages), ...(r.stopped ? { stopped: true as const } : {}) }));
}

export type L1Row = PrunableEvent & { seq: number; messages: ChatMessage[] };

/** A session's live events, chronological, with what pruning and rendering need. */
export async function loadL1Events(client: Client, sessionId: string): Promise<L1Row[]> {
  const rows = await liveEvents(client, sessionId);
  return rows.map((row) => ({
    id: row.id,
    seq: row.seq,
    tokens: row.tokens,
    // Stored by this module from parsed, closed groups: trusted, not re-validated.
    messages: JSON.parse(row.messages) as ChatMessage[],
    dense: row.embedding && row.embedModel ? { model: row.embedModel, vector: row.embedding } : undefined,
    tfidf: row.tfidf ? (JSON.parse(row.tfidf) as SparseVector) : undefined,
  }));
}

/**
 * Moves events and their blocks from L1 to L2 in one transaction. Every id must be an L1
 * event; otherwise nothing moves and the error names the count that did not match.
 */
export async function sinkToL2(client: Client, ids: readonly string[], now: number = Date.now()): Promise<void> {
  const eventIds = [...new Set(ids)];
  if (eventIds.length === 0) return;
  const tx = await client.transaction("write");
  try {
    const moved = await sinkEvents(tx, eventIds, now);
    if (moved !== eventIds.length) {
      throw new Error(`Cannot sink to L2: ${eventIds.length - moved} of ${eventIds.length} events are not in L1`);
    }
    await tx.commit();
  } finally {
    // close() without commit rolls back: a failed sink leaves every holder as it was.
    tx.close();
  }
}

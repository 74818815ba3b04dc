/**
 * Audio blocks' bytes: a voice message's recording in `block_data` beside its `blocks` row (kind
 * `audio`, `content` its transcript or NULL when it was not transcribed), so the console can play
 * it back and a scan of `blocks` never reads it.
 */
import { and, eq, inArray, isNotNull } from "drizzle-orm";
import { queryDb, type Executor } from "./query-db.ts";
import { blockData, blocks, events } from "./schema.ts";

export async function insertBlockBytes(client: Executor, blockId: string, bytes: Uint8Array): Promise<void> {
  await queryDb(client)
    .insert(blockData)
    .values({ blockId, bytes: Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength) });
}

export type AudioBlock = { id: string; eventId: string | null; holder: string; mime: string; transcript: string | null; bytes: Uint8Array };

/** An audio block with its recording, whichever layer holds it; undefined when there is none. */
export async function audioBlock(client: Executor, id: string): Promise<AudioBlock | undefined> {
  const [row] = await queryDb(client)
    .select({ id: blocks.id, eventId: blocks.eventId, holder: blocks.holder, mime: blocks.mime, transcript: blocks.content, bytes: blockData.bytes })
    .from(blocks)
    .innerJoin(blockData, eq(blockData.blockId, blocks.id))
    .where(and(eq(blocks.id, id), eq(blocks.kind, "audio")))
    .limit(1);
  return row && { ...row, mime: row.mime ?? "application/octet-stream", bytes: new Uint8Array(row.bytes) };
}

/**
 * The transcripts of this conversation's audio blocks with these sha256s: a client re-sending
 * its history (an OpenAI client's earlier voice message) reads what was heard, without hearing
 * it again. Only the conversation's own: the same bytes said elsewhere are not looked up.
 */
export async function heardTranscripts(client: Executor, conversation: string, sha256s: readonly string[]): Promise<Map<string, string>> {
  if (sha256s.length === 0) return new Map();
  const rows = await queryDb(client)
    .select({ sha256: blocks.sha256, transcript: blocks.content })
    .from(blocks)
    .innerJoin(events, eq(events.id, blocks.eventId))
    .where(and(eq(blocks.kind, "audio"), inArray(blocks.sha256, [...new Set(sha256s)]), isNotNull(blocks.content), eq(events.conversation, conversation)));
  return new Map(rows.map((r) => [r.sha256!, r.transcript!]));
}

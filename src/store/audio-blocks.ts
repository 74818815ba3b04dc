/**
 * Audio blocks' bytes: a voice message's recording in `block_data` beside its `blocks` row (kind
 * `audio`, `content` its transcript or NULL when it was not transcribed), so the console can play
 * it back and a scan of `blocks` never reads it.
 */
import { and, eq } from "drizzle-orm";
import { queryDb, type Executor } from "./query-db.ts";
import { blockData, blocks } from "./schema.ts";

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

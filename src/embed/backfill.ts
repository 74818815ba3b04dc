/**
 * Backfill: after a switch of embedder, re-embeds stored records whose `embed_model` is not the
 * active model's, in small batches, each batch its own short transaction, so readers (recall)
 * keep working between them. Until a record is re-embedded, recall's vector channel simply does
 * not see it (it compares only vectors of the active model); the word and gram channels still do.
 *
 * Resumable by construction: progress is the `embed_model` column itself, so a stopped backfill
 * (crash, Ctrl-C, restart) continues with what is still stale. A row-id cursor keeps one run
 * from looping over a record it cannot embed (an undecodable image); the next run retries it.
 *
 * Covered: events (their `text`) and blocks: text blocks' `content`, and image blocks when the
 * embedder has an image model (itself, or Chinese-CLIP beside a text-only model: then image
 * blocks are stale against CLIP's model and get CLIP's vectors, its own space), from their
 * `block_data` bytes or an inline `data:image/…;base64` URL in `content` (how chat messages carry
 * pasted images). Remote image URLs are not fetched:
 * the daemon does not reach out to arbitrary hosts on its own. Triples are left to the L3
 * writer, which alone knows the text a fact is embedded from.
 */
import type { Client } from "@libsql/client";
import { dataUrlImageBytes } from "./data-url.ts";
import { imageEmbedder, type Embedder } from "./embedder.ts";
import { countStaleRecords, ensureVectorSpace, INDEX_FROM_VECTORS, releaseLease, saveVectors, staleRecords, takeLease, vectorCoverage, type EmbedSpaces, type StaleRecord } from "../store/index.ts";

export type BackfillTable = "events" | "blocks";
export type BackfillProgress = { table: BackfillTable; done: number; skipped: number; total: number; model: string };
export type BackfillOptions = {
  batchSize?: number;
  onProgress?: (progress: BackfillProgress) => void;
  /** Stops between batches; what is done stays done. */
  signal?: AbortSignal;
  /** Asked before each batch; false stops the run like `signal` (the lease went to another daemon). */
  keepGoing?: () => Promise<boolean>;
};
export type BackfillReport = Record<BackfillTable, { done: number; skipped: number; total: number }> & { stopped: boolean };

type Row = StaleRecord;

/** The models the embedder's records should carry: its own for text, its image model's for images. */
export function embedSpaces(embedder: Embedder): EmbedSpaces {
  return { text: embedder.modelId, image: imageEmbedder(embedder)?.modelId };
}

/** Counts records not yet embedded by the embedder (a model id alone: a text-only model), per table. */
export async function countStale(client: Client, embedder: Embedder | string): Promise<Record<BackfillTable, number>> {
  const spaces = typeof embedder === "string" ? { text: embedder } : embedSpaces(embedder);
  return { events: await countStaleRecords(client, "events", spaces), blocks: await countStaleRecords(client, "blocks", spaces) };
}

/** The image bytes of a block: its stored payload, or an inline data: URL. */
function imageBytes(row: Row): Uint8Array | undefined {
  if (row.bytes) return row.bytes;
  return row.text ? dataUrlImageBytes(row.text) : undefined;
}

type Embedded = { vector: Float32Array; model: string };

/** Vectors for a page, each with the model that made it; `undefined` where a record cannot be embedded. */
async function embedPage(embedder: Embedder, rows: Row[]): Promise<(Embedded | undefined)[]> {
  const out: (Embedded | undefined)[] = new Array(rows.length).fill(undefined);
  const texts = rows.flatMap((r, i) => (r.kind === "text" && r.text ? [{ i, text: r.text }] : []));
  const vectors = await embedder.embedTexts(
    texts.map((t) => t.text),
    { purpose: "write" },
  );
  for (const [k, t] of texts.entries()) if (vectors[k]) out[t.i] = { vector: vectors[k], model: embedder.modelId };
  const images = imageEmbedder(embedder);
  if (images?.embedImages) {
    for (const [i, r] of rows.entries()) {
      const bytes = r.kind === "image" ? imageBytes(r) : undefined;
      if (!bytes) continue;
      try {
        const [vector] = await images.embedImages([bytes], { purpose: "write" });
        if (vector) out[i] = { vector, model: images.modelId };
      } catch (error) {
        // One bad image must not stop the backfill; it stays stale and is retried next run.
        if ((error as { code?: string }).code !== "image_decode") throw error;
      }
    }
  }
  return out;
}

export async function backfillEmbeddings(client: Client, embedder: Embedder, options: BackfillOptions = {}): Promise<BackfillReport> {
  const batchSize = options.batchSize ?? 64;
  const model = embedder.modelId;
  const spaces = embedSpaces(embedder);
  const totals = await countStale(client, embedder);
  const report: BackfillReport = {
    events: { done: 0, skipped: 0, total: totals.events },
    blocks: { done: 0, skipped: 0, total: totals.blocks },
    stopped: false,
  };
  for (const table of ["events", "blocks"] as const) {
    const tally = report[table];
    let cursor = 0;
    for (;;) {
      if (options.signal?.aborted || (options.keepGoing && !(await options.keepGoing()))) {
        report.stopped = true;
        return report;
      }
      const rows = await staleRecords(client, table, spaces, cursor, batchSize);
      if (rows.length === 0) break;
      cursor = rows[rows.length - 1]!.rowid;
      const vectors = await embedPage(embedder, rows);
      const updates: { id: string; vector: Float32Array; model: string }[] = [];
      for (const [i, embedded] of vectors.entries()) {
        if (embedded) updates.push({ id: rows[i]!.id, ...embedded });
        else tally.skipped++;
      }
      // The stale check in the UPDATE keeps a concurrent writer's fresh vector from being overwritten.
      await saveVectors(client, table, updates);
      tally.done += updates.length;
      options.onProgress?.({ table, done: tally.done, skipped: tally.skipped, total: tally.total, model });
    }
  }
  return report;
}

/** How long a backfill lease lasts without renewal (renewed before each batch of ~16 records). */
export const BACKFILL_LEASE_MS = 5 * 60_000;

/**
 * The backfill, run by one daemon among those sharing a database: by the holder of the lease
 * `backfill:<model>` (src/store/job-lease.ts), renewed before each batch and released at the
 * end. Resolves undefined when another daemon holds it (it does the work; this one would only
 * repeat it). A holder that dies leaves the rest to the next daemon start after the lease expires.
 */
export async function leasedBackfill(client: Client, embedder: Embedder, holder: string, options: BackfillOptions = {}): Promise<BackfillReport | undefined> {
  const job = `backfill:${embedder.modelId}`;
  const hold = () => takeLease(client, job, holder, BACKFILL_LEASE_MS);
  if (!(await hold())) return undefined;
  try {
    const report = await backfillEmbeddings(client, embedder, { ...options, keepGoing: hold });
    // The model's indexed vector table, once it has enough vectors for scans to be slow (the
    // vector channel also starts it on first need; a no-op once built).
    if (!report.stopped && (await vectorCoverage(client, embedder.modelId)).embedded > INDEX_FROM_VECTORS) await ensureVectorSpace(client, embedder.modelId);
    return report;
  } finally {
    await releaseLease(client, job, holder).catch(() => {});
  }
}

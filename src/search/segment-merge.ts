/**
 * Merging segments as a stream (the segments' format: segments.ts). Their terms are walked in
 * order, a page of postings records from each source at a time — each segment's sorted term list
 * is in chunks (segment-terms.ts), and the postings table's key is (term, segment), so a page is
 * a range of that list joined to its records by key — and the merged records are written a page
 * at a time as they are made, with the chunks of the merged term list they complete. What a
 * merge holds is its documents' arrays (rowids, lengths, the old → new ordinals), a page of
 * records per source and one being written, and less than a chunk of the merged term list: never
 * the sources' vocabularies as objects nor their postings. Merging whole in memory, eight
 * import-sized segments held ~100 MiB.
 *
 * Documents keep rowid order; those whose event is gone are left out, as are terms left with no
 * posting. The records are exactly what a SegmentBuilder fed the same documents would write
 * (tests/search/segment-merge.test.ts holds the two equal on random segments).
 */
import type { Client, InStatement, ResultSet, Transaction } from "@libsql/client";
import { decodeSegmentDocs, encodeSegmentDocs, forEachPosting, INDEX_CHANNELS, PostingsWriter, type IndexChannel, type SegmentDocs } from "./postings-codec.ts";
import { yieldIfLong } from "../text/index.ts";
import { collectGarbage } from "../runtime/index.ts";
import { levelOf, postingsInserts, segmentRowInsert, type PostingsRecord } from "./segments.ts";
import { TermChunkWriter, termCountSql, termRangeSql } from "./segment-terms.ts";

type Reader = Pick<Client | Transaction, "execute">;

/** Runs statements in order as one unit (the caller's transaction, or a short one of their own); their results. */
export type WriteStatements = (statements: InStatement[]) => Promise<ResultSet[]>;

/**
 * Records read from a source at a time, and merged records written at a time. 4,096 records of
 * an open vocabulary are ~150 KB of postings; a source of 65,000 terms is read in 16 pages, each
 * two whole chunks of its term list (TERMS_PER_CHUNK).
 */
export const MERGE_PAGE_RECORDS = 4_096;

export type MergeOptions = {
  pageRecords?: number;
  /** Called with the records held at each page read or write (for tests: the bound is a page per source and one). */
  onHeld?: (records: number) => void;
  /** Called after each page of merged records is written (for tests: a merge killed midway). */
  onPageWritten?: (pages: number) => Promise<void> | void;
};

/** Pages between full collections (an eager one after every other page). */
const FULL_GC_PAGES = 8;

type Source = { id: number; level: number; docs: SegmentDocs; terms: number };

/** The sources' rows (all of them, or undefined when one is gone), in the order of `ids`. */
async function readSources(db: Reader, ids: readonly number[]): Promise<Source[] | undefined> {
  const rows = await db.execute({
    sql: `SELECT id, level, docs, rowids, lengths, ${termCountSql("search_segments.id")} AS terms FROM search_segments WHERE id IN (SELECT value FROM json_each(?))`,
    args: [JSON.stringify(ids)],
  });
  const byId = new Map(
    rows.rows.map((r) => [
      Number(r.id),
      { id: Number(r.id), level: Number(r.level), terms: Number(r.terms), docs: decodeSegmentDocs(Number(r.docs), new Uint8Array(r.rowids as ArrayBuffer), new Uint8Array(r.lengths as ArrayBuffer)) },
    ]),
  );
  const sources = ids.map((id) => byId.get(id));
  return sources.every((s) => s !== undefined) ? (sources as Source[]) : undefined;
}

/**
 * A merged segment's level: its documents' at least, and one above its sources' — eight
 * segments near the top of their level (an import's 3,600 messages, level 3) make one of the
 * same level by documents (28,800), which would be merged with the next seven again and again.
 */
const mergedLevel = (docs: number, sources: readonly { level: number }[]) => Math.max(levelOf(docs), 1 + Math.max(...sources.map((s) => s.level)));

/** Rowids looked up in `events` per statement. */
const LOOKUP_ROWIDS = 30_000;

/** The merged documents: the sources' documents whose event still exists, in rowid order, and each source's old → new ordinals (-1: left out). */
async function keptDocuments(db: Reader, sources: readonly Source[]) {
  const total = sources.reduce((n, s) => n + s.docs.rowids.length, 0);
  const rowids = new Float64Array(total);
  const source = new Uint16Array(total);
  const ordinal = new Uint32Array(total);
  let at = 0;
  for (const [si, s] of sources.entries()) {
    rowids.set(s.docs.rowids, at);
    source.fill(si, at, at + s.docs.rowids.length);
    for (let i = 0; i < s.docs.rowids.length; i++) ordinal[at + i] = i;
    at += s.docs.rowids.length;
  }
  const order = new Uint32Array(total);
  for (let i = 0; i < total; i++) order[i] = i;
  order.sort((a, b) => rowids[a]! - rowids[b]!);
  const renumber = sources.map((s) => new Int32Array(s.docs.rowids.length).fill(-1));
  const kept: number[] = [];
  const lengths: Record<IndexChannel, number[]> = { words: [], trigrams: [], bigrams: [] };
  const tokens: Record<IndexChannel, number> = { words: 0, trigrams: 0, bigrams: 0 };
  for (let from = 0; from < total; from += LOOKUP_ROWIDS) {
    const slice = Array.from(order.subarray(from, from + LOOKUP_ROWIDS), (i) => rowids[i]!);
    const found = await db.execute({ sql: "SELECT rowid AS r FROM events WHERE rowid IN (SELECT value FROM json_each(?))", args: [JSON.stringify(slice)] });
    const alive = new Set(found.rows.map((r) => Number(r.r)));
    for (const i of order.subarray(from, from + LOOKUP_ROWIDS)) {
      if (!alive.has(rowids[i]!)) continue;
      const s = sources[source[i]!]!;
      renumber[source[i]!]![ordinal[i]!] = kept.length;
      kept.push(rowids[i]!);
      for (const channel of INDEX_CHANNELS) {
        const n = s.docs.lengths[channel][ordinal[i]!]!;
        lengths[channel].push(n);
        tokens[channel] += n;
      }
    }
  }
  return { kept, lengths, tokens, renumber };
}

/**
 * One source's records in term order, a page at a time: a range of its term list (by position)
 * joined to its records by the postings table's key.
 */
class SourceCursor {
  #page: PostingsRecord[] = [];
  #at = 0;
  #next = 0;

  constructor(
    private readonly db: Reader,
    private readonly source: Source,
    private readonly pageRecords: number,
  ) {}

  /** The current record (undefined at the end); `fill` first when `exhausted`. */
  get head(): PostingsRecord | undefined {
    return this.#page[this.#at];
  }

  get held(): number {
    return this.#page.length - this.#at;
  }

  get exhausted(): boolean {
    return this.#at >= this.#page.length && this.#next < this.source.terms;
  }

  advance(): void {
    this.#at++;
  }

  async fill(): Promise<void> {
    // Read on until a record or the end: a range whose terms have no record (a term list that
    // lists more than its records) is skipped, not taken for the end.
    while (this.#at >= this.#page.length && this.#next < this.source.terms) {
      const rows = await this.db.execute({
        sql: `SELECT r.term, p.postings FROM (${termRangeSql("?1", "?2", "?3")}) AS r
              CROSS JOIN search_postings AS p ON p.term = r.term AND p.segment = ?1 ORDER BY r.position`,
        args: [this.source.id, this.#next, this.pageRecords],
      });
      this.#next += this.pageRecords;
      this.#page = rows.rows.map((r) => ({ term: String(r.term), postings: new Uint8Array(r.postings as ArrayBuffer) }));
      this.#at = 0;
    }
  }
}

/**
 * Writes the merge of segments `ids` through `write` as a new segment in `state`, reading the
 * sources through `read`: its row first, then its records a page at a time with the chunks of its
 * term list each page completes, the last chunk last. Returns the new segment's id (undefined
 * when no document is left), or undefined when a source is gone (nothing written).
 */
export async function writeMergedSegment(read: Reader, ids: readonly number[], write: WriteStatements, state: string, options: MergeOptions = {}): Promise<{ id: number | undefined } | undefined> {
  const pageRecords = options.pageRecords ?? MERGE_PAGE_RECORDS;
  const sources = await readSources(read, ids);
  if (!sources) return undefined;
  const { kept, lengths, tokens, renumber } = await keptDocuments(read, sources);
  if (kept.length === 0) return { id: undefined };
  const encoded = encodeSegmentDocs(kept, lengths);
  const [inserted] = await write([segmentRowInsert({ state, importRun: null, level: mergedLevel(kept.length, sources), docs: kept.length, tokens, ...encoded })]);
  const id = Number(inserted!.lastInsertRowid);

  const cursors = sources.map((s) => new SourceCursor(read, s, pageRecords));
  const termList = new TermChunkWriter(id);
  let out: PostingsRecord[] = [];
  let pages = 0;
  const held = () => out.length + cursors.reduce((n, c) => n + c.held, 0);
  const flush = async () => {
    options.onHeld?.(held());
    await write([...postingsInserts(id, out), ...termList.add(out.map((r) => r.term))]);
    out = [];
    // Each page leaves its rows' strings and blobs behind; a daemon's collector let a 100k
    // import's merges pile them up to 900 MiB of RSS. A full collection now and then, as an import does.
    collectGarbage(++pages % FULL_GC_PAGES === 0);
    await options.onPageWritten?.(pages);
  };
  const ordinals: number[] = [];
  const tfs: number[] = [];
  for (;;) {
    let term: string | undefined;
    for (const c of cursors) {
      if (c.exhausted) {
        await c.fill();
        options.onHeld?.(held());
      }
      const head = c.head;
      if (head && (term === undefined || head.term < term)) term = head.term;
    }
    if (term === undefined) break;
    ordinals.length = 0;
    tfs.length = 0;
    let ascending = true;
    for (const [si, c] of cursors.entries()) {
      if (c.head?.term !== term) continue;
      const map = renumber[si]!;
      forEachPosting(c.head.postings, (old, tf2) => {
        const ordinal = map[old]!;
        if (ordinal < 0) return;
        if (ordinals.length > 0 && ordinal < ordinals[ordinals.length - 1]!) ascending = false;
        ordinals.push(ordinal);
        tfs.push(tf2);
      });
      c.advance();
    }
    if (ordinals.length === 0) continue;
    const writer = new PostingsWriter();
    if (ascending) for (let i = 0; i < ordinals.length; i++) writer.add(ordinals[i]!, tfs[i]!);
    else for (const i of Array.from(ordinals.keys()).sort((a, b) => ordinals[a]! - ordinals[b]!)) writer.add(ordinals[i]!, tfs[i]!);
    out.push({ term, postings: writer.finish() });
    if (out.length >= pageRecords) await flush();
    await yieldIfLong();
  }
  if (out.length > 0) await flush();
  const last = termList.end();
  if (last.length > 0) await write(last);
  return { id };
}

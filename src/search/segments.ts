/**
 * The BM25 index of events, as segments (the shape of Lucene's and of FTS5's own storage, kept
 * where homed can score it without FTS5's per-row overhead — see search-bm25.ts):
 *
 * - a segment is written once by one write transaction (a chat turn's event, an import's
 *   batch) and never changed: its documents (event rowids, in ascending order, numbered by
 *   ordinal) and, per term, one postings record in `search_postings`;
 * - segments of one size class (level: ⌊log₈ documents⌋) are merged into one once MERGE_FACTOR
 *   of them exist (background-merge.ts, segment-merge.ts), so a term is found in a few dozen
 *   records at most, whatever the store's size;
 * - a deleted event's postings stay until its segment is next merged; searches never see them,
 *   as they look each result up in `events`.
 */
import type { Client, InStatement, Transaction } from "@libsql/client";
import { INDEX_CHANNELS, encodeSegmentDocs, type IndexChannel } from "./postings-codec.ts";
import { LineMemo, yieldIfLong } from "../text/index.ts";
import { PostingsPool } from "./postings-pool.ts";
import { analyseDocument, documentLines, lineTerms, type AnalysedDoc, type SearchText } from "./analysis.ts";
import { termChunkInserts } from "./segment-terms.ts";

type Executor = Pick<Client | Transaction, "execute" | "batch">;

/** Segments of a level merged at once: each posting is rewritten about log₈(documents) times. */
export const MERGE_FACTOR = 8;

/**
 * Segments of this level and above (8⁵ = 32,768 documents or more: eight merged from an import's)
 * are not merged again. A merge is a stream (segment-merge.ts), so its memory does not grow with
 * its sources; its time and a query's do: see docs/benchmarks.md for the measurement behind it.
 */
export const MAX_MERGE_LEVEL = 5;

/**
 * Messages a segment written by an import (or the upgrade from FTS5) holds. Its postings are held
 * in memory until it is written; 8,192 vs 16,384 a segment: 460 vs 480 MiB peak for a 100k import.
 */
export const BULK_SEGMENT_DOCS = 8_192;

/**
 * What a segment being built may hold in memory, in bytes (SegmentBuilder.bytes, within a few
 * percent of its heap): on an open vocabulary (names, codes, invented words, rare Chinese
 * trigrams) 8,192 messages make 100k+ terms, and the terms, not the documents, are what a builder
 * holds. Its sealed copy and its rows being written come on top, on the import's writing thread.
 */
export const BULK_SEGMENT_BYTES = 12 * 2 ** 20;

/**
 * Bytes a builder holds for each distinct term besides its characters and its share of the
 * PostingsPool: the Map entry, the string's header and the term in the list of terms (measured
 * with a full collection and the heap's size over segments of open-vocabulary terms: see
 * tests/search/segment-bytes.test.ts, which holds `bytes` to the heap it measures).
 */
const TERM_OVERHEAD_BYTES = 100;

/** Postings rows a statement inserts (three values each): a few ms of SQLite a statement. */
const ROWS_PER_INSERT = 200;

export const levelOf = (docs: number) => Math.floor(Math.log(Math.max(1, docs)) / Math.log(MERGE_FACTOR) + 1e-9);

export type SegmentState = "live" | "staged";

/** A line's term numbers (words, trigrams and bigrams in one array) and how many of them are words and bigrams. */
type NumberedLine = { numbers: Uint32Array; words: number; bigrams: number };

/** Documents gathered for one segment, in ascending rowid. */
export class SegmentBuilder {
  readonly #rowids: number[] = [];
  readonly #lengths: Record<IndexChannel, number[]> = { words: [], trigrams: [], bigrams: [] };
  /** The segment's terms, numbered in the order first met; their postings, by number. */
  readonly #numbers = new Map<string, number>();
  readonly #terms: string[] = [];
  readonly #postings = new PostingsPool();
  /** Recent lines' term numbers, for addText (valid in this builder only: the numbering is its own). */
  readonly #lines = new LineMemo<NumberedLine>(1_024);
  /** addText's counts by term number for the document being added, and which numbers it has. */
  #counts = new Uint32Array(4_096);
  readonly #counted: number[] = [];
  /** See `bytes`: the terms' and documents' part (the pool counts its own). */
  #bytes = 0;

  get docs(): number {
    return this.#rowids.length;
  }

  /**
   * About what the builder holds in memory: its terms (two bytes a character and TERM_OVERHEAD_BYTES
   * each), their postings (the pool's arrays) and its documents. An import seals a segment once
   * this passes its bound, however few documents it holds (BULK_SEGMENT_BYTES).
   */
  get bytes(): number {
    return this.#bytes + this.#postings.bytes;
  }

  /**
   * Adds an analysed document (an event's text), giving the event loop its turn in between: a
   * pasted page has ~15,000 terms, 24 ms of adding in one stretch.
   */
  async add(rowid: number, doc: AnalysedDoc): Promise<void> {
    const ordinal = this.addDocument(rowid, doc.lengths);
    let n = 0;
    for (const [term, tf2] of doc.terms) {
      this.addPosting(term, ordinal, tf2);
      if (++n % 512 === 0) await yieldIfLong();
    }
  }

  /**
   * Adds a document by its text: what `add(rowid, await analyseDocument(text))` adds, counted by
   * term number in an array instead of by term in a Map. An import adds every message so: the
   * Map's lookups, two per term occurrence and one more per term, were a fifth of its analysis.
   */
  async addText(rowid: number, text: SearchText): Promise<void> {
    this.#checkAscending(rowid);
    const { lines, trigramLength } = documentLines(text);
    const lengths: Record<IndexChannel, number> = { words: 0, trigrams: trigramLength, bigrams: 0 };
    for (const { line, weight } of lines) {
      const { numbers, words, bigrams } = await this.#numbered(line);
      lengths.words += words;
      lengths.bigrams += bigrams;
      const counts = this.#counts;
      for (const n of numbers) {
        if (counts[n] === 0) this.#counted.push(n);
        counts[n]! += weight;
      }
      await yieldIfLong();
    }
    const ordinal = this.addDocument(rowid, lengths);
    for (const n of this.#counted) {
      this.#post(n, ordinal, this.#counts[n]!);
      this.#counts[n] = 0;
    }
    this.#counted.length = 0;
  }

  async #numbered(line: string): Promise<NumberedLine> {
    const known = this.#lines.get(line);
    if (known) return known;
    const terms = await lineTerms(line);
    const all = [...terms.words, ...terms.trigrams, ...terms.bigrams];
    const numbered: NumberedLine = { numbers: Uint32Array.from(all, (term) => this.#number(term)), words: terms.words.length, bigrams: terms.bigrams.length };
    if (this.#counts.length < this.#terms.length) {
      const grown = new Uint32Array(Math.max(this.#terms.length, 2 * this.#counts.length));
      grown.set(this.#counts);
      this.#counts = grown;
    }
    this.#lines.set(line, numbered);
    return numbered;
  }

  #number(term: string): number {
    let n = this.#numbers.get(term);
    if (n === undefined) {
      n = this.#terms.length;
      this.#numbers.set(term, n);
      this.#terms.push(term);
      this.#postings.addTerm();
      this.#bytes += TERM_OVERHEAD_BYTES + 2 * term.length;
    }
    return n;
  }

  #post(n: number, ordinal: number, tf2: number): void {
    this.#postings.add(n, ordinal, tf2);
  }

  #checkAscending(rowid: number): void {
    const last = this.#rowids.at(-1);
    if (last !== undefined && rowid <= last) throw new RangeError(`Cannot index event rowid ${rowid} after ${last}: a segment's documents ascend`);
  }

  /** Adds a document without its terms (a merge adds those term by term); returns its ordinal. */
  addDocument(rowid: number, lengths: Record<IndexChannel, number>): number {
    this.#checkAscending(rowid);
    this.#rowids.push(rowid);
    for (const channel of INDEX_CHANNELS) this.#lengths[channel].push(lengths[channel]);
    // A rowid and three lengths, as numbers in arrays.
    this.#bytes += 32;
    return this.#rowids.length - 1;
  }

  /** One term's frequency in one document; a term's documents must come in ascending ordinal. */
  addPosting(term: string, ordinal: number, tf2: number): void {
    this.#post(this.#number(term), ordinal, tf2);
  }

  /**
   * The segment as it will be stored: what a builder in another thread hands over (plain data,
   * its byte arrays transferable). Undefined when no document was added.
   */
  seal(): SealedSegment | undefined {
    if (this.docs === 0) return undefined;
    const encoded = encodeSegmentDocs(this.#rowids, this.#lengths);
    const terms = [...this.#terms].sort();
    // Written straight into the one buffer: a copy of each record first held a second copy of
    // the segment's postings, in 100k+ small arrays on an open vocabulary.
    const numbers = Uint32Array.from(terms, (term) => this.#numbers.get(term)!);
    const ends = new Uint32Array(numbers.length);
    let end = 0;
    for (const [i, n] of numbers.entries()) ends[i] = end += this.#postings.recordLength(n);
    const postings = new Uint8Array(end);
    for (const [i, n] of numbers.entries()) this.#postings.writeRecord(n, postings, i === 0 ? 0 : ends[i - 1]!);
    const total = (channel: IndexChannel) => this.#lengths[channel].reduce((a, b) => a + b, 0);
    return { docs: this.docs, tokens: { words: total("words"), trigrams: total("trigrams"), bigrams: total("bigrams") }, ...encoded, terms, postings, ends };
  }

  /** Writes the segment through `db` (inside the caller's write transaction); its id, or undefined when empty. */
  async write(db: Executor, state: SegmentState, importRun: number | null = null): Promise<number | undefined> {
    const sealed = this.seal();
    return sealed && writeSealedSegment(db, sealed, state, importRun);
  }
}

/**
 * A segment ready to be written: its documents encoded, its terms in order and their postings
 * records end to end in one array (`ends[i]`: where term i's record ends) — one buffer to move
 * between threads rather than a few hundred thousand small ones.
 */
export type SealedSegment = {
  docs: number;
  tokens: Record<IndexChannel, number>;
  rowids: Uint8Array;
  lengths: Uint8Array;
  terms: string[];
  postings: Uint8Array;
  ends: Uint32Array;
};

/** One term's postings record in one segment. */
export type PostingsRecord = { term: string; postings: Uint8Array };

/** A segment's row, as `search_segments` holds it (its terms and postings go in separately: `termChunkInserts`, `postingsInserts`). */
export type SegmentRow = {
  state: string;
  importRun: number | null;
  level: number;
  docs: number;
  tokens: Record<IndexChannel, number>;
  rowids: Uint8Array;
  lengths: Uint8Array;
};

export const segmentRowInsert = (row: SegmentRow): InStatement => ({
  sql: `INSERT INTO search_segments (state, import_run, level, docs, tokens_words, tokens_trigrams, tokens_bigrams, rowids, lengths)
        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  args: [row.state, row.importRun, row.level, row.docs, row.tokens.words, row.tokens.trigrams, row.tokens.bigrams, row.rowids, row.lengths],
});

/** Statements inserting a segment's records, ROWS_PER_INSERT a statement. */
export function postingsInserts(segment: number, records: readonly PostingsRecord[]): InStatement[] {
  const statements: InStatement[] = [];
  for (let i = 0; i < records.length; i += ROWS_PER_INSERT) {
    const slice = records.slice(i, i + ROWS_PER_INSERT);
    statements.push({
      sql: `INSERT INTO search_postings (term, segment, postings) VALUES ${slice.map(() => "(?, ?, ?)").join(", ")}`,
      args: slice.flatMap((r) => [r.term, segment, r.postings]),
    });
  }
  return statements;
}

/** Writes a sealed segment through `db` (inside the caller's write transaction); its id. */
export async function writeSealedSegment(db: Executor, sealed: SealedSegment, state: SegmentState, importRun: number | null = null): Promise<number> {
  const inserted = await db.execute(
    segmentRowInsert({
      state,
      importRun,
      level: levelOf(sealed.docs),
      docs: sealed.docs,
      tokens: sealed.tokens,
      rowids: sealed.rowids,
      lengths: sealed.lengths,
    }),
  );
  const id = Number(inserted.lastInsertRowid);
  for (const statement of termChunkInserts(id, sealed.terms)) await db.execute(statement);
  // Views, not copies: the driver copies a blob's bytes as it binds them, and a copy each of 100k+
  // records was as many small arrays more on the heap while the segment was written.
  const record = (i: number) => sealed.postings.subarray(i === 0 ? 0 : sealed.ends[i - 1], sealed.ends[i]);
  for (let i = 0; i < sealed.terms.length; i += ROWS_PER_INSERT) {
    const records = sealed.terms.slice(i, i + ROWS_PER_INSERT).map((term, j) => ({ term, postings: record(i + j) }));
    for (const statement of postingsInserts(id, records)) await db.execute(statement);
    // Between statements the event loop runs (a health check, another request): awaiting a
    // statement alone does not let it, and a pasted page's segment took 76 ms in one stretch.
    await yieldIfLong();
  }
  return id;
}

/**
 * Deletes the records of one chunk of a segment's term list (TERMS_PER_CHUNK of them, ~10 ms of
 * SQLite): found by key, from the chunk SQLite reads itself rather than one bound term by term.
 */
const postingsDelete = (segment: number, chunk: number): InStatement => ({
  sql: `DELETE FROM search_postings WHERE segment = ?1 AND term IN
          (SELECT value FROM json_each((SELECT terms FROM search_segment_terms WHERE segment = ?1 AND chunk = ?2)))`,
  args: [segment, chunk],
});

/** Deletes segments, their term lists and their postings (inside the caller's write transaction). */
export async function deleteSegments(db: Executor, ids: readonly number[]): Promise<void> {
  for (const id of ids) {
    const chunks = await db.execute({ sql: "SELECT chunk FROM search_segment_terms WHERE segment = ? ORDER BY chunk", args: [id] });
    for (const r of chunks.rows) {
      await db.execute(postingsDelete(id, Number(r.chunk)));
      await yieldIfLong();
    }
    await db.execute({ sql: "DELETE FROM search_segment_terms WHERE segment = ?", args: [id] });
    await db.execute({ sql: "DELETE FROM search_segments WHERE id = ?", args: [id] });
  }
}

/**
 * The statements that make an import's staged segments live, for the transaction that makes its
 * events visible: one UPDATE a segment, by id. As one UPDATE by state, SQLite holds every updated
 * row whole until the commit. A row carried its term list until migration 0023 (~0.8 MB at 65k
 * terms: +218 MiB of VmHWM for 280 segments by state, +1 MiB by id); it still carries its
 * documents' rowids and lengths (~30–60 KB at 8,192 messages): 280 rows of 60 KB held 16.8 MiB
 * by state, 1.5 MiB by id (bench/openvocab/segment-update-heap.ts). The ids are read first: only
 * the import writes its own staged segments.
 */
export async function publishStagedSegments(db: Executor, importRun: number): Promise<InStatement[]> {
  const staged = await db.execute({ sql: "SELECT id FROM search_segments WHERE state = 'staged' AND import_run = ?", args: [importRun] });
  return staged.rows.map((r) => ({
    sql: "UPDATE search_segments SET state = 'live', import_run = NULL WHERE id = ? AND state = 'staged' AND import_run = ?",
    args: [Number(r.id), importRun],
  }));
}

/** Removes an import's staged segments: an import that failed or died before its last step. */
export async function dropStagedSegments(db: Executor, importRun: number): Promise<void> {
  const rows = await db.execute({ sql: "SELECT id FROM search_segments WHERE state = 'staged' AND import_run = ?", args: [importRun] });
  await deleteSegments(
    db,
    rows.rows.map((r) => Number(r.id)),
  );
}

/** Indexes one new event (inside the write transaction that inserted it) as a segment of its own. */
export async function indexEvent(tx: Executor, rowid: number, text: SearchText): Promise<void> {
  const builder = new SegmentBuilder();
  await builder.add(rowid, await analyseDocument(text));
  await builder.write(tx, "live");
}

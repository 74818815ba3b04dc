/**
 * The BM25 index of events, as segments (the shape of Lucene's and of FTS5's own storage, kept
 * where homed can score it without FTS5's per-row overhead — see search-bm25.ts):
 *
 * - a segment is written once by one write transaction (a chat turn's event, an import's
 *   batch) and never changed: its documents (event rowids, in ascending order, numbered by
 *   ordinal) and, per term, one postings record in `search_postings`;
 * - segments of one size class (level: ⌊log₈ documents⌋) are merged into one once MERGE_FACTOR
 *   of them exist, so a term is found in a few dozen records at most, whatever the store's size;
 * - a deleted event's postings stay until its segment is next merged; searches never see them,
 *   as they look each result up in `events`.
 */
import type { Client, InStatement, Transaction } from "@libsql/client";
import { INDEX_CHANNELS, forEachPosting, decodeSegmentDocs, encodeSegmentDocs, type IndexChannel, type SegmentDocs } from "./postings-codec.ts";
import { LineMemo, yieldIfLong } from "../text/index.ts";
import { PostingsPool } from "./postings-pool.ts";
import { analyseDocument, documentLines, lineTerms, type AnalysedDoc, type SearchText } from "./analysis.ts";

type Executor = Pick<Client | Transaction, "execute" | "batch">;

/** Segments of a level merged at once: each posting is rewritten about log₈(documents) times. */
export const MERGE_FACTOR = 8;

/**
 * Segments of this level and above (8⁴ = 4,096 documents or more: an import's, or eight merged
 * from 512 and up) are not merged again: merging eight of them would hold the write turn and
 * tens of MB of postings for seconds. A store of a million imported messages has some sixty
 * segments, and a query reads a term's records from each (measured in bench/recall).
 */
export const MAX_MERGE_LEVEL = 4;

/**
 * Messages a segment written by an import (or the upgrade from FTS5) holds. Its postings are held
 * in memory until it is written; 8,192 vs 16,384 a segment: 460 vs 480 MiB peak for a 100k import.
 * At this size segments are not merged again (MAX_MERGE_LEVEL).
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
  /** Its merge level when not the one its documents give (levelOf): see sealFull in import-analysis.ts. */
  level?: number;
  tokens: Record<IndexChannel, number>;
  rowids: Uint8Array;
  lengths: Uint8Array;
  terms: string[];
  postings: Uint8Array;
  ends: Uint32Array;
};

/** Writes a sealed segment through `db` (inside the caller's write transaction); its id. */
export async function writeSealedSegment(db: Executor, sealed: SealedSegment, state: SegmentState, importRun: number | null = null): Promise<number> {
  const inserted = await db.execute({
    sql: `INSERT INTO search_segments (state, import_run, level, docs, tokens_words, tokens_trigrams, tokens_bigrams, rowids, lengths, terms)
          VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    args: [
      state,
      importRun,
      sealed.level ?? levelOf(sealed.docs),
      sealed.docs,
      sealed.tokens.words,
      sealed.tokens.trigrams,
      sealed.tokens.bigrams,
      sealed.rowids,
      sealed.lengths,
      JSON.stringify(sealed.terms),
    ],
  });
  const id = Number(inserted.lastInsertRowid);
  // Views, not copies: the driver copies a blob's bytes as it binds them, and a copy each of 100k+
  // records was as many small arrays more on the heap while the segment was written.
  const record = (i: number) => sealed.postings.subarray(i === 0 ? 0 : sealed.ends[i - 1], sealed.ends[i]);
  for (let i = 0; i < sealed.terms.length; i += ROWS_PER_INSERT) {
    const slice = sealed.terms.slice(i, i + ROWS_PER_INSERT);
    await db.execute({
      sql: `INSERT INTO search_postings (term, segment, postings) VALUES ${slice.map(() => "(?, ?, ?)").join(", ")}`,
      args: slice.flatMap((term, j) => [term, id, record(i + j)]),
    });
    // Between statements the event loop runs (a health check, another request): awaiting a
    // statement alone does not let it, and a pasted page's segment took 76 ms in one stretch.
    await yieldIfLong();
  }
  return id;
}

/** Deletes segments and their postings (inside the caller's write transaction). */
export async function deleteSegments(db: Executor, ids: readonly number[]): Promise<void> {
  for (const id of ids) {
    const row = await db.execute({ sql: "SELECT terms FROM search_segments WHERE id = ?", args: [id] });
    if (!row.rows[0]) continue;
    const terms = JSON.parse(String(row.rows[0].terms)) as string[];
    for (let i = 0; i < terms.length; i += ROWS_PER_INSERT) {
      const slice = terms.slice(i, i + ROWS_PER_INSERT);
      await db.execute({ sql: `DELETE FROM search_postings WHERE segment = ? AND term IN (${slice.map(() => "?").join(", ")})`, args: [id, ...slice] });
    }
    await db.execute({ sql: "DELETE FROM search_segments WHERE id = ?", args: [id] });
  }
}

/** An import's staged segments become live with its events (in the same transaction). */
export const publishStagedSegments = (importRun: number): InStatement => ({
  sql: "UPDATE search_segments SET state = 'live', import_run = NULL WHERE state = 'staged' AND import_run = ?",
  args: [importRun],
});

/** Removes an import's staged segments: an import that failed or died before its last step. */
export async function dropStagedSegments(db: Executor, importRun: number): Promise<void> {
  const rows = await db.execute({ sql: "SELECT id FROM search_segments WHERE state = 'staged' AND import_run = ?", args: [importRun] });
  await deleteSegments(
    db,
    rows.rows.map((r) => Number(r.id)),
  );
}

/** The lowest level below MAX_MERGE_LEVEL holding MERGE_FACTOR live segments or more. */
async function fullLevel(db: Executor): Promise<number | undefined> {
  const levels = await db.execute({
    sql: "SELECT level FROM search_segments WHERE state = 'live' AND level < ? GROUP BY level HAVING count(*) >= ? ORDER BY level LIMIT 1",
    args: [MAX_MERGE_LEVEL, MERGE_FACTOR],
  });
  return levels.rows[0] === undefined ? undefined : Number(levels.rows[0].level);
}

type SourceSegment = { id: number; docs: SegmentDocs; terms: string[] };

/**
 * Merges the live segments of the lowest full level (MERGE_FACTOR or more of them, below
 * MAX_MERGE_LEVEL) into one, in one write transaction, leaving out documents whose event is
 * gone. Returns whether it merged (call again until it does not).
 */
export async function mergeOnce(client: Client): Promise<boolean> {
  // Looked up first by a plain read: after most turns no level is full, and a write transaction
  // would only wait for the write turn to find that out.
  if ((await fullLevel(client)) === undefined) return false;
  const tx = await client.transaction("write");
  try {
    // Again inside the write turn: another process may have merged meanwhile.
    const level = await fullLevel(tx);
    if (level === undefined) return false;
    // The oldest MERGE_FACTOR of the level, not all of them: a merge's size stays bounded (a
    // level can hold more when segments are written faster than merged).
    const rows = await tx.execute({
      sql: "SELECT id, docs, rowids, lengths, terms FROM search_segments WHERE state = 'live' AND level = ? ORDER BY id LIMIT ?",
      args: [level, MERGE_FACTOR],
    });
    const sources: SourceSegment[] = rows.rows.map((r) => ({
      id: Number(r.id),
      docs: decodeSegmentDocs(Number(r.docs), new Uint8Array(r.rowids as ArrayBuffer), new Uint8Array(r.lengths as ArrayBuffer)),
      terms: JSON.parse(String(r.terms)) as string[],
    }));
    const merged = await mergedSegment(tx, sources);
    await deleteSegments(
      tx,
      sources.map((s) => s.id),
    );
    await merged.write(tx, "live");
    await tx.commit();
    return true;
  } finally {
    tx.close();
  }
}

/** The documents of `sources` that still have an event, re-numbered in rowid order, with all their postings. */
async function mergedSegment(tx: Executor, sources: readonly SourceSegment[]): Promise<SegmentBuilder> {
  const all = sources.flatMap((s, si) => Array.from(s.docs.rowids, (rowid, ordinal) => ({ rowid, si, ordinal })));
  const alive = await existingRowids(
    tx,
    all.map((d) => d.rowid),
  );
  const kept = all.filter((d) => alive.has(d.rowid)).sort((a, b) => a.rowid - b.rowid);
  const builder = new SegmentBuilder();
  // Old (segment, ordinal) → new ordinal; -1: the event is gone.
  const renumber = sources.map((s) => new Int32Array(s.docs.rowids.length).fill(-1));
  for (const d of kept) {
    const lengths = {} as Record<IndexChannel, number>;
    for (const channel of INDEX_CHANNELS) lengths[channel] = sources[d.si]!.docs.lengths[channel][d.ordinal]!;
    renumber[d.si]![d.ordinal] = builder.addDocument(d.rowid, lengths);
  }
  const segmentIndex = new Map(sources.map((s, si) => [s.id, si]));
  const terms = [...new Set(sources.flatMap((s) => s.terms))].sort();
  for (let i = 0; i < terms.length; i += ROWS_PER_INSERT) {
    const slice = terms.slice(i, i + ROWS_PER_INSERT);
    const found = await tx.execute({
      sql: `SELECT term, segment, postings FROM search_postings WHERE term IN (${slice.map(() => "?").join(", ")}) AND segment IN (${sources.map(() => "?").join(", ")})`,
      args: [...slice, ...sources.map((s) => s.id)],
    });
    const byTerm = new Map<string, [number, number][]>();
    for (const r of found.rows) {
      const map = renumber[segmentIndex.get(Number(r.segment))!]!;
      const term = String(r.term);
      let list = byTerm.get(term);
      if (!list) byTerm.set(term, (list = []));
      forEachPosting(new Uint8Array(r.postings as ArrayBuffer), (ordinal, tf2) => {
        if (map[ordinal]! >= 0) list.push([map[ordinal]!, tf2]);
      });
    }
    for (const [term, list] of byTerm) for (const [ordinal, tf2] of list.sort((a, b) => a[0] - b[0])) builder.addPosting(term, ordinal, tf2);
    await yieldIfLong();
  }
  return builder;
}

async function existingRowids(db: Executor, rowids: readonly number[]): Promise<Set<number>> {
  const alive = new Set<number>();
  for (let i = 0; i < rowids.length; i += 30_000) {
    const slice = rowids.slice(i, i + 30_000);
    const rows = await db.execute({ sql: "SELECT rowid AS r FROM events WHERE rowid IN (SELECT value FROM json_each(?))", args: [JSON.stringify(slice)] });
    for (const r of rows.rows) alive.add(Number(r.r));
  }
  return alive;
}

/** Indexes one new event (inside the write transaction that inserted it) as a segment of its own. */
export async function indexEvent(tx: Executor, rowid: number, text: SearchText): Promise<void> {
  const builder = new SegmentBuilder();
  await builder.add(rowid, await analyseDocument(text));
  await builder.write(tx, "live");
}

const merging = new WeakMap<Client, Promise<void>>();

/**
 * Merges full levels after a write, in the background: the writer does not wait, and a merge
 * waits for its write turn like any writer. One chain per client; a call while one runs returns
 * that one — it merges until no level is full, the new segment included. A merge that fails
 * changes nothing (one transaction) and is tried again after the next write.
 */
export function mergeInBackground(client: Client): Promise<void> {
  const running = merging.get(client);
  if (running) return running;
  const run = (async () => {
    try {
      while (await mergeOnce(client));
    } catch {
      // See above: the index stays correct, only less merged, until the next write.
    } finally {
      merging.delete(client);
    }
  })();
  merging.set(client, run);
  return run;
}

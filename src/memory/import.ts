/**
 * History import: validated messages become L2 events. The messages stream by (a file of any
 * size is never held whole) and are written a chunk at a time in short transactions, staged so
 * that none is visible until the last one is written (src/store/import-staging.ts): a running daemon's
 * turns write between the chunks, and a failed or killed import leaves nothing visible.
 * Messages already present (same conversation and id) are skipped, so re-importing a file adds
 * nothing; an id read twice in one import is an invalid line.
 */
import type { Client, InStatement } from "@libsql/client";
import type { Embedder } from "../embed/index.ts";
import { collectGarbage } from "../runtime/index.ts";
import { HomedError } from "../errors/index.ts";
import { attachVectors, beginRun, dropRun, makeVisible, nextSeqsOf, readBefore, storedAmong, truncateWal, writeImportChunk, type ImportRun } from "../store/index.ts";
import { mergeInBackground, type SealedSegment } from "../search/index.ts";
import { coldEventId, coldEventStatements, coldSessionId, searchText, type ColdMessage } from "./cold-event.ts";
import type { InvalidLine } from "./import-format.ts";
import { startImportAnalysis, type ImportAnalysis, type SegmentLimits } from "./import-analysis.ts";
import { NeighbourWindow, type WithContext } from "./import-window.ts";
import { describeMasked, maskSecrets } from "../text/index.ts";

export type ImportProgress = (done: number, total: number) => void;

export type ImportResult = { added: number; present: number };

/** A message to import; `line`: where it stands in its file, for error messages. */
export type ImportMessage = ColdMessage & { line?: number };

/**
 * Messages per transaction (and per embedding call). Each commit waits for an fsync (~20 ms on
 * this machine; 500 a chunk spent 1.8 of 18 s committing 30k messages), so not too few; a
 * transaction must stay short enough that a daemon's turns wait no longer than a fraction of a
 * second for it (1000 messages: ~0.1-0.3 s of writing).
 */
const CHUNK = 1_000;

/**
 * Chunks the analysis runs ahead of the writing. With one, either thread waits whenever the other
 * has a slow chunk (a segment's seal, a chunk of long messages); 100k messages, one run each on
 * the quiet machine: 11.2 s with one, 10.5 s with two or three.
 */
const AHEAD = 2;

/**
 * Chunks between full garbage collections (an eager one runs after every chunk). Measured on a
 * 100k-message import: peak RSS 611 MB with eager collections only, 348 MB with a full one every
 * ten chunks, at the same CPU time (26 s). A chunk that wrote a search segment is followed by a
 * full one too: its 100k+ terms and rows are the most an import leaves behind at once (100k
 * open-vocabulary messages, back to back: peak 492 → 459 MiB, no slower).
 */
const FULL_GC_EVERY = 10;

/**
 * Sessions held open at once, in the window of neighbours and in the memory of where each
 * session's `seq` goes on (one forgotten is looked up again). ~5 messages each: a few MB.
 */
const OPEN_SESSIONS = 10_000;

type Options = {
  embedder?: Embedder;
  onProgress?: ImportProgress;
  /** Messages expected in all (for progress); an array's length by default. */
  total?: number;
  /** Sessions held open at once (see OPEN_SESSIONS). */
  openSessions?: number;
  /** An id read twice: throw to abort the import (the default), return to skip the line. */
  onInvalid?: (bad: InvalidLine) => void;
  /** When a search segment is sealed (import-analysis.ts' IMPORT_SEGMENT_LIMITS by default). */
  segmentLimits?: SegmentLimits;
  /** Where the import logs what it did not store (a masked secret's kinds and event id, never the value). */
  log?: (line: string) => void;
  now?: number;
};

async function* inChunks<T>(source: Iterable<T> | AsyncIterable<T>, size: number): AsyncGenerator<T[]> {
  let chunk: T[] = [];
  for await (const item of source) {
    chunk.push(item);
    if (chunk.length === size) {
      yield chunk;
      chunk = [];
    }
  }
  if (chunk.length > 0) yield chunk;
}

/**
 * A chunk on its way: rowids given, its analysis under way (import-analysis.ts), its rows not yet
 * written. The analysis promises never reject unobserved: an import that fails earlier leaves them.
 */
type Job = {
  ready: readonly WithContext<ImportMessage>[];
  /** Ids read in this chunk of the file, recorded with it (`import_seen`). */
  seen: readonly string[];
  firstRowid: number;
  /** The analysis of the chunk, and the search segments it filled (see SegmentLimits). */
  analysed: Promise<SealedSegment[]>;
  /** The last chunk's: the last search segment. */
  segment?: Promise<SealedSegment | undefined>;
};

const observed = <T>(promise: Promise<T>): Promise<T> => {
  promise.catch(() => {});
  return promise;
};

/** One import: its run, its window of neighbours, where each session's `seq` goes on, and its analysis. */
class Importer {
  readonly #window: NeighbourWindow<ImportMessage>;
  readonly #seqs = new Map<string, number>();
  readonly #openSessions: number;
  /** Messages the window has handed out, waiting to be written. */
  readonly #ready: WithContext<ImportMessage>[] = [];
  /** Chunks analysed while the ones before them are written: the two threads' work overlaps. */
  readonly #pending: Job[] = [];
  /** Ids read but not yet recorded in `import_seen` (the pending chunks'), for the duplicate check. */
  readonly #seenUnwritten = new Set<string>();
  #nextRowid: number;
  #writes = 0;
  /** Whether the connection takes the tuning PRAGMAs (a local file, not a server). */
  #tunable: boolean;
  added = 0;
  present = 0;

  constructor(
    private readonly client: Client,
    private readonly run: ImportRun,
    private readonly options: Options,
    private readonly now: number,
    private readonly analysis: ImportAnalysis,
  ) {
    this.#nextRowid = run.firstRowid;
    this.#tunable = client.protocol === "file";
    this.#openSessions = options.openSessions ?? OPEN_SESSIONS;
    this.#window = new NeighbourWindow(this.#openSessions);
  }

  get lastRowid(): number {
    return this.#nextRowid - 1;
  }

  /**
   * Reads one chunk: drops duplicates, marks present messages, and writes what the window hands
   * out, `CHUNK` messages a transaction. The chunk's ids count as read before the next chunk is
   * looked at (in `import_seen`, or held until their chunk is written), so a later duplicate is
   * always caught.
   */
  async read(chunk: readonly ImportMessage[], final: boolean): Promise<void> {
    const ids = chunk.map((m) => coldEventId(m.conversation, m.sourceId));
    const seenBefore = await readBefore(this.client, this.run, ids);
    const present = await storedAmong(this.client, ids);
    const seenNow = new Set<string>();
    for (const [i, m] of chunk.entries()) {
      const id = ids[i]!;
      if (seenBefore.has(id) || this.#seenUnwritten.has(id) || seenNow.has(id)) {
        const bad = { line: m.line ?? 0, reason: `"id": ${m.sourceId} appears twice in conversation ${m.conversation}` };
        if (!this.options.onInvalid) throw new Error(`Cannot import: line ${bad.line}: ${bad.reason}`);
        this.options.onInvalid(bad);
        continue;
      }
      seenNow.add(id);
      const fresh = !present.has(id);
      if (fresh) this.added++;
      else this.present++;
      // Secrets are masked before anything sees the text: the stored text and blocks, the
      // vector, the search rows and the neighbours' search context.
      const { text, masked } = maskSecrets(m.text);
      if (masked.length > 0 && fresh) this.options.log?.(`import ${id}${m.line ? ` (line ${m.line})` : ""}: secrets masked (${describeMasked(masked)})`);
      this.#ready.push(...this.#window.add({ message: masked.length > 0 ? { ...m, text } : m, fresh }));
    }
    if (final) this.#ready.push(...this.#window.flush());
    for (const id of seenNow) this.#seenUnwritten.add(id);
    let seen: readonly string[] = [...seenNow];
    do {
      const ready = this.#ready.length >= CHUNK || final ? this.#ready.splice(0, CHUNK) : [];
      await this.#send(ready, seen, final && this.#ready.length === 0);
      seen = [];
    } while (this.#ready.length >= CHUNK || (final && this.#ready.length > 0));
  }

  /** Starts a chunk's analysis, then writes the chunks more than AHEAD behind it (the last time, all). */
  async #send(ready: readonly WithContext<ImportMessage>[], seen: readonly string[], last: boolean): Promise<void> {
    const firstRowid = this.#nextRowid;
    this.#nextRowid += ready.length;
    const job: Job = {
      ready,
      seen,
      firstRowid,
      analysed: observed(this.analysis.add(ready.map(({ message, context }, i) => ({ rowid: firstRowid + i, search: searchText(message, context) })))),
    };
    if (last) job.segment = observed(this.analysis.seal());
    this.#pending.push(job);
    while (this.#pending.length > (last ? 0 : AHEAD)) await this.#write(this.#pending.shift()!);
  }

  async #write({ ready, seen, firstRowid, analysed, segment: sealing }: Job): Promise<void> {
    if (ready.length === 0 && seen.length === 0 && !sealing) return;
    const seqs = await this.#nextSeqs(ready);
    const vectors =
      this.options.embedder && ready.length > 0
        ? await this.options.embedder.embedTexts(
            ready.map((r) => r.message.text),
            { purpose: "write" },
          )
        : [];
    const filled = await analysed;
    const statements: InStatement[] = [];
    for (const [i, { message }] of ready.entries()) {
      const session = coldSessionId(message.conversation, message.session);
      const seq = seqs.get(session)!;
      seqs.set(session, seq + 1);
      const vector = vectors[i] && this.options.embedder ? { modelId: this.options.embedder.modelId, vector: vectors[i] } : undefined;
      statements.push(...(await coldEventStatements(message, seq, vector, this.now, firstRowid + i)));
    }
    const lastSegment = await sealing;
    const segments = lastSegment ? [...filled, lastSegment] : filled;
    this.#tunable = await writeImportChunk(this.client, { run: this.run, seen, statements, segments, tunable: this.#tunable });
    this.#remember(seqs);
    for (const id of seen) this.#seenUnwritten.delete(id);
    collectGarbage(++this.#writes % FULL_GC_EVERY === 0 || segments.length > 0);
  }

  /**
   * The next free `seq` of each session in `ready`: remembered, or else looked up — after what
   * the session holds, stored or staged. Taken out of the memory while the chunk is written and
   * put back after, so that sessions learnt for this chunk cannot push out others it needs.
   */
  async #nextSeqs(ready: readonly WithContext<ImportMessage>[]): Promise<Map<string, number>> {
    const seqs = new Map<string, number>();
    const unknown: string[] = [];
    for (const session of new Set(ready.map((r) => coldSessionId(r.message.conversation, r.message.session)))) {
      const known = this.#seqs.get(session);
      if (known === undefined) unknown.push(session);
      else seqs.set(session, known);
    }
    for (const [session, next] of await nextSeqsOf(this.client, unknown)) seqs.set(session, next);
    return seqs;
  }

  /** Remembers where the sessions of a written chunk go on, forgetting the least recently written past the bound. */
  #remember(seqs: ReadonlyMap<string, number>): void {
    for (const [session, next] of seqs) {
      this.#seqs.delete(session);
      this.#seqs.set(session, next);
    }
    while (this.#seqs.size > this.#openSessions) this.#seqs.delete(this.#seqs.keys().next().value!);
  }
}

export async function importHistory(client: Client, messages: Iterable<ImportMessage> | AsyncIterable<ImportMessage>, options: Options = {}): Promise<ImportResult> {
  const now = options.now ?? Date.now();
  const total = options.total ?? (Array.isArray(messages) ? messages.length : 0);
  const analysis = startImportAnalysis(total, options.segmentLimits);
  try {
    return await importRun(client, messages, options, now, total, analysis);
  } finally {
    analysis.close();
  }
}

async function importRun(
  client: Client,
  messages: Iterable<ImportMessage> | AsyncIterable<ImportMessage>,
  options: Options,
  now: number,
  total: number,
  analysis: ImportAnalysis,
): Promise<ImportResult> {
  const run = await beginRun(client, now);
  const importer = new Importer(client, run, options, now, analysis);
  try {
    let done = 0;
    let pendingChunk: ImportMessage[] | undefined;
    // One chunk behind, so the last one is known to be last (the window is flushed with it).
    for await (const chunk of inChunks(messages, CHUNK)) {
      if (pendingChunk) await importer.read(pendingChunk, false);
      done += pendingChunk?.length ?? 0;
      if (pendingChunk) options.onProgress?.(done, total);
      pendingChunk = chunk;
    }
    await importer.read(pendingChunk ?? [], true);
    done += pendingChunk?.length ?? 0;
    if (importer.added > 0) await makeVisible(client, run, importer.lastRowid).catch(alreadyImported);
    options.onProgress?.(done, total);
  } catch (error) {
    await dropRun(client, run, { searchRows: true });
    throw error;
  }
  if (options.embedder) await attachVectors(client, run, importer.lastRowid, CHUNK);
  await dropRun(client, run, { searchRows: false });
  // Small levels are merged now; the import's own segments are merged by a daemon (at its start,
  // after its writes and every MERGE_CHECK_MS), staged and off the write turn, so an import ends
  // when its messages are in (docs/benchmarks.md: merging after a 100k import).
  await mergeInBackground(client, { staged: false });
  await truncateWal(client);
  return { added: importer.added, present: importer.present };
}

/**
 * Two imports of the same history at once both find its messages new, and the one that finishes
 * second meets them at its last step (a UNIQUE constraint of `events`). Its run is dropped whole
 * (all-or-nothing) and it ends saying why, not with SQLite's words.
 */
function alreadyImported(error: unknown): never {
  if (/UNIQUE constraint failed/i.test(String((error as Error)?.message))) {
    throw new HomedError("already_imported", "Another import of the same messages finished first: they are stored already, and nothing of this run was added. Run it again to add only what is new.", {
      cause: error,
    });
  }
  throw error;
}

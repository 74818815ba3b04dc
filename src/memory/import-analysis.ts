/**
 * The CPU-heavy half of an import: each message's search analysis (jieba, grams) and the search
 * segment its terms go into. The other half — reading, checking, counting tokens and writing rows —
 * is on this thread (measured on 20k messages: the analysis took 2.3 s of one thread, the rest
 * 1.0 s of the other with token counts ~0.3 s: counted here, they even the two out). A large import analyses in a worker thread, so the two halves run
 * on two cores at once: while chunk k is written here, chunk k+1 is analysed there. A small one
 * analyses here: a worker first loads its own jieba and tokenizer (~0.4 s), more than the whole
 * analysis of a few thousand messages.
 */
import { BULK_SEGMENT_BYTES, BULK_SEGMENT_DOCS, SegmentBuilder, type SealedSegment, type SearchText } from "../search/index.ts";
import { startWorker } from "../runtime/index.ts";

/** Messages from which an import analyses in a worker thread (see above). */
export const WORKER_FROM = 4_000;

/** One message to analyse: the event rowid it will have and what search indexes of it. */
export type AnalysisInput = { rowid: number; search: SearchText };

/**
 * When the segment being built is sealed: once it holds `docs` messages (checked at the end of an
 * `add`, a chunk of the import) or `bytes` of terms and postings (checked after each message).
 */
export type SegmentLimits = { docs: number; bytes: number };

export const IMPORT_SEGMENT_LIMITS: SegmentLimits = { docs: BULK_SEGMENT_DOCS, bytes: BULK_SEGMENT_BYTES };

export interface ImportAnalysis {
  /** Analyses messages (in ascending rowid) into the segment being built; the segments it filled (see SegmentLimits), sealed for writing. */
  add(inputs: readonly AnalysisInput[]): Promise<SealedSegment[]>;
  /** The segment built so far, sealed for writing; the next `add` starts another. */
  seal(): Promise<SealedSegment | undefined>;
  close(): void;
}

/**
 * The analysis on this thread (and the work the worker thread does). Calls run one after another
 * in the order they came: an `add` awaits inside, and the next must not add to the segment before
 * it ends (documents go in ascending rowid).
 */
export class AnalysisHere implements ImportAnalysis {
  #segment = new SegmentBuilder();
  #queue: Promise<unknown> = Promise.resolve();

  constructor(private readonly limits: SegmentLimits = IMPORT_SEGMENT_LIMITS) {}

  #inTurn<T>(work: () => Promise<T>): Promise<T> {
    const result = this.#queue.then(work);
    this.#queue = result.catch(() => {});
    return result;
  }

  add(inputs: readonly AnalysisInput[]): Promise<SealedSegment[]> {
    return this.#inTurn(async () => {
      const full: SealedSegment[] = [];
      for (const input of inputs) {
        await this.#segment.addText(input.rowid, input.search);
        // Bounded by bytes too: on an open vocabulary a few thousand messages hold 100k+ terms.
        // Such segments are merged by their documents' level like any (a merge is a stream).
        if (this.#segment.bytes >= this.limits.bytes) full.push(this.#sealNow()!);
      }
      if (this.#segment.docs >= this.limits.docs) full.push(this.#sealNow()!);
      return full;
    });
  }

  #sealNow(): SealedSegment | undefined {
    const sealed = this.#segment.seal();
    this.#segment = new SegmentBuilder();
    return sealed;
  }

  seal(): Promise<SealedSegment | undefined> {
    return this.#inTurn(async () => this.#sealNow());
  }

  close(): void {}
}

/** What goes to the worker thread and what comes back. */
export type AnalysisRequest = { id: number; limits: SegmentLimits } & ({ op: "add"; inputs: readonly AnalysisInput[] } | { op: "seal" });
export type AnalysisReply = { id: number; value?: SealedSegment | SealedSegment[]; error?: string };
/** The worker's first message: its handler is in place. (Bun drops a message that arrives before.) */
export const WORKER_READY = -1;

/** The byte arrays of a reply, moved to the other thread rather than copied. */
export function transferables(value: AnalysisReply["value"]): ArrayBuffer[] {
  const segments = value === undefined ? [] : Array.isArray(value) ? value : [value];
  return segments.flatMap((s) => [s.rowids, s.lengths, s.postings, s.ends].map((bytes) => bytes.buffer as ArrayBuffer));
}

/** The analysis in a worker thread (import-analysis-worker.ts): requests answered in order. */
export class AnalysisInWorker implements ImportAnalysis {
  readonly #worker = startWorker("memory/import-analysis-worker.ts");
  readonly #waiting = new Map<number, { resolve: (value: AnalysisReply["value"]) => void; reject: (error: Error) => void }>();
  #next = 0;
  #failed: Error | undefined;
  #started!: () => void;
  readonly #ready = new Promise<void>((resolve) => (this.#started = resolve));

  constructor(private readonly limits: SegmentLimits = IMPORT_SEGMENT_LIMITS) {
    this.#worker.onmessage = (event: MessageEvent<AnalysisReply>) => {
      const { id, value, error } = event.data;
      if (id === WORKER_READY) return this.#started();
      const waiting = this.#waiting.get(id);
      this.#waiting.delete(id);
      if (error !== undefined) waiting?.reject(new Error(error));
      else waiting?.resolve(value);
    };
    this.#worker.onerror = (event: ErrorEvent) => {
      event.preventDefault();
      this.#failed = new Error(`the import's analysis thread stopped: ${event.message}`);
      for (const waiting of this.#waiting.values()) waiting.reject(this.#failed);
      this.#waiting.clear();
      this.#started();
    };
  }

  #call<T extends AnalysisReply["value"]>(request: { op: "add"; inputs: readonly AnalysisInput[] } | { op: "seal" }): Promise<T> {
    if (this.#failed) return Promise.reject(this.#failed);
    const id = this.#next++;
    return new Promise<T>((resolve, reject) => {
      this.#waiting.set(id, { resolve: resolve as (value: AnalysisReply["value"]) => void, reject });
      void this.#ready.then(() => {
        if (this.#failed) reject(this.#failed);
        else this.#worker.postMessage({ id, limits: this.limits, ...request } satisfies AnalysisRequest);
      });
    });
  }

  add(inputs: readonly AnalysisInput[]): Promise<SealedSegment[]> {
    return this.#call({ op: "add", inputs });
  }

  seal(): Promise<SealedSegment | undefined> {
    return this.#call({ op: "seal" });
  }

  close(): void {
    this.#worker.terminate();
  }
}

/** The analysis for an import of `messages` messages (0: not known). */
export function startImportAnalysis(messages: number, limits: SegmentLimits = IMPORT_SEGMENT_LIMITS): ImportAnalysis {
  return messages >= WORKER_FROM ? new AnalysisInWorker(limits) : new AnalysisHere(limits);
}

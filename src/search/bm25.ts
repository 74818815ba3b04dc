/**
 * BM25 over the event index's segments (search-segments.ts), scored here rather than by FTS5:
 * one read of the query terms' postings, a pass over each record into a per-segment array of
 * scores, and a top-k. FTS5 paid, for every match, a call through its auxiliary-function API and
 * a lookup of the row's size; here a document's length sits in its segment's table, cached.
 *
 * Two rankings come out of one read: `words` (jieba words) and `grams` (trigrams and CJK
 * bigrams, each with its own BM25 statistics, summed per document).
 */
import type { Client, InStatement, InValue, ResultSet, Transaction } from "@libsql/client";
import { decodeSegmentDocs, INDEX_CHANNELS, postingsCount, type IndexChannel, type SegmentDocs } from "./postings-codec.ts";
import { yieldIfLong } from "../text/index.ts";
import { CONTEXT_WEIGHT, TERM_PREFIX } from "./analysis.ts";

/** BM25's term-frequency saturation and length normalisation: the usual values (FTS5's too). */
const K1 = 1.2;
const B = 0.75;

/** Query terms per channel; a term given n times weighs n times. */
export type SearchTerms = Record<IndexChannel, readonly string[]>;

/** Which events a search may return: SQL conditions on alias `e` (events). */
export type EventFilter = { sql: string; args: InValue[] };

/**
 * Best first. `coverage`: the score over the query's ceiling in that ranking — the score of a
 * message of average length holding each query term once — so about the share of what was asked
 * (by idf) that the message holds: ~1 for a message with all of a short query's rare words, a few
 * hundredths for one sharing a handful of a pasted page's. Comparable across queries and
 * rankings, as raw BM25 is not (it grows with the query's length).
 */
export type RankedEvents = { id: string; score: number; coverage: number }[];

export type SearchOptions = {
  limit: number;
  filter: EventFilter;
  /**
   * A query listing (as column `r`) the rowids of every event the filter may admit, and cheap to
   * list — from an index alone (one conversation's events and the user-wide ones): only they are
   * scored, so the search grows with them rather than the store. The filter is still checked on
   * the best of them. Without it, every match is scored.
   */
  within?: EventFilter;
};

/**
 * Rowids `within` may list and still be used. Past this many every match is scored instead (a
 * conversation of 50,000 messages, or a list that holds most of the store).
 */
const WITHIN_MAX = 50_000;

/**
 * Best matches checked against the filter first: a few more than wanted, as the filter rarely
 * drops any (live L1 events, others' private memories). When more are dropped, the next round
 * checks four times as many.
 */
const firstCheck = (limit: number) => Math.ceil(limit * 1.25) + 8;

/** Where a search reads: the store's client, or a transaction (`homed doctor` probes in one it rolls back). */
type Db = Client | Transaction;

/** The segments' documents, by client and segment id (ids are never reused: AUTOINCREMENT). */
const cachedDocs = new WeakMap<Db, Map<number, SegmentDocs>>();

/** Statements run in one read transaction (or in the caller's). */
const readTogether = (db: Db, statements: InStatement[]): Promise<ResultSet[]> => ("rollback" in db ? db.batch(statements) : db.batch(statements, "read"));

type Segment = { id: number; docs: SegmentDocs };
/**
 * Per channel: how many documents have text in it and their average length. A message without
 * CJK has no bigrams: it counts in neither, as a row-less document did in FTS5's bigram table.
 */
type Stats = { docs: Record<IndexChannel, number>; avgLength: Record<IndexChannel, number> };

/** What one read of the index gives a query: the live segments, corpus statistics and the postings. */
type Read = { segments: Segment[]; stats: Stats; postings: Map<string, Map<number, Uint8Array>> };

async function readIndex(client: Db, terms: readonly string[]): Promise<Read> {
  let cache = cachedDocs.get(client);
  if (!cache) cachedDocs.set(client, (cache = new Map()));
  const cached = [...cache.keys()];
  // One read transaction: a merge between these reads would otherwise show postings of segments
  // this read does not know, or none of the segment it does.
  const [live, fresh, found] = await readTogether(client, [
    "SELECT id, docs, tokens_words, tokens_trigrams, tokens_bigrams FROM search_segments WHERE state = 'live'",
    {
      sql: `SELECT id, docs, rowids, lengths FROM search_segments WHERE state = 'live' AND id NOT IN (SELECT value FROM json_each(?))`,
      args: [JSON.stringify(cached)],
    },
    { sql: `SELECT term, segment, postings FROM search_postings WHERE term IN (SELECT value FROM json_each(?))`, args: [JSON.stringify(terms)] },
  ]);
  for (const r of fresh!.rows) cache.set(Number(r.id), decodeSegmentDocs(Number(r.docs), new Uint8Array(r.rowids as ArrayBuffer), new Uint8Array(r.lengths as ArrayBuffer)));
  const liveIds = new Set(live!.rows.map((r) => Number(r.id)));
  for (const id of cache.keys()) if (!liveIds.has(id)) cache.delete(id);
  const segments = [...liveIds].map((id) => ({ id, docs: cache.get(id)! }));
  const tokens = { words: 0, trigrams: 0, bigrams: 0 };
  const docs = { words: 0, trigrams: 0, bigrams: 0 };
  for (const r of live!.rows) {
    tokens.words += Number(r.tokens_words);
    tokens.trigrams += Number(r.tokens_trigrams);
    tokens.bigrams += Number(r.tokens_bigrams);
  }
  for (const segment of segments) for (const channel of INDEX_CHANNELS) docs[channel] += segment.docs.present[channel];
  const avgLength = {} as Record<IndexChannel, number>;
  for (const channel of INDEX_CHANNELS) avgLength[channel] = docs[channel] === 0 ? 1 : Math.max(1, tokens[channel] / docs[channel]);
  const postings = new Map<string, Map<number, Uint8Array>>();
  for (const r of found!.rows) {
    const segment = Number(r.segment);
    if (!liveIds.has(segment)) continue;
    const term = String(r.term);
    let bySegment = postings.get(term);
    if (!bySegment) postings.set(term, (bySegment = new Map()));
    bySegment.set(segment, new Uint8Array(r.postings as ArrayBuffer));
  }
  return { segments, stats: { docs, avgLength }, postings };
}

/**
 * Adds one term's BM25 to `scores` for every document of one postings record. Inlined varint
 * decoding: this loop is most of a query's time.
 */
function scoreRecord(bytes: Uint8Array, scores: Float64Array, lengths: Uint32Array, idfWeight: number, avgLength: number, allowed: Uint8Array | undefined): void {
  const norm0 = K1 * (1 - B);
  const norm1 = (K1 * B) / avgLength;
  let at = 0;
  let count = 0;
  for (let scale = 1; ; scale *= 0x80) {
    const byte = bytes[at++]!;
    count += (byte & 0x7f) * scale;
    if (byte < 0x80) break;
  }
  let ordinal = -1;
  for (let i = 0; i < count; i++) {
    let gap = bytes[at++]!;
    if (gap >= 0x80) {
      gap &= 0x7f;
      for (let scale = 0x80; ; scale *= 0x80) {
        const byte = bytes[at++]!;
        gap += (byte & 0x7f) * scale;
        if (byte < 0x80) break;
      }
    }
    let tf2 = bytes[at++]!;
    if (tf2 >= 0x80) {
      tf2 &= 0x7f;
      for (let scale = 0x80; ; scale *= 0x80) {
        const byte = bytes[at++]!;
        tf2 += (byte & 0x7f) * scale;
        if (byte < 0x80) break;
      }
    }
    ordinal += gap + 1;
    if (allowed !== undefined && allowed[ordinal] === 0) continue;
    const tf = tf2 * CONTEXT_WEIGHT;
    scores[ordinal]! += (idfWeight * tf * (K1 + 1)) / (tf + norm0 + norm1 * lengths[ordinal]!);
  }
}

/**
 * BM25's idf as Robertson and Spärck Jones wrote it (and FTS5 computes it): a term in half the
 * documents or more says next to nothing (a millionth, so that a match still ranks above none).
 */
const idf = (docs: number, df: number) => Math.max(1e-6, Math.log((docs - df + 0.5) / (df + 0.5)));

/** Distinct prefixed terms of the query with their weights (how often each was given), per ranking. */
function weightedTerms(terms: SearchTerms): { ranking: "words" | "grams"; channel: IndexChannel; term: string; weight: number }[] {
  const out = new Map<string, { ranking: "words" | "grams"; channel: IndexChannel; term: string; weight: number }>();
  for (const channel of INDEX_CHANNELS) {
    for (const raw of terms[channel]) {
      const term = TERM_PREFIX[channel] + raw;
      const entry = out.get(term);
      if (entry) entry.weight++;
      else out.set(term, { ranking: channel === "words" ? "words" : "grams", channel, term, weight: 1 });
    }
  }
  return [...out.values()];
}

type Candidates = { rowids: number[]; scores: number[]; ceiling: number };

/**
 * Scores every matching document of every segment; `allowed`: per segment, the ordinals the filter
 * admits. The event loop gets its turn between records: a pasted page as a query has ~1,500 terms.
 */
async function scoreAll(read: Read, terms: ReturnType<typeof weightedTerms>, allowed: Map<number, Uint8Array> | undefined): Promise<Record<"words" | "grams", Candidates>> {
  const out = { words: { rowids: [], scores: [], ceiling: 0 } as Candidates, grams: { rowids: [], scores: [], ceiling: 0 } as Candidates };
  const weights = terms.map((t) => {
    let df = 0;
    for (const bytes of read.postings.get(t.term)?.values() ?? []) df += postingsCount(bytes);
    return t.weight * idf(read.stats.docs[t.channel], df);
  });
  // A term found once in a message of average length adds exactly its weight: tf (K1 + 1) / (tf + K1) with tf = 1.
  for (const [i, t] of terms.entries()) out[t.ranking].ceiling += weights[i]!;
  for (const segment of read.segments) {
    const mask = allowed?.get(segment.id);
    if (allowed && !mask) continue;
    const size = segment.docs.rowids.length;
    for (const ranking of ["words", "grams"] as const) {
      let scores: Float64Array | undefined;
      for (const [i, t] of terms.entries()) {
        if (t.ranking !== ranking) continue;
        const bytes = read.postings.get(t.term)?.get(segment.id);
        if (!bytes) continue;
        scores ??= new Float64Array(size);
        scoreRecord(bytes, scores, segment.docs.lengths[t.channel], weights[i]!, read.stats.avgLength[t.channel], mask);
        await yieldIfLong();
      }
      if (!scores) continue;
      const into = out[ranking];
      for (let o = 0; o < size; o++) {
        if (scores[o]! > 0) {
          into.rowids.push(segment.docs.rowids[o]!);
          into.scores.push(scores[o]!);
        }
      }
    }
  }
  return out;
}

/** Whether candidate a ranks before b: higher score, then lower rowid (a stable order for ties). */
const before = (c: Candidates, a: number, b: number) => c.scores[a]! > c.scores[b]! || (c.scores[a] === c.scores[b] && c.rowids[a]! < c.rowids[b]!);

/**
 * Indices of the `k` best candidates, best first: a bounded heap over all of them (a query at
 * 100k messages has tens of thousands of matches; sorting them all cost more than scoring).
 */
function best(c: Candidates, k: number): number[] {
  const heap: number[] = []; // worst of the kept at heap[0]
  const sink = (at: number) => {
    for (;;) {
      const l = 2 * at + 1;
      const r = l + 1;
      let worst = at;
      if (l < heap.length && before(c, heap[worst]!, heap[l]!)) worst = l;
      if (r < heap.length && before(c, heap[worst]!, heap[r]!)) worst = r;
      if (worst === at) return;
      [heap[at], heap[worst]] = [heap[worst]!, heap[at]!];
      at = worst;
    }
  };
  for (let i = 0; i < c.scores.length; i++) {
    if (heap.length < k) {
      heap.push(i);
      for (let at = heap.length - 1; at > 0; ) {
        const parent = (at - 1) >> 1;
        if (!before(c, heap[parent]!, heap[at]!)) break;
        [heap[at], heap[parent]] = [heap[parent]!, heap[at]!];
        at = parent;
      }
    } else if (k > 0 && before(c, i, heap[0]!)) {
      heap[0] = i;
      sink(0);
    }
  }
  return heap.sort((a, b) => (before(c, a, b) ? -1 : 1));
}

/**
 * The events among `candidates` the filter admits, best first, up to `limit`, checked a round
 * of best matches at a time (see `firstCheck`).
 */
async function filtered(client: Db, c: Candidates, filter: EventFilter, limit: number): Promise<RankedEvents> {
  const out: RankedEvents = [];
  let checked = 0;
  for (let step = firstCheck(limit); checked < c.scores.length && out.length < limit; step *= 4) {
    const batch = best(c, checked + step).slice(checked);
    checked += batch.length;
    const rows = await client.execute({
      // Driven by the candidates (CROSS JOIN keeps that order): with `e.layer = 'L2'` in the
      // filter SQLite chose to walk every cold event by the layer index instead (100 ms at 100k).
      sql: `SELECT e.rowid AS r, e.id AS id FROM json_each(?) AS c CROSS JOIN events e ON e.rowid = c.value WHERE ${filter.sql}`,
      args: [JSON.stringify(batch.map((i) => c.rowids[i])), ...filter.args],
    });
    const ids = new Map(rows.rows.map((r) => [Number(r.r), String(r.id)]));
    for (const i of batch) {
      const id = ids.get(c.rowids[i]!);
      if (id !== undefined && out.length < limit) out.push({ id, score: c.scores[i]!, coverage: c.scores[i]! / c.ceiling });
    }
  }
  return out;
}

/**
 * The rowids `within` lists, as a mask per segment (only segments holding some); undefined when
 * there are more than WITHIN_MAX. A merge walk of the sorted rowids against each segment's:
 * one binary search a segment, not one a rowid (1M messages in 112 segments, 10k listed).
 */
async function masksWithin(client: Db, read: Read, within: EventFilter): Promise<Map<number, Uint8Array> | undefined> {
  const rows = await client.execute({ sql: `SELECT r FROM (${within.sql}) LIMIT ?`, args: [...within.args, WITHIN_MAX + 1] });
  if (rows.rows.length > WITHIN_MAX) return undefined;
  const listed = Float64Array.from(rows.rows, (r) => Number(r.r)).sort();
  const masks = new Map<number, Uint8Array>();
  for (const segment of read.segments) {
    const rowids = segment.docs.rowids;
    // The first listed rowid at or after the segment's first document.
    let lo = 0;
    let hi = listed.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (listed[mid]! < rowids[0]!) lo = mid + 1;
      else hi = mid;
    }
    let mask: Uint8Array | undefined;
    for (let i = lo, o = 0; i < listed.length && o < rowids.length; ) {
      if (listed[i]! === rowids[o]!) {
        (mask ??= new Uint8Array(rowids.length))[o] = 1;
        i++;
        o++;
      } else if (listed[i]! < rowids[o]!) i++;
      else o++;
    }
    if (mask) masks.set(segment.id, mask);
  }
  return masks;
}

/** BM25 rankings of events for the query terms: jieba words, and trigrams + bigrams summed. */
export async function searchEvents(client: Db, terms: SearchTerms, options: SearchOptions): Promise<{ words: RankedEvents; grams: RankedEvents }> {
  const wanted = weightedTerms(terms);
  if (wanted.length === 0) return { words: [], grams: [] };
  const read = await readIndex(
    client,
    wanted.map((t) => t.term),
  );
  const masks = options.within ? await masksWithin(client, read, options.within) : undefined;
  const scored = await scoreAll(read, wanted, masks);
  const [words, grams] = await Promise.all([filtered(client, scored.words, options.filter, options.limit), filtered(client, scored.grams, options.filter, options.limit)]);
  return { words, grams };
}

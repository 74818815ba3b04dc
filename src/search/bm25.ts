/**
 * BM25 over the event index's segments (search-segments.ts), scored here rather than by FTS5:
 * one read of the query terms' postings, a pass over each record into a per-segment array of
 * scores, and a top-k. FTS5 paid, for every match, a call through its auxiliary-function API and
 * a lookup of the row's size; here a document's length sits in its segment's table, cached.
 *
 * Two rankings come out of one read: `words` (jieba words) and `grams` (trigrams and CJK
 * bigrams, each with its own BM25 statistics, summed per document).
 */
import type { Client, InValue, Transaction } from "@libsql/client";
import { decodeSegmentDocs, INDEX_CHANNELS, postingsCount, type IndexChannel, type SegmentDocs } from "./postings-codec.ts";
import { yieldIfLong } from "../text/index.ts";
import { CONTEXT_WEIGHT, TERM_PREFIX } from "./analysis.ts";
import { acquire, release, type Accumulator } from "./accumulator.ts";
import { PostingsCache } from "./postings-cache.ts";
import { fromHex, jsonRows } from "./json-rows.ts";

/** BM25's term-frequency saturation and length normalisation: the usual values (FTS5's too). */
const K1 = 1.2;
const B = 0.75;

/** Query terms per channel; a term given n times weighs n times. */
export type SearchTerms = Record<IndexChannel, readonly string[]>;

/** Which events a search may return: SQL conditions on alias `e` (events). */
export type EventFilter = { sql: string; args: InValue[] };

/**
 * Best first. `coverage`: the share of what was asked that the message holds, the smaller of two
 * measures of it. By idf: the score over the query's ceiling in that ranking — the score of a
 * message of average length holding each query term once — ~1 for a message with all of a short
 * query's rare words, a few hundredths for one sharing a handful of a pasted page's. By count: the
 * query's terms it holds over all of them (a term only in its neighbours, half). Either alone
 * over-credits: by idf, a message holding the rarest of three words asked but neither of the
 * others covered ~0.6 and passed the one holding all three, which jieba had cut differently
 * (bench/openvocab); by count, a long message holding a long query's everyday words. Comparable
 * across queries and rankings, as raw BM25 is not (it grows with the query's length).
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
  /** Rowids `within` may list before every match is scored instead (WITHIN_MAX; tests set a few). */
  withinMax?: number;
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

/**
 * Postings kept between queries, by client: 16 MiB holds every live segment's record of the
 * hundred or so everyday words and bigrams most queries share at 100k open-vocabulary messages.
 */
export const POSTINGS_CACHE_BYTES = 16 * 2 ** 20;
const cachedPostings = new WeakMap<Db, PostingsCache>();

/**
 * Bytes of an embedded database file a search's connection maps into memory: a search looks up
 * a few hundred events by rowid at random, and through mmap each page is a memory read where
 * the page cache costs a system call (200 filter lookups at 100k messages: 0.68 → 0.39 ms).
 * Set per connection (SQLite's default is 0); a libSQL server has no use for it, and an embedded
 * replica refuses the statement (then it is not asked again).
 */
const SEARCH_MMAP_BYTES = 2 ** 30;
const mmapRefused = new WeakSet<Client>();

/** Maps the file on the transaction's connection, where the client takes it. */
async function mapFile(client: Client, tx: Transaction): Promise<void> {
  if (client.protocol !== "file" || mmapRefused.has(client)) return;
  try {
    await tx.execute(`PRAGMA mmap_size = ${SEARCH_MMAP_BYTES}`);
  } catch {
    // Refused before it ran (Sqlite3UnsupportedStatement): the transaction is as it was.
    mmapRefused.add(client);
  }
}

/**
 * `work` in one read transaction (or in the caller's): a merge between its reads would otherwise
 * show postings of segments it does not know, or none of a segment it does, and the events
 * checked are the ones of that moment.
 */
async function inOneRead<T>(db: Db, work: (tx: Client | Transaction) => Promise<T>): Promise<T> {
  if ("rollback" in db) return work(db);
  const tx = await db.transaction("read");
  try {
    await mapFile(db, tx);
    return await work(tx);
  } finally {
    tx.close();
  }
}

type Segment = { id: number; docs: SegmentDocs };
/**
 * Per channel: how many documents have text in it and their average length. A message without
 * CJK has no bigrams: it counts in neither, as a row-less document did in FTS5's bigram table.
 */
type Stats = { docs: Record<IndexChannel, number>; avgLength: Record<IndexChannel, number> };

/** What one read of the index gives a query: the live segments, corpus statistics and the postings. */
type Read = { segments: Segment[]; stats: Stats; postings: Map<string, Map<number, Uint8Array>> };

/** Each term's records in the live segments: from the cache, reading what it lacks first. */
async function readPostings(db: Client | Transaction, cache: PostingsCache, terms: readonly string[], liveIds: readonly number[]): Promise<Read["postings"]> {
  const missing = cache.missing(terms, liveIds);
  const postingsOf = (rows: [string, number, string][]) => rows.map(([term, segment, hex]) => ({ term, segment, postings: fromHex(hex) }));
  const RECORDS = "SELECT json_group_array(json_array(term, segment, hex(postings))) FROM search_postings WHERE term IN (SELECT value FROM json_each(?))";
  if (missing.unseen.length > 0) {
    const found = await jsonRows<[string, number, string]>(db, RECORDS, [JSON.stringify(missing.unseen)]);
    // Records of segments not live (an import's staged ones) are left out.
    cache.fill(missing.unseen, liveIds, postingsOf(found));
  }
  if (missing.partial.terms.length > 0) {
    const found = await jsonRows<[string, number, string]>(db, `${RECORDS} AND segment IN (SELECT value FROM json_each(?))`, [
      JSON.stringify(missing.partial.terms),
      JSON.stringify(missing.partial.segments),
    ]);
    cache.fill(missing.partial.terms, missing.partial.segments, postingsOf(found));
  }
  return cache.take(terms, liveIds);
}

/** `client`: whose caches serve the read (`db` may be a transaction of it). */
async function readIndex(client: Db, db: Client | Transaction, terms: readonly string[]): Promise<Read> {
  let cache = cachedDocs.get(client);
  if (!cache) cachedDocs.set(client, (cache = new Map()));
  let postingsCache = cachedPostings.get(client);
  if (!postingsCache) cachedPostings.set(client, (postingsCache = new PostingsCache(POSTINGS_CACHE_BYTES)));
  const live = await jsonRows<[number, number, number, number, number]>(
    db,
    "SELECT json_group_array(json_array(id, docs, tokens_words, tokens_trigrams, tokens_bigrams)) FROM search_segments WHERE state = 'live'",
    [],
  );
  const liveIds = live.map(([id]) => id);
  // Documents of segments written since the last search (a segment never changes once written).
  const unknown = liveIds.filter((id) => !cache.has(id));
  if (unknown.length > 0) {
    const fresh = await db.execute({ sql: "SELECT id, docs, rowids, lengths FROM search_segments WHERE id IN (SELECT value FROM json_each(?))", args: [JSON.stringify(unknown)] });
    for (const r of fresh.rows) cache.set(Number(r.id), decodeSegmentDocs(Number(r.docs), new Uint8Array(r.rowids as ArrayBuffer), new Uint8Array(r.lengths as ArrayBuffer)));
  }
  const postings = await readPostings(db, postingsCache, terms, liveIds);
  const isLive = new Set(liveIds);
  const gone = new Set([...cache.keys()].filter((id) => !isLive.has(id)));
  for (const id of gone) cache.delete(id);
  postingsCache.forgetSegments(gone);
  const segments = liveIds.map((id) => ({ id, docs: cache.get(id)! }));
  const tokens = { words: 0, trigrams: 0, bigrams: 0 };
  const docs = { words: 0, trigrams: 0, bigrams: 0 };
  for (const [, , words, trigrams, bigrams] of live) {
    tokens.words += words;
    tokens.trigrams += trigrams;
    tokens.bigrams += bigrams;
  }
  for (const segment of segments) for (const channel of INDEX_CHANNELS) docs[channel] += segment.docs.present[channel];
  const avgLength = {} as Record<IndexChannel, number>;
  for (const channel of INDEX_CHANNELS) avgLength[channel] = docs[channel] === 0 ? 1 : Math.max(1, tokens[channel] / docs[channel]);
  return { segments, stats: { docs, avgLength }, postings };
}

/**
 * Adds one term's BM25 to the accumulator for every document of one postings record of the
 * segment whose documents start at slot `base`. Inlined varint decoding: this loop is most of a
 * query's time.
 */
function scoreRecord(bytes: Uint8Array, into: Accumulator, base: number, lengths: Uint32Array, idfWeight: number, termWeight: number, avgLength: number, allowed: Uint8Array | undefined): void {
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
    // Held by count: once in the message itself is the whole term, once in a neighbour only half.
    into.add(base + ordinal, (idfWeight * tf * (K1 + 1)) / (tf + norm0 + norm1 * lengths[ordinal]!), termWeight * Math.min(1, tf));
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

/**
 * One ranking's scores over the live segments' documents: slot = the segment's base + ordinal.
 * `ceiling`: the query's ceiling in this ranking, `terms` its terms by count (see RankedEvents).
 */
type Scored = { scores: Accumulator; ceiling: number; terms: number };

/** Where each live segment's documents start among the accumulator's slots, and the event rowid of a slot. */
class Slots {
  readonly bases: number[] = [];
  readonly total: number;

  constructor(private readonly segments: readonly Segment[]) {
    let total = 0;
    for (const segment of segments) {
      this.bases.push(total);
      total += segment.docs.rowids.length;
    }
    this.total = total;
  }

  rowid = (slot: number): number => {
    let lo = 0;
    let hi = this.bases.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >>> 1;
      if (this.bases[mid]! <= slot) lo = mid;
      else hi = mid - 1;
    }
    return this.segments[lo]!.docs.rowids[slot - this.bases[lo]!]!;
  };
}

/**
 * Scores every matching document of every segment into one accumulator per ranking; `allowed`:
 * per segment, the ordinals the filter admits. The event loop gets its turn between records: a
 * pasted page as a query has ~1,500 terms. The caller releases the accumulators.
 */
async function scoreAll(read: Read, slots: Slots, terms: ReturnType<typeof weightedTerms>, allowed: Map<number, Uint8Array> | undefined): Promise<Record<"words" | "grams", Scored>> {
  const out = { words: { scores: acquire(slots.total), ceiling: 0, terms: 0 }, grams: { scores: acquire(slots.total), ceiling: 0, terms: 0 } };
  const weights = terms.map((t) => {
    let df = 0;
    for (const bytes of read.postings.get(t.term)?.values() ?? []) df += postingsCount(bytes);
    return t.weight * idf(read.stats.docs[t.channel], df);
  });
  // A term found once in a message of average length adds exactly its weight: tf (K1 + 1) / (tf + K1) with tf = 1.
  for (const [i, t] of terms.entries()) {
    out[t.ranking].ceiling += weights[i]!;
    out[t.ranking].terms += t.weight;
  }
  for (const [i, t] of terms.entries()) {
    const records = read.postings.get(t.term);
    if (!records) continue;
    for (const [s, segment] of read.segments.entries()) {
      const bytes = records.get(segment.id);
      const mask = allowed?.get(segment.id);
      if (!bytes || (allowed && !mask)) continue;
      scoreRecord(bytes, out[t.ranking].scores, slots.bases[s]!, segment.docs.lengths[t.channel], weights[i]!, t.weight, read.stats.avgLength[t.channel], mask);
      await yieldIfLong();
    }
  }
  return out;
}

/**
 * The events of each ranking the filter admits, best first, up to `limit` each, checked a round
 * of best matches at a time (see `firstCheck`) — both rankings' rounds in one query, as they
 * share most of their best matches.
 */
async function filtered(client: Db, rankings: readonly Scored[], slots: Slots, filter: EventFilter, limit: number): Promise<RankedEvents[]> {
  const out: RankedEvents[] = rankings.map(() => []);
  const checked = rankings.map(() => 0);
  /** Rowid → event id, or null when the filter drops it. */
  const admitted = new Map<number, string | null>();
  for (let step = firstCheck(limit); ; step *= 4) {
    const batches = rankings.map((r, i) => (out[i]!.length < limit && checked[i]! < r.scores.count ? r.scores.best(checked[i]! + step, slots.rowid).slice(checked[i]) : []));
    if (batches.every((b) => b.length === 0)) return out;
    const unknown = [...new Set(batches.flat().map(slots.rowid))].filter((rowid) => !admitted.has(rowid));
    if (unknown.length > 0) {
      const rows = await jsonRows<[number, string]>(
        client,
        // Driven by the candidates (CROSS JOIN keeps that order): with `e.layer = 'L2'` in the
        // filter SQLite chose to walk every cold event by the layer index instead (100 ms at 100k).
        `SELECT json_group_array(json_array(e.rowid, e.id)) FROM json_each(?) AS c CROSS JOIN events e ON e.rowid = c.value WHERE ${filter.sql}`,
        [JSON.stringify(unknown), ...filter.args],
      );
      for (const rowid of unknown) admitted.set(rowid, null);
      for (const [rowid, id] of rows) admitted.set(rowid, id);
    }
    for (const [i, batch] of batches.entries()) {
      const ranking = rankings[i]!;
      checked[i]! += batch.length;
      for (const slot of batch) {
        const id = admitted.get(slots.rowid(slot));
        const score = ranking.scores.scores[slot]!;
        if (id && out[i]!.length < limit) out[i]!.push({ id, score, coverage: Math.min(score / ranking.ceiling, ranking.scores.matched[slot]! / ranking.terms) });
      }
    }
  }
}

/**
 * The rowids `within` lists, as a mask per segment (only segments holding some); undefined when
 * there are more than WITHIN_MAX. A merge walk of the sorted rowids against each segment's:
 * one binary search a segment, not one a rowid (1M messages in 112 segments, 10k listed).
 */
async function masksWithin(client: Db, read: Read, within: EventFilter, max: number): Promise<Map<number, Uint8Array> | undefined> {
  const rows = await client.execute({ sql: `SELECT r FROM (${within.sql}) LIMIT ?`, args: [...within.args, max + 1] });
  if (rows.rows.length > max) return undefined;
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
  return inOneRead(client, async (db) => {
    const read = await readIndex(
      client,
      db,
      wanted.map((t) => t.term),
    );
    const masks = options.within ? await masksWithin(db, read, options.within, options.withinMax ?? WITHIN_MAX) : undefined;
    // Too many listed to mask: every match is scored, and what `within` lists is checked with the filter.
    const filter =
      options.within && !masks ? { sql: `(${options.filter.sql}) AND e.rowid IN (SELECT r FROM (${options.within.sql}))`, args: [...options.filter.args, ...options.within.args] } : options.filter;
    const slots = new Slots(read.segments);
    const scored = await scoreAll(read, slots, wanted, masks);
    try {
      const [words, grams] = await filtered(db, [scored.words, scored.grams], slots, filter, options.limit);
      return { words: words!, grams: grams! };
    } finally {
      release(scored.words.scores);
      release(scored.grams.scores);
    }
  });
}

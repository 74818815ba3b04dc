/**
 * Postings records kept in memory between queries. A segment never changes once written (a merge
 * writes a new one), so a term's record in a segment — or the fact it has none — stays true as
 * long as the segment lives: nothing is ever invalidated, only evicted. What this saves is rows:
 * an everyday word or CJK bigram has a record in every live segment, and reading them back for
 * each query was most of a query's time on an open vocabulary (libSQL hands rows to JavaScript
 * one by one). Bounded by bytes, least recently used terms evicted first.
 */

/** Bytes an entry costs besides its postings: the Map entry and the typed array's header. */
const ENTRY_BYTES = 96;

/** Per term: each segment's record, or null when the segment has none. */
type TermRecords = Map<number, Uint8Array | null>;

export class PostingsCache {
  /** Insertion order is recency: a term used is moved to the end. */
  private readonly terms = new Map<string, TermRecords>();
  private bytes = 0;

  constructor(readonly maxBytes: number) {}

  /** Bytes held now. */
  get size(): number {
    return this.bytes;
  }

  /**
   * What must be read for `terms` in `segments`. `unseen`: terms with no segment known — read
   * whole (a term's records are one range of the postings' primary key: a rare word's is one or
   * two rows, where asking each segment for it would be a lookup a segment). `partial`: terms
   * known in some segments (a segment written since), and the segments some of them lack —
   * reading their product fetches a little more than needed, in one query.
   */
  missing(terms: readonly string[], segments: readonly number[]): { unseen: string[]; partial: { terms: string[]; segments: number[] } } {
    const unseen: string[] = [];
    const lackingTerms: string[] = [];
    const lackingSegments = new Set<number>();
    for (const term of terms) {
      const known = this.terms.get(term);
      if (!known) {
        unseen.push(term);
        continue;
      }
      let lacks = false;
      for (const segment of segments) {
        if (known.has(segment)) continue;
        lacks = true;
        lackingSegments.add(segment);
      }
      if (lacks) lackingTerms.push(term);
    }
    return { unseen, partial: { terms: lackingTerms, segments: [...lackingSegments] } };
  }

  /** Records what one read of `terms` × `segments` found: `found` holds every record of them that exists (records of other segments are ignored). */
  fill(terms: readonly string[], segments: readonly number[], found: Iterable<{ term: string; segment: number; postings: Uint8Array }>): void {
    const read = new Map<string, Map<number, Uint8Array>>();
    const wanted = new Set(segments);
    for (const { term, segment, postings } of found) {
      if (!wanted.has(segment)) continue;
      let bySegment = read.get(term);
      if (!bySegment) read.set(term, (bySegment = new Map()));
      bySegment.set(segment, postings);
    }
    for (const term of terms) {
      let known = this.terms.get(term);
      if (!known) this.terms.set(term, (known = new Map()));
      for (const segment of segments) {
        if (known.has(segment)) continue;
        const postings = read.get(term)?.get(segment) ?? null;
        known.set(segment, postings);
        this.bytes += ENTRY_BYTES + (postings?.length ?? 0);
      }
    }
  }

  /**
   * Each term's records in `segments` (segments without one left out), marking the terms used.
   * Call after `fill`; evicts down to the bound afterwards, never what this call returned.
   */
  take(terms: readonly string[], segments: readonly number[]): Map<string, Map<number, Uint8Array>> {
    const out = new Map<string, Map<number, Uint8Array>>();
    for (const term of terms) {
      const known = this.terms.get(term);
      if (!known) continue;
      this.terms.delete(term);
      this.terms.set(term, known);
      const bySegment = new Map<number, Uint8Array>();
      for (const segment of segments) {
        const postings = known.get(segment);
        if (postings) bySegment.set(segment, postings);
      }
      if (bySegment.size > 0) out.set(term, bySegment);
    }
    this.evict();
    return out;
  }

  /** Forgets segments no longer live (merged away, an import's dropped), so they stop costing memory. */
  forgetSegments(gone: ReadonlySet<number>): void {
    if (gone.size === 0) return;
    for (const known of this.terms.values()) {
      for (const segment of gone) {
        if (!known.has(segment)) continue;
        this.bytes -= ENTRY_BYTES + (known.get(segment)?.length ?? 0);
        known.delete(segment);
      }
    }
  }

  private evict(): void {
    for (const [term, known] of this.terms) {
      if (this.bytes <= this.maxBytes) return;
      for (const postings of known.values()) this.bytes -= ENTRY_BYTES + (postings?.length ?? 0);
      this.terms.delete(term);
    }
  }
}

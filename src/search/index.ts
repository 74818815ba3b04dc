/**
 * homed's search engine: how text becomes terms (analysis.ts), how events' terms are kept in
 * segments of postings (segments.ts, segment-terms.ts, postings-codec.ts) and scored with BM25
 * (bm25.ts), how an older database's index is rebuilt (backfill.ts) or its segments' term lists
 * moved out of their rows (term-lists-upgrade.ts), and the FTS5 channels of L3 facts
 * (fact-index.ts). The store (src/store/) writes events and calls in here to index them; recall
 * (src/memory/) asks it for ranked events. It owns the search tables' SQL; everything else is
 * tables of the store.
 */
export {
  indexForSearch,
  removeFromSearch,
  searchRows,
  scopedMatch,
  bm25Of,
  scopeKeyOf,
  conversationScopeKey,
  USER_SCOPE_KEY,
  SEARCH_COLUMNS,
  SEARCH_TABLES,
  type SearchDocKind,
  type SearchTable,
} from "./fact-index.ts";
export { analyseDocument, CONTEXT_WEIGHT, type SearchText, type AnalysedDoc } from "./analysis.ts";
export {
  SegmentBuilder,
  writeSealedSegment,
  type SealedSegment,
  indexEvent,
  publishStagedSegments,
  dropStagedSegments,
  MERGE_FACTOR,
  BULK_SEGMENT_DOCS,
  BULK_SEGMENT_BYTES,
  MAX_MERGE_LEVEL,
} from "./segments.ts";
export { mergeInBackground, mergeOnce, mergeStaged, cleanAbandonedMerges, startMergeJob, STAGED_FROM_LEVEL, type MergeRunOptions } from "./background-merge.ts";
export { writeMergedSegment, MERGE_PAGE_RECORDS, type MergeOptions } from "./segment-merge.ts";
export { searchEvents, type SearchTerms, type EventFilter as SearchFilter, type RankedEvents, type EventFilter } from "./bm25.ts";
export { backfillSearchIndex } from "./backfill.ts";
export { moveTermListsOutOfRows } from "./term-lists-upgrade.ts";

-- The BM25 index of events moves out of FTS5 into segments of postings homed reads and scores
-- itself (src/store/search-segments.ts). FTS5 scored every match through its auxiliary-function
-- API and looked up each matching row's size: at 100k messages recall cost twice MiniSearch's
-- and a conversation-scoped query still read whole posting lists. The FTS5 tables of events
-- (memory_words, memory_grams, memory_bigrams) are read into segments and dropped by homed at
-- the first start after this migration (search-backfill.ts): their analysis needs JavaScript.
-- Facts keep their FTS5 tables (fact_*): they are few, and a facts query costs under a millisecond.
CREATE TABLE `search_segments` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`state` text NOT NULL,
	`import_run` integer,
	`level` integer NOT NULL,
	`docs` integer NOT NULL,
	`tokens_words` integer NOT NULL,
	`tokens_trigrams` integer NOT NULL,
	`tokens_bigrams` integer NOT NULL,
	`rowids` blob NOT NULL,
	`lengths` blob NOT NULL,
	`terms` text NOT NULL
);
--> statement-breakpoint
CREATE TABLE `search_postings` (
	`term` text NOT NULL,
	`segment` integer NOT NULL,
	`postings` blob NOT NULL,
	PRIMARY KEY (`term`, `segment`)
) WITHOUT ROWID;

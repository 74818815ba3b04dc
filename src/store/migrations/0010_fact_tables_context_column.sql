-- Two changes to the search tables, one rebuild.
-- 1. Facts get tables of their own (`fact_words`, `fact_grams`, `fact_bigrams`), keyed by the
--    triple's rowid. In the shared tables a facts query scored every cold message that matched
--    and then threw it away: 162 ms at 100k messages and no facts at all. Triples' rows were
--    the negative rowids of the shared tables; they move over and leave.
-- 2. Every table gets a `context` column after the text: a message's neighbours are written there,
--    apart from its own text, and count half in BM25 (each table's `rank` below), so the message
--    that says the words ranks above the neighbours that only carry them. Rows written before
--    this migration keep their text, neighbours included, in the own column: they rank as before.
CREATE VIRTUAL TABLE `fact_words` USING fts5(`doc_id` UNINDEXED, `kind` UNINDEXED, `scope_key`, `words`, `context`, tokenize = 'unicode61 remove_diacritics 2');
--> statement-breakpoint
INSERT INTO `fact_words` (`rowid`, `doc_id`, `kind`, `scope_key`, `words`) SELECT -`rowid`, `doc_id`, `kind`, `scope_key`, `words` FROM `memory_words` WHERE `rowid` < 0;
--> statement-breakpoint
CREATE VIRTUAL TABLE `fact_grams` USING fts5(`doc_id` UNINDEXED, `kind` UNINDEXED, `scope_key`, `text`, `context`, tokenize = 'trigram');
--> statement-breakpoint
INSERT INTO `fact_grams` (`rowid`, `doc_id`, `kind`, `scope_key`, `text`) SELECT -`rowid`, `doc_id`, `kind`, `scope_key`, `text` FROM `memory_grams` WHERE `rowid` < 0;
--> statement-breakpoint
CREATE VIRTUAL TABLE `fact_bigrams` USING fts5(`doc_id` UNINDEXED, `kind` UNINDEXED, `scope_key`, `grams`, `context`, tokenize = 'unicode61');
--> statement-breakpoint
INSERT INTO `fact_bigrams` (`rowid`, `doc_id`, `kind`, `scope_key`, `grams`) SELECT -`rowid`, `doc_id`, `kind`, `scope_key`, `grams` FROM `memory_bigrams` WHERE `rowid` < 0;
--> statement-breakpoint
CREATE VIRTUAL TABLE `memory_words_context` USING fts5(`doc_id` UNINDEXED, `kind` UNINDEXED, `scope_key`, `words`, `context`, tokenize = 'unicode61 remove_diacritics 2');
--> statement-breakpoint
INSERT INTO `memory_words_context` (`rowid`, `doc_id`, `kind`, `scope_key`, `words`) SELECT `rowid`, `doc_id`, `kind`, `scope_key`, `words` FROM `memory_words` WHERE `rowid` > 0;
--> statement-breakpoint
DROP TABLE `memory_words`;
--> statement-breakpoint
ALTER TABLE `memory_words_context` RENAME TO `memory_words`;
--> statement-breakpoint
CREATE VIRTUAL TABLE `memory_grams_context` USING fts5(`doc_id` UNINDEXED, `kind` UNINDEXED, `scope_key`, `text`, `context`, tokenize = 'trigram');
--> statement-breakpoint
INSERT INTO `memory_grams_context` (`rowid`, `doc_id`, `kind`, `scope_key`, `text`) SELECT `rowid`, `doc_id`, `kind`, `scope_key`, `text` FROM `memory_grams` WHERE `rowid` > 0;
--> statement-breakpoint
DROP TABLE `memory_grams`;
--> statement-breakpoint
ALTER TABLE `memory_grams_context` RENAME TO `memory_grams`;
--> statement-breakpoint
CREATE VIRTUAL TABLE `memory_bigrams_context` USING fts5(`doc_id` UNINDEXED, `kind` UNINDEXED, `scope_key`, `grams`, `context`, tokenize = 'unicode61');
--> statement-breakpoint
INSERT INTO `memory_bigrams_context` (`rowid`, `doc_id`, `kind`, `scope_key`, `grams`) SELECT `rowid`, `doc_id`, `kind`, `scope_key`, `grams` FROM `memory_bigrams` WHERE `rowid` > 0;
--> statement-breakpoint
DROP TABLE `memory_bigrams`;
--> statement-breakpoint
ALTER TABLE `memory_bigrams_context` RENAME TO `memory_bigrams`;
--> statement-breakpoint
-- `ORDER BY rank` lets FTS5 rank and cut inside the index; its rank must weigh the columns as
-- `bm25Of` does (doc_id, kind, scope_key: 0; own text: 1; context: CONTEXT_WEIGHT = 0.5).
INSERT INTO `memory_words` (`memory_words`, `rank`) VALUES ('rank', 'bm25(0, 0, 0, 1, 0.5)');
--> statement-breakpoint
INSERT INTO `memory_grams` (`memory_grams`, `rank`) VALUES ('rank', 'bm25(0, 0, 0, 1, 0.5)');
--> statement-breakpoint
INSERT INTO `memory_bigrams` (`memory_bigrams`, `rank`) VALUES ('rank', 'bm25(0, 0, 0, 1, 0.5)');
--> statement-breakpoint
INSERT INTO `fact_words` (`fact_words`, `rank`) VALUES ('rank', 'bm25(0, 0, 0, 1, 0.5)');
--> statement-breakpoint
INSERT INTO `fact_grams` (`fact_grams`, `rank`) VALUES ('rank', 'bm25(0, 0, 0, 1, 0.5)');
--> statement-breakpoint
INSERT INTO `fact_bigrams` (`fact_bigrams`, `rank`) VALUES ('rank', 'bm25(0, 0, 0, 1, 0.5)');

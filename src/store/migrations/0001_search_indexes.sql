-- Search structures drizzle-kit cannot express. Each is a ranked recall channel (DESIGN §3).
-- Vector indexes (libSQL DiskANN) over the dense embeddings, cosine metric.
CREATE INDEX `events_embedding_idx` ON `events` (libsql_vector_idx(`embedding`, 'metric=cosine'));
--> statement-breakpoint
CREATE INDEX `blocks_embedding_idx` ON `blocks` (libsql_vector_idx(`embedding`, 'metric=cosine'));
--> statement-breakpoint
CREATE INDEX `triples_embedding_idx` ON `triples` (libsql_vector_idx(`embedding`, 'metric=cosine'));
--> statement-breakpoint
-- Word channel: BM25 over pre-segmented words (jieba for Chinese, normalised English),
-- written space-separated so the unicode61 tokenizer only splits on the spaces we put there.
CREATE VIRTUAL TABLE `memory_words` USING fts5(`doc_id` UNINDEXED, `kind` UNINDEXED, `words`, tokenize = 'unicode61 remove_diacritics 2');
--> statement-breakpoint
-- Character channel: trigram FTS catches substrings, typos and mixed Chinese/English.
CREATE VIRTUAL TABLE `memory_grams` USING fts5(`doc_id` UNINDEXED, `kind` UNINDEXED, `text`, tokenize = 'trigram');

-- Character-bigram channel for Chinese/Japanese/Korean text. The trigram table cannot match a
-- 2-character query (a 2-character word is the commonest Chinese word length), so overlapping
-- CJK character bigrams are written here space-separated, one token each, by the writer.
CREATE VIRTUAL TABLE `memory_bigrams` USING fts5(`doc_id` UNINDEXED, `kind` UNINDEXED, `grams`, tokenize = 'unicode61');

-- Each search row carries its scope as a token (`scope_key`): 'c' || hex(conversation) || 'z'
-- for a conversation's memories, 'uscopez' for user-wide ones (hex keeps any conversation name one
-- token; the 'z' ends it, so one key is never a prefix or substring of another). A scoped query
-- matches the key together with its terms, so FTS5 intersects inside the index and scores only
-- the scope's matches — instead of scoring every match in the table and joining each one to
-- events to throw most away (measured at 100k messages: the words channel spent ~120 of 134 ms
-- on that join). The tables are rebuilt with the key filled in from events and triples, and each
-- row's rowid set to its event's rowid (or minus its triple's), so a document's rows are found by
-- rowid instead of scanning the unindexed doc_id; rows whose document is gone are dropped.
--> statement-breakpoint
CREATE VIRTUAL TABLE `memory_words_scoped` USING fts5(`doc_id` UNINDEXED, `kind` UNINDEXED, `scope_key`, `words`, tokenize = 'unicode61 remove_diacritics 2');
--> statement-breakpoint
INSERT INTO `memory_words_scoped` (`rowid`, `doc_id`, `kind`, `scope_key`, `words`)
  SELECT COALESCE((SELECT e.rowid FROM `events` e WHERE e.id = f.doc_id), -(SELECT t.rowid FROM `triples` t WHERE t.id = f.doc_id)) AS r, f.doc_id, f.kind, COALESCE(
    (SELECT CASE WHEN e.scope = 'user' THEN 'uscopez' ELSE 'c' || hex(e.conversation) || 'z' END FROM `events` e WHERE e.id = f.doc_id),
    (SELECT CASE WHEN t.scope = 'user' THEN 'uscopez' ELSE 'c' || hex(t.scope) || 'z' END FROM `triples` t WHERE t.id = f.doc_id)), f.`words` FROM `memory_words` f
  WHERE COALESCE((SELECT e.rowid FROM `events` e WHERE e.id = f.doc_id), (SELECT t.rowid FROM `triples` t WHERE t.id = f.doc_id)) IS NOT NULL;
--> statement-breakpoint
DROP TABLE `memory_words`;
--> statement-breakpoint
ALTER TABLE `memory_words_scoped` RENAME TO `memory_words`;
--> statement-breakpoint
CREATE VIRTUAL TABLE `memory_grams_scoped` USING fts5(`doc_id` UNINDEXED, `kind` UNINDEXED, `scope_key`, `text`, tokenize = 'trigram');
--> statement-breakpoint
INSERT INTO `memory_grams_scoped` (`rowid`, `doc_id`, `kind`, `scope_key`, `text`)
  SELECT COALESCE((SELECT e.rowid FROM `events` e WHERE e.id = f.doc_id), -(SELECT t.rowid FROM `triples` t WHERE t.id = f.doc_id)) AS r, f.doc_id, f.kind, COALESCE(
    (SELECT CASE WHEN e.scope = 'user' THEN 'uscopez' ELSE 'c' || hex(e.conversation) || 'z' END FROM `events` e WHERE e.id = f.doc_id),
    (SELECT CASE WHEN t.scope = 'user' THEN 'uscopez' ELSE 'c' || hex(t.scope) || 'z' END FROM `triples` t WHERE t.id = f.doc_id)), f.`text` FROM `memory_grams` f
  WHERE COALESCE((SELECT e.rowid FROM `events` e WHERE e.id = f.doc_id), (SELECT t.rowid FROM `triples` t WHERE t.id = f.doc_id)) IS NOT NULL;
--> statement-breakpoint
DROP TABLE `memory_grams`;
--> statement-breakpoint
ALTER TABLE `memory_grams_scoped` RENAME TO `memory_grams`;
--> statement-breakpoint
CREATE VIRTUAL TABLE `memory_bigrams_scoped` USING fts5(`doc_id` UNINDEXED, `kind` UNINDEXED, `scope_key`, `grams`, tokenize = 'unicode61');
--> statement-breakpoint
INSERT INTO `memory_bigrams_scoped` (`rowid`, `doc_id`, `kind`, `scope_key`, `grams`)
  SELECT COALESCE((SELECT e.rowid FROM `events` e WHERE e.id = f.doc_id), -(SELECT t.rowid FROM `triples` t WHERE t.id = f.doc_id)) AS r, f.doc_id, f.kind, COALESCE(
    (SELECT CASE WHEN e.scope = 'user' THEN 'uscopez' ELSE 'c' || hex(e.conversation) || 'z' END FROM `events` e WHERE e.id = f.doc_id),
    (SELECT CASE WHEN t.scope = 'user' THEN 'uscopez' ELSE 'c' || hex(t.scope) || 'z' END FROM `triples` t WHERE t.id = f.doc_id)), f.`grams` FROM `memory_bigrams` f
  WHERE COALESCE((SELECT e.rowid FROM `events` e WHERE e.id = f.doc_id), (SELECT t.rowid FROM `triples` t WHERE t.id = f.doc_id)) IS NOT NULL;
--> statement-breakpoint
DROP TABLE `memory_bigrams`;
--> statement-breakpoint
ALTER TABLE `memory_bigrams_scoped` RENAME TO `memory_bigrams`;

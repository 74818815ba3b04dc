-- A search segment's term list moves out of its row into chunks of its own (src/search/segment-terms.ts):
-- an UPDATE of many segment rows (publishing an import's segments, retiring a merge's sources)
-- held every updated row whole until the commit, and a row carried its term list (~0.8 MB at 65k
-- terms): +218 MiB of peak RSS for 280 rows published by state. Chunk c of a segment holds its
-- sorted terms c·2048 to c·2048 + 2047 as a JSON array; 2048 is TERMS_PER_CHUNK, which readers
-- rely on (a term's position is chunk · 2048 + its place in the chunk) and must not change.
CREATE TABLE `search_segment_terms` (
	`segment` integer NOT NULL,
	`chunk` integer NOT NULL,
	`terms` text NOT NULL,
	PRIMARY KEY(`segment`, `chunk`)
);
--> statement-breakpoint
-- Every segment's list, in its own order (json_each yields an array in order; a merge's list is
-- in SQLite's order, a builder's in JavaScript's). A merge not yet published ('merging:…') has an
-- empty list: its records are found by a scan of the postings, as before.
INSERT INTO `search_segment_terms` (`segment`, `chunk`, `terms`)
	SELECT s.`id`, j.`key` / 2048, json_group_array(j.`value` ORDER BY j.`key`)
	FROM `search_segments` AS s, json_each(s.`terms`) AS j
	GROUP BY s.`id`, j.`key` / 2048;
--> statement-breakpoint
ALTER TABLE `search_segments` DROP COLUMN `terms`;

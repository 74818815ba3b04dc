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
-- in SQLite's order, a builder's in JavaScript's), a segment at a time: its chunks grouped within
-- it, then split into rows. One GROUP BY over every segment's terms sorted them all at once, in
-- memory (libSQL keeps temporary storage in memory): on 280 segments of 65k terms (a 1M-message
-- import's) the upgrade peaked at 1,175 MiB of RSS that way, at 76 MiB this way (11 s). A merge
-- not yet published ('merging:…') has an empty list: its records are found by a scan of the
-- postings, as before.
INSERT INTO `search_segment_terms` (`segment`, `chunk`, `terms`)
	SELECT s.`id`, c.`key`, c.`value` FROM `search_segments` AS s, json_each((
		SELECT json_group_array(json(g.`terms`) ORDER BY g.`chunk`) FROM (
			SELECT j.`key` / 2048 AS `chunk`, json_group_array(j.`value` ORDER BY j.`key`) AS `terms`
			FROM json_each(s.`terms`) AS j GROUP BY j.`key` / 2048) AS g)) AS c;
--> statement-breakpoint
ALTER TABLE `search_segments` DROP COLUMN `terms`;

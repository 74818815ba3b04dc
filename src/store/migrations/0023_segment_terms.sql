-- A search segment's term list moves out of its row into chunks of its own (src/search/segment-terms.ts):
-- an UPDATE of many segment rows (publishing an import's segments, retiring a merge's sources)
-- held every updated row whole until the commit, and a row carried its term list (~0.8 MB at 65k
-- terms): +218 MiB of peak RSS for 280 rows published by state. Chunk c of a segment holds its
-- sorted terms c·2048 to c·2048 + 2047 as a JSON array (2048: TERMS_PER_CHUNK).
-- The lists are copied into it and `search_segments.terms` dropped by homed at the first start
-- after this migration (src/search/term-lists-upgrade.ts): a list must keep its order exactly
-- (a builder's is in JavaScript's order, not SQLite's), which in SQL needs an aggregate's ORDER BY
-- (sqld's parser refuses it) or a sort of every segment's terms at once (libSQL sorts in memory:
-- 1,175 MiB of peak RSS for 280 segments of 65k terms) or a pass over the whole list per chunk
-- (60 s for those 280).
CREATE TABLE `search_segment_terms` (
	`segment` integer NOT NULL,
	`chunk` integer NOT NULL,
	`terms` text NOT NULL,
	PRIMARY KEY(`segment`, `chunk`)
);

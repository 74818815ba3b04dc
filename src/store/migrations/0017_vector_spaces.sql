CREATE TABLE `vector_spaces` (
	`model` text PRIMARY KEY NOT NULL,
	`dimension` integer NOT NULL,
	`vectors` text NOT NULL,
	`created_at` integer NOT NULL
);
--> statement-breakpoint
-- Any embedding width (issue 16): a DiskANN index holds one width, so the per-column indexes
-- over the F32_BLOB(512) columns go; `embedding` columns now hold vectors of any width (SQLite
-- does not enforce the declared size; the index did). Events get one indexed table per model
-- (vector_spaces); blocks and triples are searched by exact scan, as they already were.
DROP INDEX IF EXISTS `events_embedding_idx`;
--> statement-breakpoint
DROP INDEX IF EXISTS `blocks_embedding_idx`;
--> statement-breakpoint
DROP INDEX IF EXISTS `triples_embedding_idx`;

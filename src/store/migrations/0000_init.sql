CREATE TABLE `block_data` (
	`block_id` text PRIMARY KEY NOT NULL,
	`bytes` blob NOT NULL,
	FOREIGN KEY (`block_id`) REFERENCES `blocks`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `blocks` (
	`id` text PRIMARY KEY NOT NULL,
	`event_id` text,
	`kind` text NOT NULL,
	`holder` text NOT NULL,
	`content` text,
	`size` integer,
	`mime` text,
	`sha256` text,
	`embed_model` text,
	`embedding` F32_BLOB(512),
	`created_at` integer NOT NULL,
	FOREIGN KEY (`event_id`) REFERENCES `events`(`id`) ON UPDATE no action ON DELETE no action,
	CONSTRAINT "blocks_holder_valid" CHECK("blocks"."holder" IN ('L1', 'L2', 'L3'))
);
--> statement-breakpoint
CREATE INDEX `blocks_event` ON `blocks` (`event_id`);--> statement-breakpoint
CREATE INDEX `blocks_holder` ON `blocks` (`holder`);--> statement-breakpoint
CREATE TABLE `events` (
	`id` text PRIMARY KEY NOT NULL,
	`session_id` text NOT NULL,
	`conversation` text NOT NULL,
	`scope` text DEFAULT 'conversation' NOT NULL,
	`layer` text NOT NULL,
	`seq` integer NOT NULL,
	`time` integer NOT NULL,
	`speaker` text,
	`role` text,
	`source_id` text,
	`messages` text NOT NULL,
	`text` text NOT NULL,
	`tokens` integer NOT NULL,
	`access_count` integer DEFAULT 0 NOT NULL,
	`last_access` integer,
	`scene_id` text,
	`embed_model` text,
	`embedding` F32_BLOB(512),
	`tfidf` text,
	`created_at` integer NOT NULL,
	CONSTRAINT "events_layer_valid" CHECK("events"."layer" IN ('L1', 'L2', 'L3'))
);
--> statement-breakpoint
CREATE INDEX `events_session_seq` ON `events` (`session_id`,`seq`);--> statement-breakpoint
CREATE INDEX `events_layer_time` ON `events` (`layer`,`time`);--> statement-breakpoint
CREATE INDEX `events_conversation_time` ON `events` (`conversation`,`time`);--> statement-breakpoint
CREATE UNIQUE INDEX `events_conversation_source` ON `events` (`conversation`,`source_id`);--> statement-breakpoint
CREATE TABLE `injection_audit` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`time` integer NOT NULL,
	`session_id` text,
	`query` text NOT NULL,
	`ids` text NOT NULL,
	`counts` text NOT NULL,
	`chars` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `injection_audit_time` ON `injection_audit` (`time`);--> statement-breakpoint
CREATE TABLE `scenes` (
	`id` text PRIMARY KEY NOT NULL,
	`key` text NOT NULL,
	`declared` integer DEFAULT false NOT NULL,
	`features` text NOT NULL,
	`occurrences` integer DEFAULT 1 NOT NULL,
	`strength` real DEFAULT 0 NOT NULL,
	`last_seen` integer NOT NULL,
	`created_at` integer NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `scenes_key_unique` ON `scenes` (`key`);--> statement-breakpoint
CREATE TABLE `secrets` (
	`name` text PRIMARY KEY NOT NULL,
	`value` text NOT NULL,
	`updated_at` integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE `sessions` (
	`id` text PRIMARY KEY NOT NULL,
	`channel` text NOT NULL,
	`partner` text NOT NULL,
	`title` text,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `sessions_channel_partner` ON `sessions` (`channel`,`partner`);--> statement-breakpoint
CREATE TABLE `settings` (
	`key` text PRIMARY KEY NOT NULL,
	`value` text NOT NULL,
	`updated_at` integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE `triple_revisions` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`triple_id` text NOT NULL,
	`revision` integer NOT NULL,
	`snapshot` text NOT NULL,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`triple_id`) REFERENCES `triples`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `triple_revisions_triple_revision` ON `triple_revisions` (`triple_id`,`revision`);--> statement-breakpoint
CREATE TABLE `triples` (
	`id` text PRIMARY KEY NOT NULL,
	`subject_block_id` text NOT NULL,
	`predicate` text NOT NULL,
	`object_block_id` text NOT NULL,
	`kind` text NOT NULL,
	`scope` text NOT NULL,
	`confidence` real NOT NULL,
	`importance` real NOT NULL,
	`revision` integer DEFAULT 1 NOT NULL,
	`evidence` text NOT NULL,
	`source_session` text,
	`source_turn` integer,
	`source_event_id` text,
	`excerpt` text,
	`excerpt_hash` text,
	`access_count` integer DEFAULT 0 NOT NULL,
	`cited_count` integer DEFAULT 0 NOT NULL,
	`last_access` integer,
	`embed_model` text,
	`embedding` F32_BLOB(512),
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`subject_block_id`) REFERENCES `blocks`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`object_block_id`) REFERENCES `blocks`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `triples_scope` ON `triples` (`scope`);--> statement-breakpoint
CREATE INDEX `triples_source_event` ON `triples` (`source_event_id`);
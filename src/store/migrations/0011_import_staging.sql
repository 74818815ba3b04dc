CREATE TABLE `import_blocks` (
	`event_rowid` integer NOT NULL,
	`id` text NOT NULL,
	`event_id` text NOT NULL,
	`kind` text NOT NULL,
	`holder` text NOT NULL,
	`content` text,
	`created_at` integer NOT NULL,
	PRIMARY KEY(`event_rowid`, `id`)
);
--> statement-breakpoint
CREATE TABLE `import_events` (
	`event_rowid` integer PRIMARY KEY NOT NULL,
	`id` text NOT NULL,
	`session_id` text NOT NULL,
	`conversation` text NOT NULL,
	`scope` text NOT NULL,
	`layer` text NOT NULL,
	`seq` integer NOT NULL,
	`time` integer NOT NULL,
	`speaker` text,
	`role` text,
	`source_id` text,
	`messages` text NOT NULL,
	`text` text NOT NULL,
	`tokens` integer NOT NULL,
	`embed_model` text,
	`embedding` blob,
	`created_at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `import_events_session_seq` ON `import_events` (`session_id`,`seq`);--> statement-breakpoint
CREATE TABLE `import_runs` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`first_rowid` integer NOT NULL,
	`state` text NOT NULL,
	`pid` integer NOT NULL,
	`host` text NOT NULL,
	`started_at` integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE `import_seen` (
	`run` integer NOT NULL,
	`id` text NOT NULL,
	PRIMARY KEY(`run`, `id`)
);

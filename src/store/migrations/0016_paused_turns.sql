CREATE TABLE `paused_turns` (
	`session_id` text PRIMARY KEY NOT NULL,
	`round` text NOT NULL,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`session_id`) REFERENCES `sessions`(`id`) ON UPDATE no action ON DELETE no action
);

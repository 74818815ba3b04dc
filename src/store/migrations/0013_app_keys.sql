CREATE TABLE `app_keys` (
	`name` text PRIMARY KEY NOT NULL,
	`key_hash` text NOT NULL,
	`partner` text,
	`scopes` text NOT NULL,
	`created_at` integer NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `app_keys_key_hash_unique` ON `app_keys` (`key_hash`);
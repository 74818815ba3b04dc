DROP INDEX `sessions_channel_partner`;--> statement-breakpoint
ALTER TABLE `sessions` ADD `thread` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
CREATE UNIQUE INDEX `sessions_channel_partner_thread` ON `sessions` (`channel`,`partner`,`thread`);
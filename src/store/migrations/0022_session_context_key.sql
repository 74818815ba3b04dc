ALTER TABLE `sessions` ADD `context_key` text;--> statement-breakpoint
CREATE UNIQUE INDEX `sessions_channel_partner_context` ON `sessions` (`channel`,`partner`,`context_key`);
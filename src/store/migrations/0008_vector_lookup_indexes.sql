CREATE INDEX `blocks_kind_model` ON `blocks` (`kind`,`embed_model`);--> statement-breakpoint
CREATE INDEX `events_layer_model` ON `events` (`layer`,`embed_model`);
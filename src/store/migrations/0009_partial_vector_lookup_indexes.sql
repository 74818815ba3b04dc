DROP INDEX `blocks_kind_model`;--> statement-breakpoint
CREATE INDEX `blocks_image_model` ON `blocks` (`embed_model`) WHERE "blocks"."kind" = 'image';--> statement-breakpoint
DROP INDEX `events_layer_model`;--> statement-breakpoint
CREATE INDEX `events_layer_vector_model` ON `events` (`layer`,`embed_model`) WHERE "events"."embed_model" IS NOT NULL;
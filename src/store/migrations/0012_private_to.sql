-- Private scopes (issue 15): null = the user's, reachable from every chat. Existing memories stay
-- null: their old 'conversation' scope was the default for every write, never a person's choice.
ALTER TABLE `events` ADD `private_to` text;--> statement-breakpoint
ALTER TABLE `import_events` ADD `private_to` text;--> statement-breakpoint
ALTER TABLE `triples` ADD `private_to` text;
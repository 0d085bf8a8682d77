-- Issue 17: a place text search on Discover merges each matching place's rides in (departs_at, id)
-- order straight from these indexes, instead of walking every upcoming ride of the city (ADR 0038).
DROP INDEX `rides_from_idx`;--> statement-breakpoint
DROP INDEX `rides_to_idx`;--> statement-breakpoint
CREATE INDEX `rides_from_idx` ON `rides` (`status`,`from_location`,`departs_at`,`id`);--> statement-breakpoint
CREATE INDEX `rides_to_idx` ON `rides` (`status`,`to_location`,`departs_at`,`id`);
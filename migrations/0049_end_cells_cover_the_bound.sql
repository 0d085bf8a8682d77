-- Issue 40 (ADR 0049, "the widest date search"): a 10 km date search first takes the rides
-- whose end lies in the sparser end's circle from this index alone, with each ride's two ends
-- and whether it has vias, so it can bound every such ride's score (walk, detour, minutes off)
-- without reading the ride, and reads only the ones with the lowest bounds. Same leading
-- columns as before, so every query that ranged these indexes ranges them as it did.
DROP INDEX `rides_from_cell_idx`;--> statement-breakpoint
CREATE INDEX `rides_from_cell_idx` ON `rides` (`from_cell`, `status`, `departs_at`, `from_lat`, `from_lng`, `to_lat`, `to_lng`, `via_place_ids`, `id`);--> statement-breakpoint
DROP INDEX `rides_to_cell_idx`;--> statement-breakpoint
CREATE INDEX `rides_to_cell_idx` ON `rides` (`to_cell`, `status`, `departs_at`, `from_lat`, `from_lng`, `to_lat`, `to_lng`, `via_place_ids`, `id`);

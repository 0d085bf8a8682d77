-- Issue 40 (ADR 0049, "page 2 and the weekday search"): a 10 km weekday search first takes the
-- commutes whose end lies in the sparser end's circle from this index alone, with each
-- commute's two ends, whether it has vias, its weekdays and its community, so it can bound
-- every such commute's score and leave out those on no wanted weekday or that the viewer may
-- not see without reading the commute, then reads only the ones with the lowest bounds. Same
-- leading columns as before; nothing else ranges these indexes since migration 0050.
DROP INDEX `commutes_from_cell_idx`;--> statement-breakpoint
CREATE INDEX `commutes_from_cell_idx` ON `commutes` (`from_cell`, `status`, `time`, `from_lat`, `from_lng`, `to_lat`, `to_lng`, `via_place_ids`, `weekdays`, `community_id`, `id`);--> statement-breakpoint
DROP INDEX `commutes_to_cell_idx`;--> statement-breakpoint
CREATE INDEX `commutes_to_cell_idx` ON `commutes` (`to_cell`, `status`, `time`, `from_lat`, `from_lng`, `to_lat`, `to_lng`, `via_place_ids`, `weekdays`, `community_id`, `id`);--> statement-breakpoint
-- The largest detour any profile allows, read as one row (max() over this index): the score
-- bound rules out a way only when no driver could take that detour, and drivers keep the
-- default 15 minutes far more often than the 60 a profile may allow.
CREATE INDEX `user_profiles_max_detour_idx` ON `user_profiles` (`max_detour_minutes`);

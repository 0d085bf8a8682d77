-- Issue 17: Discover's "Women-only seats" filter reads only those rides, in (departs_at, id) order,
-- instead of every upcoming ride (ADR 0037).
CREATE INDEX `rides_women_idx` ON `rides` (`community_id`,`status`,`departs_at`,`id`) WHERE ("rides"."women_only" = 1 OR "rides"."women_lock_booked" IS NOT NULL);
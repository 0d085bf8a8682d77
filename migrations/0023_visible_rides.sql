-- Issue 17: Discover reads the public rides, and each of the viewer's communities' rides, in
-- (departs_at, id) order straight from this index, so a page reads only rides the viewer may
-- see and no sort reads past it (ADR 0035).
DROP INDEX `rides_community_idx`;--> statement-breakpoint
CREATE INDEX `rides_community_idx` ON `rides` (`community_id`,`status`,`departs_at`,`id`);
-- Issue 16, item 2 (community rules): the pricing mode and the women-only rule a community's
-- admins set, the ride's own copy of the pricing mode taken when it is created (a later
-- change never moves anyone's price; NULL, for rides older than this migration or shared with
-- no community, keeps the split as it was), and the community's approved pickup points.
-- Added columns only: communities and rides are not rebuilt.
ALTER TABLE `communities` ADD `pricing_mode` text DEFAULT 'equal' NOT NULL CHECK (`pricing_mode` IN ('free','equal','per_seat'));
--> statement-breakpoint
ALTER TABLE `communities` ADD `women_only` integer DEFAULT false NOT NULL;
--> statement-breakpoint
ALTER TABLE `rides` ADD `pricing_mode` text CHECK (`pricing_mode` IS NULL OR `pricing_mode` IN ('free','equal','per_seat'));
--> statement-breakpoint
CREATE TABLE `community_pickup_points` (
	`community_id` text NOT NULL,
	`place_id` text NOT NULL,
	`position` integer NOT NULL,
	PRIMARY KEY(`community_id`, `place_id`),
	FOREIGN KEY (`community_id`) REFERENCES `communities`(`id`) ON UPDATE no action ON DELETE cascade,
	CONSTRAINT "pickup_point_position" CHECK("community_pickup_points"."position" BETWEEN 0 AND 9)
);
--> statement-breakpoint
CREATE UNIQUE INDEX `community_pickup_points_position_unique` ON `community_pickup_points` (`community_id`,`position`);

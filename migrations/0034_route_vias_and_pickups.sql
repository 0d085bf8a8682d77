-- Issue 36 (ADR 0049): a ride's and a commute's route. Up to three via places (their place ids,
-- space-separated, in order; NULL: none) and the box around the route's points, which the
-- distance search reads to drop rides whose line passes nowhere near the rider. Existing rows
-- get the box of their start and end; rows without points keep NULL (they match as before).
ALTER TABLE `rides` ADD `via_place_ids` text;--> statement-breakpoint
ALTER TABLE `rides` ADD `route_south` real;--> statement-breakpoint
ALTER TABLE `rides` ADD `route_north` real;--> statement-breakpoint
ALTER TABLE `rides` ADD `route_west` real;--> statement-breakpoint
ALTER TABLE `rides` ADD `route_east` real;--> statement-breakpoint
ALTER TABLE `commutes` ADD `via_place_ids` text;--> statement-breakpoint
ALTER TABLE `commutes` ADD `route_south` real;--> statement-breakpoint
ALTER TABLE `commutes` ADD `route_north` real;--> statement-breakpoint
ALTER TABLE `commutes` ADD `route_west` real;--> statement-breakpoint
ALTER TABLE `commutes` ADD `route_east` real;--> statement-breakpoint
UPDATE `rides` SET `route_south` = min(`from_lat`, `to_lat`), `route_north` = max(`from_lat`, `to_lat`),
  `route_west` = min(`from_lng`, `to_lng`), `route_east` = max(`from_lng`, `to_lng`)
WHERE `from_lat` IS NOT NULL AND `to_lat` IS NOT NULL;--> statement-breakpoint
UPDATE `commutes` SET `route_south` = min(`from_lat`, `to_lat`), `route_north` = max(`from_lat`, `to_lat`),
  `route_west` = min(`from_lng`, `to_lng`), `route_east` = max(`from_lng`, `to_lng`)
WHERE `from_lat` IS NOT NULL AND `to_lat` IS NOT NULL;--> statement-breakpoint
-- Item 2: where the rider asked to be picked up (a place id; NULL: the ride's start).
ALTER TABLE `ride_requests` ADD `pickup_place_id` text;

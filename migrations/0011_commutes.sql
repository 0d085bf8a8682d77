-- Recurring commutes (issue 14, item 3): a driver's weekly pattern, and its concrete rides
-- (occurrences) in rides, linked by rides.commute_id. The partial unique index on
-- (commute_id, date) is what makes the daily top-up idempotent: generating a day that
-- exists (or was skipped: a skipped occurrence stays as a cancelled ride) inserts nothing.
-- The pattern keeps its places the same way a ride does (from_location / to_location, and the
-- place ids, points and grid cells of migration 0010), and each occurrence copies them.
CREATE TABLE `commutes` (
	`id` text PRIMARY KEY NOT NULL,
	`driver_id` text NOT NULL REFERENCES `users`(`id`),
	`community_id` text REFERENCES `communities`(`id`) ON DELETE set null,
	`from_location` text NOT NULL,
	`to_location` text NOT NULL,
	`weekdays` integer NOT NULL,
	`time` text NOT NULL,
	`seats` integer NOT NULL,
	`trip_cost_paise` integer NOT NULL,
	`distance_km` integer,
	`notes` text,
	`vehicle_type` text,
	`from_place_id` text,
	`to_place_id` text,
	`from_lat` real,
	`from_lng` real,
	`to_lat` real,
	`to_lng` real,
	`from_cell` integer,
	`to_cell` integer,
	`start_date` text NOT NULL,
	`end_date` text,
	`status` text DEFAULT 'active' NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	CONSTRAINT "commute_weekdays" CHECK("commutes"."weekdays" BETWEEN 1 AND 127),
	CONSTRAINT "commute_seats" CHECK("commutes"."seats" BETWEEN 1 AND 6),
	CONSTRAINT "commute_cost" CHECK("commutes"."trip_cost_paise" >= 0),
	CONSTRAINT "commute_status" CHECK("commutes"."status" IN ('active','ended')),
	CONSTRAINT "commute_places_differ" CHECK("commutes"."from_location" <> "commutes"."to_location"),
	CONSTRAINT "commute_time_format" CHECK("commutes"."time" GLOB '[0-2][0-9]:[0-5][0-9]'),
	CONSTRAINT "commute_start_format" CHECK("commutes"."start_date" GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]'),
	CONSTRAINT "commute_end_after_start" CHECK("commutes"."end_date" IS NULL OR "commutes"."end_date" >= "commutes"."start_date")
);
--> statement-breakpoint
CREATE INDEX `commutes_driver_idx` ON `commutes` (`driver_id`,`created_at`);
--> statement-breakpoint
CREATE INDEX `commutes_status_idx` ON `commutes` (`status`,`end_date`);
--> statement-breakpoint
ALTER TABLE `rides` ADD `commute_id` text REFERENCES commutes(id);
--> statement-breakpoint
CREATE UNIQUE INDEX `rides_commute_date_unique` ON `rides` (`commute_id`,`date`) WHERE "rides"."commute_id" IS NOT NULL;

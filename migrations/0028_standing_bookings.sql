-- Standing bookings (issue 35, item 2; docs/decisions/0045-standing-bookings.md): a rider's
-- booking of a commute on chosen weekdays is its own row, so the daily top-up can keep the
-- rider booked on the days it adds (before this a booking silently ran out after 14 days).
-- accepted_at: the driver accepted the booking, and its new days are accepted at once.
-- A pause is a window of IST dates (paused_from .. paused_until) in which nothing is asked for.
CREATE TABLE `commute_bookings` (
	`id` text PRIMARY KEY NOT NULL,
	`commute_id` text NOT NULL REFERENCES `commutes`(`id`),
	`rider_id` text NOT NULL REFERENCES `users`(`id`),
	`weekdays` integer NOT NULL,
	`seats` integer NOT NULL,
	`notes` text,
	`status` text DEFAULT 'active' NOT NULL,
	`accepted_at` integer,
	`paused_from` text,
	`paused_until` text,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	`ended_at` integer,
	CONSTRAINT "booking_weekdays" CHECK("commute_bookings"."weekdays" BETWEEN 1 AND 127),
	CONSTRAINT "booking_seats" CHECK("commute_bookings"."seats" BETWEEN 1 AND 6),
	CONSTRAINT "booking_status" CHECK("commute_bookings"."status" IN ('active','paused','ended')),
	CONSTRAINT "booking_pause_window" CHECK("commute_bookings"."status" <> 'paused' OR ("commute_bookings"."paused_from" IS NOT NULL AND "commute_bookings"."paused_until" >= "commute_bookings"."paused_from"))
);
--> statement-breakpoint
-- One live booking per commute and rider; an ended one stays as history and a new one may follow.
CREATE UNIQUE INDEX `commute_bookings_live_unique` ON `commute_bookings` (`commute_id`,`rider_id`) WHERE "commute_bookings"."status" <> 'ended';
--> statement-breakpoint
-- The top-up joins the days it just made to the live bookings of their commutes.
CREATE INDEX `commute_bookings_commute_idx` ON `commute_bookings` (`commute_id`,`status`,`created_at`);
--> statement-breakpoint
-- A rider's own bookings (their commute pages, account deletion, the data export).
CREATE INDEX `commute_bookings_rider_idx` ON `commute_bookings` (`rider_id`,`status`);
--> statement-breakpoint
-- The days one top-up run made (their created_at is the run's clock), without reading the others.
CREATE INDEX `rides_commute_created_idx` ON `rides` (`created_at`) WHERE "rides"."commute_id" IS NOT NULL;

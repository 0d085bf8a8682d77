-- Ride inquiries (issue 20): a rider may message the driver of a ride they can see and book,
-- about that ride, without sharing a community or a request. The first message about a ride
-- is recorded here (the chat names the ride on it); the conversation stays open while one of
-- the pair's inquired rides is upcoming. A driver can turn ride inquiries off in Settings.
-- An inquiry is both people's history, so every foreign key is RESTRICT (ADR 0012).
ALTER TABLE `user_settings` ADD `ride_inquiries` integer DEFAULT true NOT NULL;
--> statement-breakpoint
CREATE TABLE `ride_inquiries` (
	`ride_id` text NOT NULL,
	`rider_id` text NOT NULL,
	`driver_id` text NOT NULL,
	`conversation_id` text NOT NULL,
	`message_id` text NOT NULL,
	`created_at` integer NOT NULL,
	PRIMARY KEY(`ride_id`, `rider_id`),
	FOREIGN KEY (`ride_id`) REFERENCES `rides`(`id`) ON UPDATE no action ON DELETE restrict,
	FOREIGN KEY (`rider_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE restrict,
	FOREIGN KEY (`driver_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE restrict,
	FOREIGN KEY (`conversation_id`) REFERENCES `conversations`(`id`) ON UPDATE no action ON DELETE restrict,
	FOREIGN KEY (`message_id`) REFERENCES `messages`(`id`) ON UPDATE no action ON DELETE restrict,
	CONSTRAINT "ride_inquiry_parties_differ" CHECK("ride_inquiries"."rider_id" <> "ride_inquiries"."driver_id")
);
--> statement-breakpoint
CREATE UNIQUE INDEX `ride_inquiries_message_unique` ON `ride_inquiries` (`message_id`);
--> statement-breakpoint
CREATE INDEX `ride_inquiries_pair_idx` ON `ride_inquiries` (`rider_id`,`driver_id`);

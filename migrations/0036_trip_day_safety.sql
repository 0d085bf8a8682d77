-- Issue 37, items 1-4: safety on the day of the ride (docs/decisions/0051-trip-day-safety.md).
--
-- 1. Trip status lives on the ride (started, ended) and on each request (picked up, dropped).
ALTER TABLE `rides` ADD `trip_started_at` integer;--> statement-breakpoint
ALTER TABLE `rides` ADD `trip_ended_at` integer;--> statement-breakpoint
ALTER TABLE `ride_requests` ADD `picked_up_at` integer;--> statement-breakpoint
ALTER TABLE `ride_requests` ADD `dropped_at` integer;--> statement-breakpoint
-- 2. The pickup code is not stored: it is derived from the request's id under a server
--    secret (app/models/trip.server.ts), so no insert path needs to know of it.
-- 3. Share my trip: only the token's SHA-256 is kept. An alert to the emergency contact makes
--    its row first and the sender mints the token when it sends (token_hash NULL until then),
--    so the link is never stored in the outbox.
CREATE TABLE `trip_shares` (
	`id` text PRIMARY KEY NOT NULL,
	`ride_id` text NOT NULL,
	`user_id` text NOT NULL,
	`token_hash` text,
	`via` text DEFAULT 'link' NOT NULL,
	`created_at` integer NOT NULL,
	`revoked_at` integer,
	FOREIGN KEY (`ride_id`) REFERENCES `rides`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	CONSTRAINT "trip_share_via" CHECK("trip_shares"."via" IN ('link','alert'))
);
--> statement-breakpoint
CREATE UNIQUE INDEX `trip_shares_token_unique` ON `trip_shares` (`token_hash`);--> statement-breakpoint
CREATE INDEX `trip_shares_user_ride_idx` ON `trip_shares` (`user_id`,`ride_id`,`created_at`);--> statement-breakpoint
CREATE INDEX `trip_shares_ride_idx` ON `trip_shares` (`ride_id`);--> statement-breakpoint
-- 4. The emergency contact's e-mail (the profile's emergency contact is a free-text name and
--    phone), and outbox.kind gains 'emergency_alert'. SQLite cannot change a CHECK in place:
--    outbox is rebuilt as migration 0018 did (copy out, drop, create, copy back; no RENAME).
ALTER TABLE `user_profiles` ADD `emergency_contact_email` text;--> statement-breakpoint
CREATE TABLE `__copy_outbox` AS SELECT * FROM `outbox`;--> statement-breakpoint
DROP TABLE `outbox`;--> statement-breakpoint
CREATE TABLE `outbox` (
	`id` text PRIMARY KEY NOT NULL,
	`channel` text NOT NULL,
	`user_id` text NOT NULL,
	`kind` text NOT NULL,
	`idempotency_key` text NOT NULL,
	`payload` text DEFAULT '{}' NOT NULL,
	`status` text DEFAULT 'pending' NOT NULL,
	`attempts` integer DEFAULT 0 NOT NULL,
	`next_attempt_at` integer NOT NULL,
	`last_error` text,
	`created_at` integer NOT NULL,
	`sent_at` integer,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	CONSTRAINT "outbox_channel" CHECK("outbox"."channel" IN ('email','push')),
	CONSTRAINT "outbox_kind" CHECK("outbox"."kind" IN ('notification','reminder','verify_email','password_reset','work_email_code','emergency_alert')),
	CONSTRAINT "outbox_status" CHECK("outbox"."status" IN ('pending','sending','sent','skipped','failed'))
);
--> statement-breakpoint
INSERT INTO `outbox`("id", "channel", "user_id", "kind", "idempotency_key", "payload", "status", "attempts", "next_attempt_at", "last_error", "created_at", "sent_at") SELECT "id", "channel", "user_id", "kind", "idempotency_key", "payload", "status", "attempts", "next_attempt_at", "last_error", "created_at", "sent_at" FROM `__copy_outbox`;--> statement-breakpoint
DROP TABLE `__copy_outbox`;--> statement-breakpoint
CREATE UNIQUE INDEX `outbox_key_unique` ON `outbox` (`idempotency_key`);--> statement-breakpoint
CREATE INDEX `outbox_due_idx` ON `outbox` (`status`,`next_attempt_at`);--> statement-breakpoint
CREATE INDEX `outbox_user_idx` ON `outbox` (`user_id`);

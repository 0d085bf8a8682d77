-- Issue 19, findings 11 and 4 (docs/decisions/0012-removing-a-person.md, 0008-rides-behaviour.md).
-- 1. Foreign keys that would erase someone else's history when one person (or one ride) is
--    deleted become RESTRICT: conversations, messages, ride_requests, payments, ride_ratings,
--    referrals. Rows that belong to one person alone keep ON DELETE CASCADE.
-- 2. ride_requests.status gains 'expired' (a pending request closed because its ride
--    completed or departed); pending requests already in that state are expired here.
-- SQLite cannot change a foreign key or a CHECK in place: each table is rebuilt. Every row is
-- copied out to a plain table first and the old table dropped before its replacement is
-- created, children (messages) before parents (conversations): a DROP TABLE runs an implicit
-- DELETE that would fire the old ON DELETE CASCADE on children still referencing it. No
-- triggers exist on these tables; the rides table (and its triggers) is not touched.
PRAGMA defer_foreign_keys = on;--> statement-breakpoint
CREATE TABLE `__copy_messages` AS SELECT * FROM `messages`;--> statement-breakpoint
CREATE TABLE `__copy_conversations` AS SELECT * FROM `conversations`;--> statement-breakpoint
CREATE TABLE `__copy_ride_requests` AS SELECT * FROM `ride_requests`;--> statement-breakpoint
CREATE TABLE `__copy_payments` AS SELECT * FROM `payments`;--> statement-breakpoint
CREATE TABLE `__copy_ride_ratings` AS SELECT * FROM `ride_ratings`;--> statement-breakpoint
CREATE TABLE `__copy_referrals` AS SELECT * FROM `referrals`;--> statement-breakpoint
DROP TABLE `messages`;--> statement-breakpoint
DROP TABLE `conversations`;--> statement-breakpoint
DROP TABLE `ride_requests`;--> statement-breakpoint
DROP TABLE `payments`;--> statement-breakpoint
DROP TABLE `ride_ratings`;--> statement-breakpoint
DROP TABLE `referrals`;--> statement-breakpoint
CREATE TABLE `conversations` (
	`id` text PRIMARY KEY NOT NULL,
	`user_a` text NOT NULL,
	`user_b` text NOT NULL,
	`last_message_at` integer,
	`last_message_preview` text,
	`last_sender_id` text,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`user_a`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE restrict,
	FOREIGN KEY (`user_b`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE restrict,
	CONSTRAINT "conversation_ordered_pair" CHECK("conversations"."user_a" < "conversations"."user_b")
);
--> statement-breakpoint
INSERT INTO `conversations`("id", "user_a", "user_b", "last_message_at", "last_message_preview", "last_sender_id", "created_at") SELECT "id", "user_a", "user_b", "last_message_at", "last_message_preview", "last_sender_id", "created_at" FROM `__copy_conversations`;--> statement-breakpoint
DROP TABLE `__copy_conversations`;--> statement-breakpoint
CREATE UNIQUE INDEX `conversations_pair_unique` ON `conversations` (`user_a`,`user_b`);--> statement-breakpoint
CREATE INDEX `conversations_a_idx` ON `conversations` (`user_a`,`last_message_at`);--> statement-breakpoint
CREATE INDEX `conversations_b_idx` ON `conversations` (`user_b`,`last_message_at`);--> statement-breakpoint
CREATE TABLE `messages` (
	`id` text PRIMARY KEY NOT NULL,
	`conversation_id` text NOT NULL,
	`sender_id` text NOT NULL,
	`receiver_id` text NOT NULL,
	`content` text NOT NULL,
	`client_id` text,
	`created_at` integer NOT NULL,
	`read_at` integer,
	FOREIGN KEY (`conversation_id`) REFERENCES `conversations`(`id`) ON UPDATE no action ON DELETE restrict,
	FOREIGN KEY (`sender_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE restrict,
	FOREIGN KEY (`receiver_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE restrict,
	CONSTRAINT "message_length" CHECK(length("messages"."content") BETWEEN 1 AND 2000),
	CONSTRAINT "message_parties_differ" CHECK("messages"."sender_id" <> "messages"."receiver_id")
);
--> statement-breakpoint
INSERT INTO `messages`("id", "conversation_id", "sender_id", "receiver_id", "content", "client_id", "created_at", "read_at") SELECT "id", "conversation_id", "sender_id", "receiver_id", "content", "client_id", "created_at", "read_at" FROM `__copy_messages`;--> statement-breakpoint
DROP TABLE `__copy_messages`;--> statement-breakpoint
CREATE INDEX `messages_conversation_idx` ON `messages` (`conversation_id`,`created_at`);--> statement-breakpoint
CREATE INDEX `messages_unread_idx` ON `messages` (`receiver_id`,`conversation_id`) WHERE "messages"."read_at" IS NULL;--> statement-breakpoint
CREATE UNIQUE INDEX `messages_client_unique` ON `messages` (`sender_id`,`client_id`) WHERE "messages"."client_id" IS NOT NULL;--> statement-breakpoint
CREATE TABLE `ride_requests` (
	`id` text PRIMARY KEY NOT NULL,
	`ride_id` text NOT NULL,
	`rider_id` text NOT NULL,
	`seats` integer NOT NULL,
	`status` text DEFAULT 'pending' NOT NULL,
	`notes` text,
	`created_at` integer NOT NULL,
	`decided_at` integer,
	`cancelled_at` integer,
	FOREIGN KEY (`ride_id`) REFERENCES `rides`(`id`) ON UPDATE no action ON DELETE restrict,
	FOREIGN KEY (`rider_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE restrict,
	CONSTRAINT "request_seats" CHECK("ride_requests"."seats" BETWEEN 1 AND 6),
	CONSTRAINT "request_status" CHECK("ride_requests"."status" IN ('pending','accepted','rejected','cancelled','expired'))
);
--> statement-breakpoint
INSERT INTO `ride_requests`("id", "ride_id", "rider_id", "seats", "status", "notes", "created_at", "decided_at", "cancelled_at") SELECT "id", "ride_id", "rider_id", "seats", "status", "notes", "created_at", "decided_at", "cancelled_at" FROM `__copy_ride_requests`;--> statement-breakpoint
DROP TABLE `__copy_ride_requests`;--> statement-breakpoint
CREATE UNIQUE INDEX `ride_requests_live_unique` ON `ride_requests` (`ride_id`,`rider_id`) WHERE "ride_requests"."status" IN ('pending','accepted');--> statement-breakpoint
CREATE INDEX `ride_requests_ride_idx` ON `ride_requests` (`ride_id`,`status`,`created_at`);--> statement-breakpoint
CREATE INDEX `ride_requests_rider_idx` ON `ride_requests` (`rider_id`,`created_at`);--> statement-breakpoint
CREATE INDEX `ride_requests_rider_status_idx` ON `ride_requests` (`rider_id`,`status`,`created_at`);--> statement-breakpoint
CREATE TABLE `payments` (
	`id` text PRIMARY KEY NOT NULL,
	`ride_id` text NOT NULL,
	`payer_id` text NOT NULL,
	`payee_id` text NOT NULL,
	`seats` integer NOT NULL,
	`amount_paise` integer NOT NULL,
	`status` text DEFAULT 'pending' NOT NULL,
	`method` text,
	`created_at` integer NOT NULL,
	`requested_at` integer,
	`paid_at` integer,
	`received_at` integer,
	FOREIGN KEY (`ride_id`) REFERENCES `rides`(`id`) ON UPDATE no action ON DELETE restrict,
	FOREIGN KEY (`payer_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE restrict,
	FOREIGN KEY (`payee_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE restrict,
	CONSTRAINT "payment_amount" CHECK("payments"."amount_paise" >= 0),
	CONSTRAINT "payment_seats" CHECK("payments"."seats" BETWEEN 1 AND 6),
	CONSTRAINT "payment_status" CHECK("payments"."status" IN ('pending','requested','paid','received')),
	CONSTRAINT "payment_method" CHECK("payments"."method" IS NULL OR "payments"."method" IN ('upi','cash')),
	CONSTRAINT "payment_parties_differ" CHECK("payments"."payer_id" <> "payments"."payee_id")
);
--> statement-breakpoint
INSERT INTO `payments`("id", "ride_id", "payer_id", "payee_id", "seats", "amount_paise", "status", "method", "created_at", "requested_at", "paid_at", "received_at") SELECT "id", "ride_id", "payer_id", "payee_id", "seats", "amount_paise", "status", "method", "created_at", "requested_at", "paid_at", "received_at" FROM `__copy_payments`;--> statement-breakpoint
DROP TABLE `__copy_payments`;--> statement-breakpoint
CREATE UNIQUE INDEX `payments_ride_payer_unique` ON `payments` (`ride_id`,`payer_id`);--> statement-breakpoint
CREATE INDEX `payments_payer_idx` ON `payments` (`payer_id`,`created_at`);--> statement-breakpoint
CREATE INDEX `payments_payee_idx` ON `payments` (`payee_id`,`created_at`);--> statement-breakpoint
CREATE TABLE `ride_ratings` (
	`id` text PRIMARY KEY NOT NULL,
	`ride_id` text NOT NULL,
	`rater_id` text NOT NULL,
	`ratee_id` text NOT NULL,
	`stars` integer NOT NULL,
	`comment` text,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`ride_id`) REFERENCES `rides`(`id`) ON UPDATE no action ON DELETE restrict,
	FOREIGN KEY (`rater_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE restrict,
	FOREIGN KEY (`ratee_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE restrict,
	CONSTRAINT "rating_stars" CHECK("ride_ratings"."stars" BETWEEN 1 AND 5),
	CONSTRAINT "rating_not_self" CHECK("ride_ratings"."rater_id" <> "ride_ratings"."ratee_id")
);
--> statement-breakpoint
INSERT INTO `ride_ratings`("id", "ride_id", "rater_id", "ratee_id", "stars", "comment", "created_at") SELECT "id", "ride_id", "rater_id", "ratee_id", "stars", "comment", "created_at" FROM `__copy_ride_ratings`;--> statement-breakpoint
DROP TABLE `__copy_ride_ratings`;--> statement-breakpoint
CREATE UNIQUE INDEX `ride_ratings_once` ON `ride_ratings` (`ride_id`,`rater_id`,`ratee_id`);--> statement-breakpoint
CREATE INDEX `ride_ratings_ratee_idx` ON `ride_ratings` (`ratee_id`);--> statement-breakpoint
CREATE TABLE `referrals` (
	`id` text PRIMARY KEY NOT NULL,
	`referrer_id` text NOT NULL,
	`referred_user_id` text,
	`referred_email` text,
	`referral_code` text NOT NULL,
	`status` text DEFAULT 'pending' NOT NULL,
	`created_at` integer NOT NULL,
	`completed_at` integer,
	FOREIGN KEY (`referrer_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE restrict,
	FOREIGN KEY (`referred_user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE restrict,
	CONSTRAINT "referral_status" CHECK("referrals"."status" IN ('pending','completed')),
	CONSTRAINT "referral_not_self" CHECK("referrals"."referred_user_id" IS NULL OR "referrals"."referred_user_id" <> "referrals"."referrer_id")
);
--> statement-breakpoint
INSERT INTO `referrals`("id", "referrer_id", "referred_user_id", "referred_email", "referral_code", "status", "created_at", "completed_at") SELECT "id", "referrer_id", "referred_user_id", "referred_email", "referral_code", "status", "created_at", "completed_at" FROM `__copy_referrals`;--> statement-breakpoint
DROP TABLE `__copy_referrals`;--> statement-breakpoint
CREATE UNIQUE INDEX `referrals_referred_unique` ON `referrals` (`referred_user_id`);--> statement-breakpoint
CREATE INDEX `referrals_referrer_idx` ON `referrals` (`referrer_id`);--> statement-breakpoint
UPDATE `ride_requests` SET `status` = 'expired', `decided_at` = CAST(strftime('%s', 'now') AS INTEGER) * 1000
  WHERE `status` = 'pending'
    AND `ride_id` IN (SELECT `id` FROM `rides` WHERE `status` <> 'active' OR `departs_at` <= CAST(strftime('%s', 'now') AS INTEGER) * 1000);

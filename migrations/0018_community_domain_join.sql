-- Issue 16, item 1: joining a community by proving a work e-mail address at its domain
-- (docs/decisions/0023-work-email-domain-join.md).
--
-- 1. outbox.kind gains 'work_email_code': the one-time code goes to the work address, which is
--    not the account's e-mail. SQLite cannot change a CHECK in place, so outbox is rebuilt the
--    way migration 0005 rebuilt its tables (copy out, drop, create under the same name, copy
--    back; no RENAME). The notifications_outbox trigger lives on notifications, not on outbox:
--    it is not touched, and it inserts into the new table by name.
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
	CONSTRAINT "outbox_kind" CHECK("outbox"."kind" IN ('notification','reminder','verify_email','password_reset','work_email_code')),
	CONSTRAINT "outbox_status" CHECK("outbox"."status" IN ('pending','sending','sent','skipped','failed'))
);
--> statement-breakpoint
INSERT INTO `outbox`("id", "channel", "user_id", "kind", "idempotency_key", "payload", "status", "attempts", "next_attempt_at", "last_error", "created_at", "sent_at") SELECT "id", "channel", "user_id", "kind", "idempotency_key", "payload", "status", "attempts", "next_attempt_at", "last_error", "created_at", "sent_at" FROM `__copy_outbox`;--> statement-breakpoint
DROP TABLE `__copy_outbox`;--> statement-breakpoint
CREATE UNIQUE INDEX `outbox_key_unique` ON `outbox` (`idempotency_key`);--> statement-breakpoint
CREATE INDEX `outbox_due_idx` ON `outbox` (`status`,`next_attempt_at`);--> statement-breakpoint
CREATE INDEX `outbox_user_idx` ON `outbox` (`user_id`);--> statement-breakpoint
-- 2. The community's work e-mail domain (lower case; NULL = none). join_mode 'domain' already
--    exists in the CHECK of migration 0015; the model sets both in one statement.
ALTER TABLE `communities` ADD `email_domain` text CHECK (`email_domain` IS NULL OR `email_domain` = lower(`email_domain`));--> statement-breakpoint
-- 3. What a member proved: the work address (private to them), the domain it was at (the badge
--    keeps showing it if the community's domain changes later) and when. One address verifies
--    one member of a community.
ALTER TABLE `community_members` ADD `verified_email` text;--> statement-breakpoint
ALTER TABLE `community_members` ADD `verified_domain` text;--> statement-breakpoint
ALTER TABLE `community_members` ADD `verified_at` integer;--> statement-breakpoint
CREATE UNIQUE INDEX `community_members_verified_email_unique` ON `community_members` (`community_id`,`verified_email`) WHERE `verified_email` IS NOT NULL;--> statement-breakpoint
-- The badge on ride cards and requests looks up a person's verified memberships only: most people
-- have none, and then the lookup reads nothing.
CREATE INDEX `community_members_verified_idx` ON `community_members` (`user_id`) WHERE `verified_at` IS NOT NULL;--> statement-breakpoint
-- 4. The one live code per person and community: only an HMAC of the code is stored (made when
--    the e-mail is sent), 10 minutes, 5 tries. A new request replaces the row (new id), so the
--    old code is dead; a right code deletes it in the batch that admits the member.
CREATE TABLE `community_email_codes` (
	`id` text PRIMARY KEY NOT NULL,
	`community_id` text NOT NULL,
	`user_id` text NOT NULL,
	`email` text NOT NULL,
	`domain` text NOT NULL,
	`code_hash` text,
	`attempts` integer DEFAULT 0 NOT NULL,
	`created_at` integer NOT NULL,
	`expires_at` integer NOT NULL,
	FOREIGN KEY (`community_id`) REFERENCES `communities`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	CONSTRAINT "email_code_attempts" CHECK("community_email_codes"."attempts" BETWEEN 0 AND 5),
	CONSTRAINT "email_code_lower" CHECK("community_email_codes"."email" = lower("community_email_codes"."email"))
);
--> statement-breakpoint
CREATE UNIQUE INDEX `community_email_codes_member_unique` ON `community_email_codes` (`community_id`,`user_id`);--> statement-breakpoint
CREATE INDEX `community_email_codes_user_idx` ON `community_email_codes` (`user_id`);

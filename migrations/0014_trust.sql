-- Trust and safety (issue 16, items 3, 6 and 7). Added columns and new tables only: rides,
-- ride_requests and notifications are not rebuilt (their triggers and other branches' columns stay).
--
-- Report and block (item 6). A block is the blocker's own data (cascades with them); a report
-- is evidence community admins read, so it is shared history (RESTRICT, ADR 0012).
CREATE TABLE `user_blocks` (
	`blocker_id` text NOT NULL,
	`blocked_id` text NOT NULL,
	`created_at` integer NOT NULL,
	PRIMARY KEY(`blocker_id`, `blocked_id`),
	FOREIGN KEY (`blocker_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`blocked_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	CONSTRAINT "block_not_self" CHECK("user_blocks"."blocker_id" <> "user_blocks"."blocked_id")
);
--> statement-breakpoint
CREATE INDEX `user_blocks_blocked_idx` ON `user_blocks` (`blocked_id`,`blocker_id`);--> statement-breakpoint
CREATE TABLE `user_reports` (
	`id` text PRIMARY KEY NOT NULL,
	`reporter_id` text NOT NULL,
	`reported_id` text NOT NULL,
	`reason` text NOT NULL,
	`details` text,
	`context` text NOT NULL,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`reporter_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE restrict,
	FOREIGN KEY (`reported_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE restrict,
	CONSTRAINT "report_not_self" CHECK("user_reports"."reporter_id" <> "user_reports"."reported_id"),
	CONSTRAINT "report_reason" CHECK("user_reports"."reason" IN ('harassment','unsafe_driving','no_show','inappropriate','fake_profile','other')),
	CONSTRAINT "report_context" CHECK("user_reports"."context" IN ('profile','ride','chat')),
	CONSTRAINT "report_details_len" CHECK("user_reports"."details" IS NULL OR length("user_reports"."details") <= 1000)
);
--> statement-breakpoint
CREATE UNIQUE INDEX `user_reports_once` ON `user_reports` (`reporter_id`,`reported_id`);--> statement-breakpoint
CREATE INDEX `user_reports_reported_idx` ON `user_reports` (`reported_id`,`created_at`);--> statement-breakpoint
-- Women-only rides and the comfort lock (item 3). Gender is self-declared and private.
ALTER TABLE `user_profiles` ADD `gender` text CONSTRAINT "profile_gender_self" CHECK("gender" IS NULL OR "gender" IN ('female','male','other'));--> statement-breakpoint
ALTER TABLE `rides` ADD `women_only` integer DEFAULT false NOT NULL;--> statement-breakpoint
-- The comfort lock: seats booked when the driver locked the rest to women (NULL: no lock).
ALTER TABLE `rides` ADD `women_lock_booked` integer;--> statement-breakpoint
-- A person's own data (item 7): when the account was closed (personal fields erased then).
ALTER TABLE `users` ADD `deleted_at` integer;

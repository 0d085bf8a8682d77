-- Issue 37, items 5-8 (ADR 0052).
-- Item 5: the mobile number is shown to the people on one's rides on the day, unless turned off.
ALTER TABLE `user_settings` ADD `show_phone` integer DEFAULT true NOT NULL;
--> statement-breakpoint
-- Item 6: "Share location" was a switch nothing read; it goes with its column.
ALTER TABLE `user_settings` DROP COLUMN `share_location`;
--> statement-breakpoint
-- Item 7: a platform-wide suspension by LoopRide's operators (NULL: none). It blocks sign-in.
ALTER TABLE `users` ADD `suspended_at` integer;
--> statement-breakpoint
-- Item 7: who reads a report ('community': the admins of the shared communities; 'operators':
-- LoopRide's operators) and what became of it.
ALTER TABLE `user_reports` ADD `queue` text DEFAULT 'community' NOT NULL
  CHECK (`queue` IN ('community', 'operators'));
--> statement-breakpoint
ALTER TABLE `user_reports` ADD `outcome` text CHECK (`outcome` IS NULL OR `outcome` IN ('warned', 'suspended', 'closed'));
--> statement-breakpoint
ALTER TABLE `user_reports` ADD `handled_at` integer;
--> statement-breakpoint
-- The operators' queue: the open reports of their queue, newest first.
CREATE INDEX `user_reports_queue_idx` ON `user_reports` (`queue`, `handled_at`, `created_at`);
--> statement-breakpoint
-- Item 8: women-only and the comfort lock for a whole commute, copied into each of its days.
ALTER TABLE `commutes` ADD `women_only` integer DEFAULT false NOT NULL;
--> statement-breakpoint
ALTER TABLE `commutes` ADD `women_lock` integer DEFAULT false NOT NULL;

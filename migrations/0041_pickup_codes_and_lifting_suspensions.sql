-- Issue 37, ADR 0058.
-- A booking's pickup code is stored, random, made when its row is inserted: it used to be an
-- HMAC under SESSION_SECRET, so rotating the secret changed every code a rider had already read.
ALTER TABLE `ride_requests` ADD `pickup_code` text;
--> statement-breakpoint
-- random() % 10000 keeps its sign, so abs() of it never overflows (abs(random()) can).
UPDATE `ride_requests` SET `pickup_code` = printf('%04d', abs(random() % 10000));
--> statement-breakpoint
-- Every insert path (a request, accept-all, standing bookings' daily top-up) gets a code
-- without having to know of it.
CREATE TRIGGER `ride_requests_pickup_code` AFTER INSERT ON `ride_requests` WHEN NEW.pickup_code IS NULL BEGIN
  UPDATE `ride_requests` SET `pickup_code` = printf('%04d', abs(random() % 10000)) WHERE `id` = NEW.id;
END;
--> statement-breakpoint
-- What LoopRide's operators did to an account (suspend, lift), and who did it.
CREATE TABLE `operator_audit_log` (
  `id` text PRIMARY KEY NOT NULL,
  `actor_id` text NOT NULL REFERENCES `users`(`id`),
  `action` text NOT NULL,
  `target_user_id` text NOT NULL REFERENCES `users`(`id`),
  `report_id` text,
  `created_at` integer NOT NULL,
  CONSTRAINT "operator_audit_action" CHECK(`action` IN ('suspend', 'lift_suspension'))
);
--> statement-breakpoint
CREATE INDEX `operator_audit_log_target_idx` ON `operator_audit_log` (`target_user_id`, `created_at`);
--> statement-breakpoint
-- The operators' list of suspended accounts, newest first; few rows, so a partial index.
CREATE INDEX `users_suspended_idx` ON `users` (`suspended_at`) WHERE `suspended_at` IS NOT NULL;

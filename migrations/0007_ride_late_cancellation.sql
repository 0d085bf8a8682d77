-- A driver's cancellation: why, and whether it came within 2 hours of departure (a late
-- cancellation, which needs a reason). Added columns only: the rides table keeps its
-- triggers (0001/0002), so it is not rebuilt.
ALTER TABLE `rides` ADD `cancel_reason` text;--> statement-breakpoint
ALTER TABLE `rides` ADD `cancelled_late` integer DEFAULT false NOT NULL;

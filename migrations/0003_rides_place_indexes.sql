CREATE INDEX `rides_from_idx` ON `rides` (`status`,`from_location`,`departs_at`);--> statement-breakpoint
CREATE INDEX `rides_to_idx` ON `rides` (`status`,`to_location`,`departs_at`);
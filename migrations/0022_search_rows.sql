-- Issue 17: a distance search ranges the end of the trip whose circle holds fewer places
-- (ADR 0030); these index the drop end as 0010/0020 index the pickup end.
CREATE INDEX `rides_to_cell_idx` ON `rides` (`to_cell`,`status`,`departs_at`);--> statement-breakpoint
CREATE INDEX `commutes_to_cell_idx` ON `commutes` (`to_cell`,`status`,`time`);

-- Issue 14 item 2: a search on weekdays looks for regular commutes by pickup grid cell and
-- time of day (ADR 0028), ranging this index once per cell.
CREATE INDEX `commutes_from_cell_idx` ON `commutes` (`from_cell`,`status`,`time`);

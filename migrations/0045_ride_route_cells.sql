-- Issue 36 (ADR 0049): the corridor index. A search whose pickup and drop both lie mid-route
-- reaches the ride through the grid cells its route's line passes. `route_cells` (JSON, from
-- routeCells in app/domain/ride-match.ts) is written with the ride's points; the triggers
-- keep `ride_route_cells` equal to the cells of every ACTIVE ride, at its departure, so each
-- writer (publish, the commute top-up, seeds) gets the rows without doing anything, a time
-- change moves them and a cancelled, completed or deleted ride has none. A row without
-- `route_cells` (older rows) has the cells of its two ends. The cell index holds every
-- column, so a search reads it alone; it is not UNIQUE (the triggers write each cell once,
-- DISTINCT), because a uniqueness check is a row read per cell of every day a top-up makes.
ALTER TABLE `rides` ADD `route_cells` text;--> statement-breakpoint
ALTER TABLE `commutes` ADD `route_cells` text;--> statement-breakpoint
CREATE TABLE `ride_route_cells` (
  `cell` integer NOT NULL,
  `departs_at` integer NOT NULL,
  `ride_id` text NOT NULL
);--> statement-breakpoint
CREATE INDEX `ride_route_cells_cell_idx` ON `ride_route_cells` (`cell`, `departs_at`, `ride_id`);--> statement-breakpoint
CREATE INDEX `ride_route_cells_ride_idx` ON `ride_route_cells` (`ride_id`);--> statement-breakpoint
CREATE TRIGGER `rides_route_cells_insert` AFTER INSERT ON `rides` WHEN NEW.status = 'active' BEGIN
  INSERT INTO ride_route_cells (cell, departs_at, ride_id)
    SELECT DISTINCT value, NEW.departs_at, NEW.id FROM json_each(coalesce(NEW.route_cells, json_array(NEW.from_cell, NEW.to_cell)))
    WHERE value IS NOT NULL;
END;
--> statement-breakpoint
CREATE TRIGGER `rides_route_cells_update` AFTER UPDATE OF status, departs_at, route_cells, from_cell, to_cell ON `rides` BEGIN
  DELETE FROM ride_route_cells WHERE ride_id = OLD.id;
  INSERT INTO ride_route_cells (cell, departs_at, ride_id)
    SELECT DISTINCT value, NEW.departs_at, NEW.id FROM json_each(coalesce(NEW.route_cells, json_array(NEW.from_cell, NEW.to_cell)))
    WHERE value IS NOT NULL AND NEW.status = 'active';
END;
--> statement-breakpoint
CREATE TRIGGER `rides_route_cells_delete` AFTER DELETE ON `rides` BEGIN
  DELETE FROM ride_route_cells WHERE ride_id = OLD.id;
END;
--> statement-breakpoint
INSERT INTO `ride_route_cells` (cell, departs_at, ride_id)
  SELECT DISTINCT c.value, r.departs_at, r.id FROM rides r, json_each(json_array(r.from_cell, r.to_cell)) c
  WHERE r.status = 'active' AND c.value IS NOT NULL;

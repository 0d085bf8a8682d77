-- Issue 36 (ADR 0049, "passing times"): the corridor index keyed by WHEN the driver passes a
-- cell, so a search ranges its window, not the window plus the hour a pickup may be after the
-- departure. `route_cells` is now `[[cell, minutes after the departure], ...]` (routeCellTimes
-- in app/domain/ride-match.ts; `[cell, minutes, 0]` for a later row of the same cell). A row
-- has two keys, each with its own index: `passes_at` (the departure plus those minutes), by
-- which a search ranges its pickup's cells, and `departs_at`, by which it ranges its drop's
-- (a drop's time is not bounded; the pickup is at most 60 minutes after the departure). A key
-- is NULL where the ride cannot be met that way. A ride without route cells (older rows) has
-- its start cell for pickups and its end cell, NEGATED, for drops: its pickup is at (or by a
-- short detour near) its start, so a search ranges that end by a narrower time than a
-- route's cells, in a second seek of the same index (ADR 0049). Each row carries the route's box (or the ends' box), so a search drops rides
-- passing nowhere near its other place from the index alone, before reading them.
DROP TRIGGER `rides_route_cells_insert`;--> statement-breakpoint
DROP TRIGGER `rides_route_cells_update`;--> statement-breakpoint
DROP TRIGGER `rides_route_cells_delete`;--> statement-breakpoint
DROP TABLE `ride_route_cells`;--> statement-breakpoint
-- Minutes were not stored before: the old cells become rows at the departure (a route written
-- again, as a new ride or an edit, gets its times).
UPDATE `rides` SET `route_cells` = (SELECT json_group_array(json_array(value, 0)) FROM json_each(`rides`.`route_cells`))
  WHERE `route_cells` IS NOT NULL AND json_type(`route_cells`, '$[0]') = 'integer';--> statement-breakpoint
UPDATE `commutes` SET `route_cells` = (SELECT json_group_array(json_array(value, 0)) FROM json_each(`commutes`.`route_cells`))
  WHERE `route_cells` IS NOT NULL AND json_type(`route_cells`, '$[0]') = 'integer';--> statement-breakpoint
CREATE TABLE `ride_route_cells` (
  `cell` integer NOT NULL,
  `passes_at` integer,
  `departs_at` integer,
  `ride_id` text NOT NULL,
  `route_south` real NOT NULL,
  `route_north` real NOT NULL,
  `route_west` real NOT NULL,
  `route_east` real NOT NULL
);--> statement-breakpoint
CREATE INDEX `ride_route_cells_pass_idx` ON `ride_route_cells` (`cell`, `passes_at`, `ride_id`, `route_south`, `route_north`, `route_west`, `route_east`);--> statement-breakpoint
CREATE INDEX `ride_route_cells_drop_idx` ON `ride_route_cells` (`cell`, `departs_at`, `ride_id`, `route_south`, `route_north`, `route_west`, `route_east`);--> statement-breakpoint
CREATE INDEX `ride_route_cells_ride_idx` ON `ride_route_cells` (`ride_id`);--> statement-breakpoint
CREATE TRIGGER `rides_route_cells_insert` AFTER INSERT ON `rides` WHEN NEW.status = 'active' BEGIN
  INSERT INTO ride_route_cells (cell, passes_at, departs_at, ride_id, route_south, route_north, route_west, route_east)
  SELECT json_extract(c.value, '$[0]'), NEW.departs_at + json_extract(c.value, '$[1]') * 60000,
      CASE WHEN json_array_length(c.value) = 2 THEN NEW.departs_at END, NEW.id,
      coalesce(NEW.route_south, min(NEW.from_lat, NEW.to_lat)), coalesce(NEW.route_north, max(NEW.from_lat, NEW.to_lat)),
      coalesce(NEW.route_west, min(NEW.from_lng, NEW.to_lng)), coalesce(NEW.route_east, max(NEW.from_lng, NEW.to_lng))
    FROM json_each(NEW.route_cells) c WHERE NEW.route_cells IS NOT NULL AND coalesce(NEW.route_south, min(NEW.from_lat, NEW.to_lat)) IS NOT NULL AND coalesce(NEW.route_west, min(NEW.from_lng, NEW.to_lng)) IS NOT NULL
  UNION ALL
  SELECT NEW.from_cell, NEW.departs_at, NULL, NEW.id,
      coalesce(NEW.route_south, min(NEW.from_lat, NEW.to_lat)), coalesce(NEW.route_north, max(NEW.from_lat, NEW.to_lat)),
      coalesce(NEW.route_west, min(NEW.from_lng, NEW.to_lng)), coalesce(NEW.route_east, max(NEW.from_lng, NEW.to_lng))
     WHERE NEW.route_cells IS NULL AND NEW.from_cell IS NOT NULL AND coalesce(NEW.route_south, min(NEW.from_lat, NEW.to_lat)) IS NOT NULL AND coalesce(NEW.route_west, min(NEW.from_lng, NEW.to_lng)) IS NOT NULL
  UNION ALL
  SELECT -NEW.to_cell, NULL, NEW.departs_at, NEW.id,
      coalesce(NEW.route_south, min(NEW.from_lat, NEW.to_lat)), coalesce(NEW.route_north, max(NEW.from_lat, NEW.to_lat)),
      coalesce(NEW.route_west, min(NEW.from_lng, NEW.to_lng)), coalesce(NEW.route_east, max(NEW.from_lng, NEW.to_lng))
     WHERE NEW.route_cells IS NULL AND NEW.to_cell IS NOT NULL AND coalesce(NEW.route_south, min(NEW.from_lat, NEW.to_lat)) IS NOT NULL AND coalesce(NEW.route_west, min(NEW.from_lng, NEW.to_lng)) IS NOT NULL;
END;
--> statement-breakpoint
CREATE TRIGGER `rides_route_cells_update` AFTER UPDATE OF status, departs_at, route_cells, from_cell, to_cell,
  route_south, route_north, route_west, route_east, from_lat, from_lng, to_lat, to_lng ON `rides` BEGIN
  DELETE FROM ride_route_cells WHERE ride_id = OLD.id;
  INSERT INTO ride_route_cells (cell, passes_at, departs_at, ride_id, route_south, route_north, route_west, route_east)
  SELECT json_extract(c.value, '$[0]'), NEW.departs_at + json_extract(c.value, '$[1]') * 60000,
      CASE WHEN json_array_length(c.value) = 2 THEN NEW.departs_at END, NEW.id,
      coalesce(NEW.route_south, min(NEW.from_lat, NEW.to_lat)), coalesce(NEW.route_north, max(NEW.from_lat, NEW.to_lat)),
      coalesce(NEW.route_west, min(NEW.from_lng, NEW.to_lng)), coalesce(NEW.route_east, max(NEW.from_lng, NEW.to_lng))
    FROM json_each(NEW.route_cells) c WHERE NEW.route_cells IS NOT NULL AND coalesce(NEW.route_south, min(NEW.from_lat, NEW.to_lat)) IS NOT NULL AND coalesce(NEW.route_west, min(NEW.from_lng, NEW.to_lng)) IS NOT NULL AND NEW.status = 'active'
  UNION ALL
  SELECT NEW.from_cell, NEW.departs_at, NULL, NEW.id,
      coalesce(NEW.route_south, min(NEW.from_lat, NEW.to_lat)), coalesce(NEW.route_north, max(NEW.from_lat, NEW.to_lat)),
      coalesce(NEW.route_west, min(NEW.from_lng, NEW.to_lng)), coalesce(NEW.route_east, max(NEW.from_lng, NEW.to_lng))
     WHERE NEW.route_cells IS NULL AND NEW.from_cell IS NOT NULL AND coalesce(NEW.route_south, min(NEW.from_lat, NEW.to_lat)) IS NOT NULL AND coalesce(NEW.route_west, min(NEW.from_lng, NEW.to_lng)) IS NOT NULL AND NEW.status = 'active'
  UNION ALL
  SELECT -NEW.to_cell, NULL, NEW.departs_at, NEW.id,
      coalesce(NEW.route_south, min(NEW.from_lat, NEW.to_lat)), coalesce(NEW.route_north, max(NEW.from_lat, NEW.to_lat)),
      coalesce(NEW.route_west, min(NEW.from_lng, NEW.to_lng)), coalesce(NEW.route_east, max(NEW.from_lng, NEW.to_lng))
     WHERE NEW.route_cells IS NULL AND NEW.to_cell IS NOT NULL AND coalesce(NEW.route_south, min(NEW.from_lat, NEW.to_lat)) IS NOT NULL AND coalesce(NEW.route_west, min(NEW.from_lng, NEW.to_lng)) IS NOT NULL AND NEW.status = 'active';
END;
--> statement-breakpoint
CREATE TRIGGER `rides_route_cells_delete` AFTER DELETE ON `rides` BEGIN
  DELETE FROM ride_route_cells WHERE ride_id = OLD.id;
END;
--> statement-breakpoint
INSERT INTO ride_route_cells (cell, passes_at, departs_at, ride_id, route_south, route_north, route_west, route_east)
  SELECT json_extract(c.value, '$[0]'), r.departs_at + json_extract(c.value, '$[1]') * 60000,
      CASE WHEN json_array_length(c.value) = 2 THEN r.departs_at END, r.id,
      coalesce(r.route_south, min(r.from_lat, r.to_lat)), coalesce(r.route_north, max(r.from_lat, r.to_lat)),
      coalesce(r.route_west, min(r.from_lng, r.to_lng)), coalesce(r.route_east, max(r.from_lng, r.to_lng))
    FROM rides r, json_each(r.route_cells) c WHERE r.route_cells IS NOT NULL AND coalesce(r.route_south, min(r.from_lat, r.to_lat)) IS NOT NULL AND coalesce(r.route_west, min(r.from_lng, r.to_lng)) IS NOT NULL AND r.status = 'active'
  UNION ALL
  SELECT r.from_cell, r.departs_at, NULL, r.id,
      coalesce(r.route_south, min(r.from_lat, r.to_lat)), coalesce(r.route_north, max(r.from_lat, r.to_lat)),
      coalesce(r.route_west, min(r.from_lng, r.to_lng)), coalesce(r.route_east, max(r.from_lng, r.to_lng))
    FROM rides r WHERE r.route_cells IS NULL AND r.from_cell IS NOT NULL AND coalesce(r.route_south, min(r.from_lat, r.to_lat)) IS NOT NULL AND coalesce(r.route_west, min(r.from_lng, r.to_lng)) IS NOT NULL AND r.status = 'active'
  UNION ALL
  SELECT -r.to_cell, NULL, r.departs_at, r.id,
      coalesce(r.route_south, min(r.from_lat, r.to_lat)), coalesce(r.route_north, max(r.from_lat, r.to_lat)),
      coalesce(r.route_west, min(r.from_lng, r.to_lng)), coalesce(r.route_east, max(r.from_lng, r.to_lng))
    FROM rides r WHERE r.route_cells IS NULL AND r.to_cell IS NOT NULL AND coalesce(r.route_south, min(r.from_lat, r.to_lat)) IS NOT NULL AND coalesce(r.route_west, min(r.from_lng, r.to_lng)) IS NOT NULL AND r.status = 'active';

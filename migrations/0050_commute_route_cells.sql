-- Issue 36 (ADR 0049, "the weekday search over route cells"): the corridor index of commutes,
-- so a weekday search whose pickup and drop both lie mid-route finds the commute. The same
-- rows as ride_route_cells (migration 0046), keyed by the minute of the IST day instead of an
-- instant: a commute has a time of day, not a departure. `passes_minute` (the commute's time
-- plus the route's minutes to the cell; may pass 1,440) is how a search ranges its pickup's
-- cells, `departs_minute` (the time, on a cell's first row only) its drop's. A commute without
-- `route_cells` (older rows, raw inserts) has its start cell for pickups and its end cell,
-- NEGATED, for drops, ranged by a narrower time (as on rides). Only active commutes have rows. Each row carries the route's box (or
-- the ends' box), the weekdays and the community, so a search leaves out, from the index
-- alone, commutes passing nowhere near its other place, on none of its weekdays or in a
-- community the viewer is not in, without reading the commute. Commute ids, cells, times and
-- a community id: no member data.
CREATE TABLE `commute_route_cells` (
  `cell` integer NOT NULL,
  `passes_minute` integer,
  `departs_minute` integer,
  `commute_id` text NOT NULL,
  `route_south` real NOT NULL,
  `route_north` real NOT NULL,
  `route_west` real NOT NULL,
  `route_east` real NOT NULL,
  `weekdays` integer NOT NULL,
  `community_id` text
);--> statement-breakpoint
CREATE INDEX `commute_route_cells_pass_idx` ON `commute_route_cells` (`cell`, `passes_minute`, `commute_id`, `route_south`, `route_north`, `route_west`, `route_east`, `weekdays`, `community_id`);--> statement-breakpoint
CREATE INDEX `commute_route_cells_drop_idx` ON `commute_route_cells` (`cell`, `departs_minute`, `commute_id`, `route_south`, `route_north`, `route_west`, `route_east`, `weekdays`, `community_id`);--> statement-breakpoint
CREATE INDEX `commute_route_cells_commute_idx` ON `commute_route_cells` (`commute_id`);--> statement-breakpoint
-- The weekday search's next open day of each commute, from the index alone (its status and
-- departure are in it), where rides_commute_date_unique read every day's row it passed.
CREATE INDEX `rides_commute_next_idx` ON `rides` (`commute_id`, `date`, `status`, `departs_at`, `id`) WHERE `commute_id` IS NOT NULL;--> statement-breakpoint
CREATE TRIGGER `commutes_route_cells_insert` AFTER INSERT ON `commutes` WHEN NEW.status = 'active' BEGIN
  INSERT INTO commute_route_cells (cell, passes_minute, departs_minute, commute_id, route_south, route_north, route_west, route_east, weekdays, community_id)
  SELECT json_extract(c.value, '$[0]'), CAST(substr(NEW.time, 1, 2) AS INTEGER) * 60 + CAST(substr(NEW.time, 4, 2) AS INTEGER) + json_extract(c.value, '$[1]'),
      CASE WHEN json_array_length(c.value) = 2 THEN CAST(substr(NEW.time, 1, 2) AS INTEGER) * 60 + CAST(substr(NEW.time, 4, 2) AS INTEGER) END, NEW.id,
      coalesce(NEW.route_south, min(NEW.from_lat, NEW.to_lat)), coalesce(NEW.route_north, max(NEW.from_lat, NEW.to_lat)),
      coalesce(NEW.route_west, min(NEW.from_lng, NEW.to_lng)), coalesce(NEW.route_east, max(NEW.from_lng, NEW.to_lng)),
      NEW.weekdays, NEW.community_id
    FROM json_each(NEW.route_cells) c WHERE NEW.route_cells IS NOT NULL AND coalesce(NEW.route_south, min(NEW.from_lat, NEW.to_lat)) IS NOT NULL AND coalesce(NEW.route_west, min(NEW.from_lng, NEW.to_lng)) IS NOT NULL
  UNION ALL
  SELECT NEW.from_cell, CAST(substr(NEW.time, 1, 2) AS INTEGER) * 60 + CAST(substr(NEW.time, 4, 2) AS INTEGER), NULL, NEW.id,
      coalesce(NEW.route_south, min(NEW.from_lat, NEW.to_lat)), coalesce(NEW.route_north, max(NEW.from_lat, NEW.to_lat)),
      coalesce(NEW.route_west, min(NEW.from_lng, NEW.to_lng)), coalesce(NEW.route_east, max(NEW.from_lng, NEW.to_lng)),
      NEW.weekdays, NEW.community_id
    WHERE NEW.route_cells IS NULL AND NEW.from_cell IS NOT NULL AND coalesce(NEW.route_south, min(NEW.from_lat, NEW.to_lat)) IS NOT NULL AND coalesce(NEW.route_west, min(NEW.from_lng, NEW.to_lng)) IS NOT NULL
  UNION ALL
  SELECT -NEW.to_cell, NULL, CAST(substr(NEW.time, 1, 2) AS INTEGER) * 60 + CAST(substr(NEW.time, 4, 2) AS INTEGER), NEW.id,
      coalesce(NEW.route_south, min(NEW.from_lat, NEW.to_lat)), coalesce(NEW.route_north, max(NEW.from_lat, NEW.to_lat)),
      coalesce(NEW.route_west, min(NEW.from_lng, NEW.to_lng)), coalesce(NEW.route_east, max(NEW.from_lng, NEW.to_lng)),
      NEW.weekdays, NEW.community_id
    WHERE NEW.route_cells IS NULL AND NEW.to_cell IS NOT NULL AND coalesce(NEW.route_south, min(NEW.from_lat, NEW.to_lat)) IS NOT NULL AND coalesce(NEW.route_west, min(NEW.from_lng, NEW.to_lng)) IS NOT NULL;
END;
--> statement-breakpoint
CREATE TRIGGER `commutes_route_cells_update` AFTER UPDATE OF status, time, weekdays, community_id, route_cells, from_cell, to_cell,
  route_south, route_north, route_west, route_east, from_lat, from_lng, to_lat, to_lng ON `commutes` BEGIN
  DELETE FROM commute_route_cells WHERE commute_id = OLD.id;
  INSERT INTO commute_route_cells (cell, passes_minute, departs_minute, commute_id, route_south, route_north, route_west, route_east, weekdays, community_id)
  SELECT json_extract(c.value, '$[0]'), CAST(substr(NEW.time, 1, 2) AS INTEGER) * 60 + CAST(substr(NEW.time, 4, 2) AS INTEGER) + json_extract(c.value, '$[1]'),
      CASE WHEN json_array_length(c.value) = 2 THEN CAST(substr(NEW.time, 1, 2) AS INTEGER) * 60 + CAST(substr(NEW.time, 4, 2) AS INTEGER) END, NEW.id,
      coalesce(NEW.route_south, min(NEW.from_lat, NEW.to_lat)), coalesce(NEW.route_north, max(NEW.from_lat, NEW.to_lat)),
      coalesce(NEW.route_west, min(NEW.from_lng, NEW.to_lng)), coalesce(NEW.route_east, max(NEW.from_lng, NEW.to_lng)),
      NEW.weekdays, NEW.community_id
    FROM json_each(NEW.route_cells) c WHERE NEW.route_cells IS NOT NULL AND coalesce(NEW.route_south, min(NEW.from_lat, NEW.to_lat)) IS NOT NULL AND coalesce(NEW.route_west, min(NEW.from_lng, NEW.to_lng)) IS NOT NULL AND NEW.status = 'active'
  UNION ALL
  SELECT NEW.from_cell, CAST(substr(NEW.time, 1, 2) AS INTEGER) * 60 + CAST(substr(NEW.time, 4, 2) AS INTEGER), NULL, NEW.id,
      coalesce(NEW.route_south, min(NEW.from_lat, NEW.to_lat)), coalesce(NEW.route_north, max(NEW.from_lat, NEW.to_lat)),
      coalesce(NEW.route_west, min(NEW.from_lng, NEW.to_lng)), coalesce(NEW.route_east, max(NEW.from_lng, NEW.to_lng)),
      NEW.weekdays, NEW.community_id
    WHERE NEW.route_cells IS NULL AND NEW.from_cell IS NOT NULL AND coalesce(NEW.route_south, min(NEW.from_lat, NEW.to_lat)) IS NOT NULL AND coalesce(NEW.route_west, min(NEW.from_lng, NEW.to_lng)) IS NOT NULL AND NEW.status = 'active'
  UNION ALL
  SELECT -NEW.to_cell, NULL, CAST(substr(NEW.time, 1, 2) AS INTEGER) * 60 + CAST(substr(NEW.time, 4, 2) AS INTEGER), NEW.id,
      coalesce(NEW.route_south, min(NEW.from_lat, NEW.to_lat)), coalesce(NEW.route_north, max(NEW.from_lat, NEW.to_lat)),
      coalesce(NEW.route_west, min(NEW.from_lng, NEW.to_lng)), coalesce(NEW.route_east, max(NEW.from_lng, NEW.to_lng)),
      NEW.weekdays, NEW.community_id
    WHERE NEW.route_cells IS NULL AND NEW.to_cell IS NOT NULL AND coalesce(NEW.route_south, min(NEW.from_lat, NEW.to_lat)) IS NOT NULL AND coalesce(NEW.route_west, min(NEW.from_lng, NEW.to_lng)) IS NOT NULL AND NEW.status = 'active';
END;
--> statement-breakpoint
CREATE TRIGGER `commutes_route_cells_delete` AFTER DELETE ON `commutes` BEGIN
  DELETE FROM commute_route_cells WHERE commute_id = OLD.id;
END;
--> statement-breakpoint
INSERT INTO commute_route_cells (cell, passes_minute, departs_minute, commute_id, route_south, route_north, route_west, route_east, weekdays, community_id)
  SELECT json_extract(c.value, '$[0]'), CAST(substr(k.time, 1, 2) AS INTEGER) * 60 + CAST(substr(k.time, 4, 2) AS INTEGER) + json_extract(c.value, '$[1]'),
      CASE WHEN json_array_length(c.value) = 2 THEN CAST(substr(k.time, 1, 2) AS INTEGER) * 60 + CAST(substr(k.time, 4, 2) AS INTEGER) END, k.id,
      coalesce(k.route_south, min(k.from_lat, k.to_lat)), coalesce(k.route_north, max(k.from_lat, k.to_lat)),
      coalesce(k.route_west, min(k.from_lng, k.to_lng)), coalesce(k.route_east, max(k.from_lng, k.to_lng)),
      k.weekdays, k.community_id
    FROM commutes k, json_each(k.route_cells) c WHERE k.route_cells IS NOT NULL AND coalesce(k.route_south, min(k.from_lat, k.to_lat)) IS NOT NULL AND coalesce(k.route_west, min(k.from_lng, k.to_lng)) IS NOT NULL AND k.status = 'active'
  UNION ALL
  SELECT k.from_cell, CAST(substr(k.time, 1, 2) AS INTEGER) * 60 + CAST(substr(k.time, 4, 2) AS INTEGER), NULL, k.id,
      coalesce(k.route_south, min(k.from_lat, k.to_lat)), coalesce(k.route_north, max(k.from_lat, k.to_lat)),
      coalesce(k.route_west, min(k.from_lng, k.to_lng)), coalesce(k.route_east, max(k.from_lng, k.to_lng)),
      k.weekdays, k.community_id
    FROM commutes k WHERE k.route_cells IS NULL AND k.from_cell IS NOT NULL AND coalesce(k.route_south, min(k.from_lat, k.to_lat)) IS NOT NULL AND coalesce(k.route_west, min(k.from_lng, k.to_lng)) IS NOT NULL AND k.status = 'active'
  UNION ALL
  SELECT -k.to_cell, NULL, CAST(substr(k.time, 1, 2) AS INTEGER) * 60 + CAST(substr(k.time, 4, 2) AS INTEGER), k.id,
      coalesce(k.route_south, min(k.from_lat, k.to_lat)), coalesce(k.route_north, max(k.from_lat, k.to_lat)),
      coalesce(k.route_west, min(k.from_lng, k.to_lng)), coalesce(k.route_east, max(k.from_lng, k.to_lng)),
      k.weekdays, k.community_id
    FROM commutes k WHERE k.route_cells IS NULL AND k.to_cell IS NOT NULL AND coalesce(k.route_south, min(k.from_lat, k.to_lat)) IS NOT NULL AND coalesce(k.route_west, min(k.from_lng, k.to_lng)) IS NOT NULL AND k.status = 'active';

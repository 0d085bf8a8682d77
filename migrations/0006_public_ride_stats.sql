-- Finding 9 (community privacy): the Discover banner must not count rides a viewer may not
-- see. ride_hour_stats and ride_day_stats now total PUBLIC rides only (community_id IS NULL);
-- rides shared with a community are counted nowhere outside it. The triggers of 0001/0002
-- are replaced (same names), community_id joins the watched columns, and both tables are
-- rebuilt from the rides themselves.
DROP TRIGGER IF EXISTS `rides_hour_stats_insert`;--> statement-breakpoint
DROP TRIGGER IF EXISTS `rides_hour_stats_update`;--> statement-breakpoint
DROP TRIGGER IF EXISTS `rides_hour_stats_delete`;--> statement-breakpoint
DROP TRIGGER IF EXISTS `rides_day_stats_insert`;--> statement-breakpoint
DROP TRIGGER IF EXISTS `rides_day_stats_update`;--> statement-breakpoint
DROP TRIGGER IF EXISTS `rides_day_stats_delete`;--> statement-breakpoint
CREATE TRIGGER `rides_hour_stats_insert` AFTER INSERT ON `rides` WHEN NEW.status = 'active' AND NEW.community_id IS NULL BEGIN
  INSERT INTO ride_hour_stats (hour, rides, seats, booked_seats) VALUES ((NEW.departs_at + 19800000) / 3600000, 1, NEW.seats, NEW.booked_seats)
    ON CONFLICT (hour) DO UPDATE SET rides = rides + 1, seats = seats + excluded.seats, booked_seats = booked_seats + excluded.booked_seats;
END;
--> statement-breakpoint
CREATE TRIGGER `rides_hour_stats_update` AFTER UPDATE OF status, seats, booked_seats, departs_at, community_id ON `rides` BEGIN
  INSERT INTO ride_hour_stats (hour, rides, seats, booked_seats) SELECT (OLD.departs_at + 19800000) / 3600000, -1, -OLD.seats, -OLD.booked_seats WHERE OLD.status = 'active' AND OLD.community_id IS NULL
    ON CONFLICT (hour) DO UPDATE SET rides = rides - 1, seats = seats + excluded.seats, booked_seats = booked_seats + excluded.booked_seats;
  INSERT INTO ride_hour_stats (hour, rides, seats, booked_seats) SELECT (NEW.departs_at + 19800000) / 3600000, 1, NEW.seats, NEW.booked_seats WHERE NEW.status = 'active' AND NEW.community_id IS NULL
    ON CONFLICT (hour) DO UPDATE SET rides = rides + 1, seats = seats + excluded.seats, booked_seats = booked_seats + excluded.booked_seats;
END;
--> statement-breakpoint
CREATE TRIGGER `rides_hour_stats_delete` AFTER DELETE ON `rides` WHEN OLD.status = 'active' AND OLD.community_id IS NULL BEGIN
  UPDATE ride_hour_stats SET rides = rides - 1, seats = seats - OLD.seats, booked_seats = booked_seats - OLD.booked_seats WHERE hour = (OLD.departs_at + 19800000) / 3600000;
END;
--> statement-breakpoint
CREATE TRIGGER `rides_day_stats_insert` AFTER INSERT ON `rides` WHEN NEW.status = 'active' AND NEW.community_id IS NULL BEGIN
  INSERT INTO ride_day_stats (day, rides, seats, booked_seats) VALUES ((NEW.departs_at + 19800000) / 86400000, 1, NEW.seats, NEW.booked_seats)
    ON CONFLICT (day) DO UPDATE SET rides = rides + 1, seats = seats + excluded.seats, booked_seats = booked_seats + excluded.booked_seats;
END;
--> statement-breakpoint
CREATE TRIGGER `rides_day_stats_update` AFTER UPDATE OF status, seats, booked_seats, departs_at, community_id ON `rides` BEGIN
  INSERT INTO ride_day_stats (day, rides, seats, booked_seats) SELECT (OLD.departs_at + 19800000) / 86400000, -1, -OLD.seats, -OLD.booked_seats WHERE OLD.status = 'active' AND OLD.community_id IS NULL
    ON CONFLICT (day) DO UPDATE SET rides = rides - 1, seats = seats + excluded.seats, booked_seats = booked_seats + excluded.booked_seats;
  INSERT INTO ride_day_stats (day, rides, seats, booked_seats) SELECT (NEW.departs_at + 19800000) / 86400000, 1, NEW.seats, NEW.booked_seats WHERE NEW.status = 'active' AND NEW.community_id IS NULL
    ON CONFLICT (day) DO UPDATE SET rides = rides + 1, seats = seats + excluded.seats, booked_seats = booked_seats + excluded.booked_seats;
END;
--> statement-breakpoint
CREATE TRIGGER `rides_day_stats_delete` AFTER DELETE ON `rides` WHEN OLD.status = 'active' AND OLD.community_id IS NULL BEGIN
  UPDATE ride_day_stats SET rides = rides - 1, seats = seats - OLD.seats, booked_seats = booked_seats - OLD.booked_seats WHERE day = (OLD.departs_at + 19800000) / 86400000;
END;
--> statement-breakpoint
DELETE FROM ride_hour_stats;--> statement-breakpoint
INSERT INTO ride_hour_stats (hour, rides, seats, booked_seats)
  SELECT (departs_at + 19800000) / 3600000, count(*), sum(seats), sum(booked_seats) FROM rides WHERE status = 'active' AND community_id IS NULL GROUP BY (departs_at + 19800000) / 3600000;--> statement-breakpoint
DELETE FROM ride_day_stats;--> statement-breakpoint
INSERT INTO ride_day_stats (day, rides, seats, booked_seats)
  SELECT (departs_at + 19800000) / 86400000, count(*), sum(seats), sum(booked_seats) FROM rides WHERE status = 'active' AND community_id IS NULL GROUP BY (departs_at + 19800000) / 86400000;

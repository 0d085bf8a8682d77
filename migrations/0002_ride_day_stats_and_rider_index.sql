CREATE TABLE `ride_day_stats` (
	`day` integer PRIMARY KEY NOT NULL,
	`rides` integer DEFAULT 0 NOT NULL,
	`seats` integer DEFAULT 0 NOT NULL,
	`booked_seats` integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE INDEX `ride_requests_rider_status_idx` ON `ride_requests` (`rider_id`,`status`,`created_at`);--> statement-breakpoint
-- Triggers keep ride_day_stats (IST days) exact, as 0001 does for hours.
CREATE TRIGGER `rides_day_stats_insert` AFTER INSERT ON `rides` WHEN NEW.status = 'active' BEGIN
  INSERT INTO ride_day_stats (day, rides, seats, booked_seats) VALUES ((NEW.departs_at + 19800000) / 86400000, 1, NEW.seats, NEW.booked_seats)
    ON CONFLICT (day) DO UPDATE SET rides = rides + 1, seats = seats + excluded.seats, booked_seats = booked_seats + excluded.booked_seats;
END;
--> statement-breakpoint
CREATE TRIGGER `rides_day_stats_update` AFTER UPDATE OF status, seats, booked_seats, departs_at ON `rides` BEGIN
  INSERT INTO ride_day_stats (day, rides, seats, booked_seats) SELECT (OLD.departs_at + 19800000) / 86400000, -1, -OLD.seats, -OLD.booked_seats WHERE OLD.status = 'active'
    ON CONFLICT (day) DO UPDATE SET rides = rides - 1, seats = seats + excluded.seats, booked_seats = booked_seats + excluded.booked_seats;
  INSERT INTO ride_day_stats (day, rides, seats, booked_seats) SELECT (NEW.departs_at + 19800000) / 86400000, 1, NEW.seats, NEW.booked_seats WHERE NEW.status = 'active'
    ON CONFLICT (day) DO UPDATE SET rides = rides + 1, seats = seats + excluded.seats, booked_seats = booked_seats + excluded.booked_seats;
END;
--> statement-breakpoint
CREATE TRIGGER `rides_day_stats_delete` AFTER DELETE ON `rides` WHEN OLD.status = 'active' BEGIN
  UPDATE ride_day_stats SET rides = rides - 1, seats = seats - OLD.seats, booked_seats = booked_seats - OLD.booked_seats WHERE day = (OLD.departs_at + 19800000) / 86400000;
END;
--> statement-breakpoint
INSERT INTO ride_day_stats (day, rides, seats, booked_seats)
  SELECT (departs_at + 19800000) / 86400000, count(*), sum(seats), sum(booked_seats) FROM rides WHERE status = 'active' GROUP BY (departs_at + 19800000) / 86400000;

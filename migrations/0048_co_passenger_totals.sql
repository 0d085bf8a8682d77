-- Issue 40, ADR 0064.
-- The dashboard's Co-Passengers figure (all time) summed every ride a person ever drove or rode
-- on each page view: 491 rows for the bench's busy driver, and growing with their history.
-- The database now keeps it. A person's co-passengers are the other members (the driver and the
-- accepted riders) of the rides, not cancelled, they were a member of: co_passengers holds one
-- row per ordered pair with how many such rides they shared (a row at 0 goes), and
-- co_passenger_counts how many rows a person has there. Only the triggers below write either.
CREATE TABLE `co_passengers` (
  `user_id` text NOT NULL REFERENCES `users`(`id`) ON DELETE CASCADE,
  `other_id` text NOT NULL REFERENCES `users`(`id`) ON DELETE CASCADE,
  `rides` integer NOT NULL,
  PRIMARY KEY (`user_id`, `other_id`)
);
--> statement-breakpoint
CREATE TABLE `co_passenger_counts` (
  `user_id` text PRIMARY KEY NOT NULL REFERENCES `users`(`id`) ON DELETE CASCADE,
  `people` integer NOT NULL
);
--> statement-breakpoint
-- Today's history, counted once: the triggers keep it from here on.
INSERT INTO `co_passengers` (`user_id`, `other_id`, `rides`)
WITH m(ride_id, user_id) AS MATERIALIZED (
  SELECT `id`, `driver_id` FROM `rides` WHERE `status` <> 'cancelled'
  UNION ALL
  SELECT rr.`ride_id`, rr.`rider_id` FROM `ride_requests` rr JOIN `rides` r ON r.`id` = rr.`ride_id`
  WHERE rr.`status` = 'accepted' AND r.`status` <> 'cancelled'
)
SELECT a.user_id, b.user_id, count(*) FROM m a JOIN m b ON b.ride_id = a.ride_id AND b.user_id <> a.user_id
GROUP BY a.user_id, b.user_id;
--> statement-breakpoint
INSERT INTO `co_passenger_counts` (`user_id`, `people`)
SELECT `user_id`, count(*) FROM `co_passengers` GROUP BY `user_id`;
--> statement-breakpoint
CREATE TRIGGER `co_passengers_added` AFTER INSERT ON `co_passengers` BEGIN
  INSERT INTO `co_passenger_counts` (`user_id`, `people`) VALUES (NEW.user_id, 1)
  ON CONFLICT (`user_id`) DO UPDATE SET `people` = `people` + 1;
END;
--> statement-breakpoint
CREATE TRIGGER `co_passengers_removed` AFTER DELETE ON `co_passengers` BEGIN
  UPDATE `co_passenger_counts` SET `people` = `people` - 1 WHERE `user_id` = OLD.user_id;
END;
--> statement-breakpoint
-- A pair that shares no ride any more is no co-passenger: its row goes (and the count with it).
CREATE TRIGGER `co_passengers_none_left` AFTER UPDATE OF `rides` ON `co_passengers` WHEN NEW.rides <= 0 BEGIN
  DELETE FROM `co_passengers` WHERE `user_id` = NEW.user_id AND `other_id` = NEW.other_id;
END;
--> statement-breakpoint
-- A rider joins a ride (an accepted request, inserted or decided): with its driver and every
-- other accepted rider, both ways, unless the ride is cancelled. Each trigger runs inside its
-- statement, so two requests decided at once are each counted once (D1 runs one at a time).
CREATE TRIGGER `co_passengers_request_inserted` AFTER INSERT ON `ride_requests` WHEN NEW.status = 'accepted' BEGIN
  INSERT INTO `co_passengers` (`user_id`, `other_id`, `rides`)
  SELECT x, y, 1 FROM (
    SELECT iif(k = 0, NEW.rider_id, m) AS x, iif(k = 0, m, NEW.rider_id) AS y
    FROM (
      SELECT r.`driver_id` AS m FROM `rides` r WHERE r.`id` = NEW.ride_id AND r.`status` <> 'cancelled'
      UNION ALL
      SELECT rr.`rider_id` FROM `ride_requests` rr
      WHERE rr.`ride_id` = NEW.ride_id AND rr.`status` = 'accepted' AND rr.`id` <> NEW.id
        AND EXISTS (SELECT 1 FROM `rides` r WHERE r.`id` = NEW.ride_id AND r.`status` <> 'cancelled')
    ) CROSS JOIN (SELECT 0 AS k UNION ALL SELECT 1)
    WHERE m <> NEW.rider_id
  ) WHERE true
  ON CONFLICT (`user_id`, `other_id`) DO UPDATE SET `rides` = `rides` + 1;
END;
--> statement-breakpoint
CREATE TRIGGER `co_passengers_request_joined` AFTER UPDATE OF `status`, `ride_id`, `rider_id` ON `ride_requests`
WHEN NEW.status = 'accepted'
  AND NOT (OLD.status = 'accepted' AND OLD.ride_id = NEW.ride_id AND OLD.rider_id = NEW.rider_id) BEGIN
  INSERT INTO `co_passengers` (`user_id`, `other_id`, `rides`)
  SELECT x, y, 1 FROM (
    SELECT iif(k = 0, NEW.rider_id, m) AS x, iif(k = 0, m, NEW.rider_id) AS y
    FROM (
      SELECT r.`driver_id` AS m FROM `rides` r WHERE r.`id` = NEW.ride_id AND r.`status` <> 'cancelled'
      UNION ALL
      SELECT rr.`rider_id` FROM `ride_requests` rr
      WHERE rr.`ride_id` = NEW.ride_id AND rr.`status` = 'accepted' AND rr.`id` <> NEW.id
        AND EXISTS (SELECT 1 FROM `rides` r WHERE r.`id` = NEW.ride_id AND r.`status` <> 'cancelled')
    ) CROSS JOIN (SELECT 0 AS k UNION ALL SELECT 1)
    WHERE m <> NEW.rider_id
  ) WHERE true
  ON CONFLICT (`user_id`, `other_id`) DO UPDATE SET `rides` = `rides` + 1;
END;
--> statement-breakpoint
-- A rider leaves a ride (an accepted request cancelled, refused after all, or deleted): the same
-- pairs lose one ride each. A cancelled ride has no pairs left to lose (below).
CREATE TRIGGER `co_passengers_request_left` AFTER UPDATE OF `status`, `ride_id`, `rider_id` ON `ride_requests`
WHEN OLD.status = 'accepted'
  AND NOT (NEW.status = 'accepted' AND OLD.ride_id = NEW.ride_id AND OLD.rider_id = NEW.rider_id) BEGIN
  UPDATE `co_passengers` SET `rides` = `rides` - 1
  WHERE (`user_id`, `other_id`) IN (
    SELECT iif(k = 0, OLD.rider_id, m), iif(k = 0, m, OLD.rider_id)
    FROM (
      SELECT r.`driver_id` AS m FROM `rides` r WHERE r.`id` = OLD.ride_id AND r.`status` <> 'cancelled'
      UNION ALL
      SELECT rr.`rider_id` FROM `ride_requests` rr
      WHERE rr.`ride_id` = OLD.ride_id AND rr.`status` = 'accepted' AND rr.`id` <> OLD.id
        AND EXISTS (SELECT 1 FROM `rides` r WHERE r.`id` = OLD.ride_id AND r.`status` <> 'cancelled')
    ) CROSS JOIN (SELECT 0 AS k UNION ALL SELECT 1)
    WHERE m <> OLD.rider_id
  );
END;
--> statement-breakpoint
CREATE TRIGGER `co_passengers_request_deleted` AFTER DELETE ON `ride_requests` WHEN OLD.status = 'accepted' BEGIN
  UPDATE `co_passengers` SET `rides` = `rides` - 1
  WHERE (`user_id`, `other_id`) IN (
    SELECT iif(k = 0, OLD.rider_id, m), iif(k = 0, m, OLD.rider_id)
    FROM (
      SELECT r.`driver_id` AS m FROM `rides` r WHERE r.`id` = OLD.ride_id AND r.`status` <> 'cancelled'
      UNION ALL
      SELECT rr.`rider_id` FROM `ride_requests` rr
      WHERE rr.`ride_id` = OLD.ride_id AND rr.`status` = 'accepted' AND rr.`id` <> OLD.id
        AND EXISTS (SELECT 1 FROM `rides` r WHERE r.`id` = OLD.ride_id AND r.`status` <> 'cancelled')
    ) CROSS JOIN (SELECT 0 AS k UNION ALL SELECT 1)
    WHERE m <> OLD.rider_id
  );
END;
--> statement-breakpoint
-- A ride cancelled: every pair of its members (driver and accepted riders) loses the ride, a
-- ride brought back (never done today) gains it again. Completing a ride changes nothing.
CREATE TRIGGER `co_passengers_ride_cancelled` AFTER UPDATE OF `status` ON `rides`
WHEN NEW.status = 'cancelled' AND OLD.status <> 'cancelled' BEGIN
  UPDATE `co_passengers` SET `rides` = `rides` - 1
  WHERE (`user_id`, `other_id`) IN (
    SELECT a.u, b.u FROM (SELECT NEW.driver_id AS u UNION ALL SELECT `rider_id` FROM `ride_requests` WHERE `ride_id` = NEW.id AND `status` = 'accepted') a,
      (SELECT NEW.driver_id AS u UNION ALL SELECT `rider_id` FROM `ride_requests` WHERE `ride_id` = NEW.id AND `status` = 'accepted') b
    WHERE a.u <> b.u
  );
END;
--> statement-breakpoint
CREATE TRIGGER `co_passengers_ride_restored` AFTER UPDATE OF `status` ON `rides`
WHEN OLD.status = 'cancelled' AND NEW.status <> 'cancelled' BEGIN
  INSERT INTO `co_passengers` (`user_id`, `other_id`, `rides`)
  SELECT x, y, 1 FROM (
    SELECT a.u AS x, b.u AS y FROM (SELECT NEW.driver_id AS u UNION ALL SELECT `rider_id` FROM `ride_requests` WHERE `ride_id` = NEW.id AND `status` = 'accepted') a,
      (SELECT NEW.driver_id AS u UNION ALL SELECT `rider_id` FROM `ride_requests` WHERE `ride_id` = NEW.id AND `status` = 'accepted') b
    WHERE a.u <> b.u
  ) WHERE true
  ON CONFLICT (`user_id`, `other_id`) DO UPDATE SET `rides` = `rides` + 1;
END;

-- Saved searches and their alerts (issue 14, item 4; docs/decisions/0022-saved-search-alerts.md).
-- A rider's distance-and-time search kept for later: places (name, point and grid cell as on
-- rides, migration 0010), departure time (also as a minute of the day), radius in metres,
-- window in minutes and weekdays (a bit set over strftime('%w'), as on commutes). When a
-- matching ride is published its owner gets one notification; `last_alert_day` (an IST date)
-- is set by the guarded UPDATE that gates that notification, so a search alerts at most once
-- per IST day, however many rides are published at once.
CREATE TABLE `saved_searches` (
	`id` text PRIMARY KEY NOT NULL,
	`user_id` text NOT NULL REFERENCES `users`(`id`) ON DELETE cascade,
	`from_location` text NOT NULL,
	`to_location` text NOT NULL,
	`from_place_id` text NOT NULL,
	`to_place_id` text NOT NULL,
	`from_lat` real NOT NULL,
	`from_lng` real NOT NULL,
	`to_lat` real NOT NULL,
	`to_lng` real NOT NULL,
	`from_cell` integer NOT NULL,
	`to_cell` integer NOT NULL,
	`time` text NOT NULL,
	`minute` integer NOT NULL,
	`radius_m` integer NOT NULL,
	`window_minutes` integer NOT NULL,
	`weekdays` integer NOT NULL,
	`status` text DEFAULT 'active' NOT NULL,
	`last_alert_day` text,
	`created_at` integer NOT NULL,
	CONSTRAINT "saved_search_time_format" CHECK("saved_searches"."time" GLOB '[0-2][0-9]:[0-5][0-9]'),
	CONSTRAINT "saved_search_minute" CHECK("saved_searches"."minute" = CAST(substr("saved_searches"."time", 1, 2) AS INTEGER) * 60 + CAST(substr("saved_searches"."time", 4, 2) AS INTEGER)),
	CONSTRAINT "saved_search_radius" CHECK("saved_searches"."radius_m" BETWEEN 500 AND 10000),
	CONSTRAINT "saved_search_window" CHECK("saved_searches"."window_minutes" BETWEEN 0 AND 60),
	CONSTRAINT "saved_search_weekdays" CHECK("saved_searches"."weekdays" BETWEEN 1 AND 127),
	CONSTRAINT "saved_search_status" CHECK("saved_searches"."status" IN ('active','paused')),
	CONSTRAINT "saved_search_places_differ" CHECK("saved_searches"."from_location" <> "saved_searches"."to_location")
);
--> statement-breakpoint
CREATE INDEX `saved_searches_user_idx` ON `saved_searches` (`user_id`,`created_at`);
--> statement-breakpoint
-- The lookup on publish: one row per grid cell that the circle around the search's pickup
-- place touches (cellsAround), with the search's minute. A ride's pickup cell and departure
-- minute (+-60, the widest window) range this primary key; no scan of saved_searches.
CREATE TABLE `saved_search_cells` (
	`cell` integer NOT NULL,
	`minute` integer NOT NULL,
	`search_id` text NOT NULL REFERENCES `saved_searches`(`id`) ON DELETE cascade,
	PRIMARY KEY(`cell`, `minute`, `search_id`)
);
--> statement-breakpoint
CREATE INDEX `saved_search_cells_search_idx` ON `saved_search_cells` (`search_id`);
--> statement-breakpoint
-- A saved-search alert (a ride_update naming its saved search) is e-mailed and pushed too:
-- the outbox trigger of migration 0012 with that one condition added.
DROP TRIGGER `notifications_outbox`;
--> statement-breakpoint
CREATE TRIGGER `notifications_outbox` AFTER INSERT ON `notifications`
WHEN NEW.type = 'ride_request'
  OR (NEW.type = 'ride_update' AND json_extract(NEW.data, '$.status') IN ('accepted', 'rejected', 'cancelled'))
  OR (NEW.type = 'ride_update' AND json_extract(NEW.data, '$.saved_search_id') IS NOT NULL)
  OR (NEW.type = 'community' AND json_extract(NEW.data, '$.community_id') IS NOT NULL)
BEGIN
  INSERT OR IGNORE INTO outbox (id, channel, user_id, kind, idempotency_key, payload, status, attempts, next_attempt_at, created_at)
  SELECT lower(hex(randomblob(8))), c.channel, NEW.user_id, 'notification', 'notification:' || NEW.id || ':' || c.channel,
         json_object('notification_id', NEW.id, 'type', NEW.type, 'title', NEW.title, 'message', NEW.message, 'data', json(NEW.data)),
         'pending', 0, NEW.created_at, NEW.created_at
  FROM (SELECT 'email' AS channel UNION ALL SELECT 'push') AS c;
END;

-- Issue 36 (ADR 0049, "alerts by radius class"): saved searches are told of rides that pick
-- them up anywhere along the route. saved_search_cells kept a search at every cell its pickup
-- circle touches and was looked up by the ride's start only; looked up along the route, a
-- search was read once per route cell it touched (1,640 rows per publish on the bench city).
-- saved_search_spots keeps a search once: at its pickup's cell of a grid as coarse as its
-- radius class (up to 2 km: 0.02 degrees, 5 km: 0.05, 10 km: 0.1; app/domain/alert-spots.ts),
-- with what matching and the alert's text need, all in the lookup index (one entry read a
-- search), and its window's reach (up to 15 minutes or up to 60), ranged apart. `told_on` is
-- the IST day the search was last told (saved_searches.last_alert_day before, copied here and
-- no longer written): the guarded UPDATE sets it, and the lookup drops a search already told
-- today from its index entry (no read of the search, no write), so a second publish the same
-- day costs the lookup alone. `paused` likewise copies
-- the search's status (trigger saved_search_spots_paused).
CREATE TABLE `saved_search_spots` (
	`search_id` text NOT NULL REFERENCES `saved_searches`(`id`) ON DELETE cascade,
	`klass` integer NOT NULL,
	`cell` integer NOT NULL,
	`reach` integer NOT NULL,
	`minute` integer NOT NULL,
	`window_minutes` integer NOT NULL,
	`weekdays` integer NOT NULL,
	`radius_m` integer NOT NULL,
	`from_lat` real NOT NULL,
	`from_lng` real NOT NULL,
	`to_lat` real NOT NULL,
	`to_lng` real NOT NULL,
	`way_back` integer NOT NULL,
	`user_id` text NOT NULL,
	`from_location` text NOT NULL,
	`to_location` text NOT NULL,
	`told_on` text,
	`paused` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `saved_search_spots_lookup_idx` ON `saved_search_spots` (`klass`, `cell`, `reach`, `minute`, `told_on`, `paused`, `window_minutes`, `weekdays`, `radius_m`, `from_lat`, `from_lng`, `to_lat`, `to_lng`, `way_back`, `search_id`, `user_id`, `from_location`, `to_location`);
--> statement-breakpoint
CREATE INDEX `saved_search_spots_search_idx` ON `saved_search_spots` (`search_id`);
--> statement-breakpoint
-- Every existing search, its cell computed as spotCell does (rounded to 1e-6 of a cell, then
-- floored; places have positive latitudes and longitudes + 180, so CAST floors).
INSERT INTO `saved_search_spots`
SELECT s.`id`, k.klass,
  CAST(round(s.`from_lat` / k.deg * 1000000) / 1000000 AS INTEGER) * 100000
    + CAST(round((s.`from_lng` + 180) / k.deg * 1000000) / 1000000 AS INTEGER),
  CASE WHEN s.`window_minutes` <= 15 THEN 15 ELSE 60 END,
  s.`minute`, s.`window_minutes`, s.`weekdays`, s.`radius_m`, s.`from_lat`, s.`from_lng`, s.`to_lat`, s.`to_lng`,
  s.`return_of` IS NOT NULL, s.`user_id`, s.`from_location`, s.`to_location`, s.`last_alert_day`,
  s.`status` = 'paused'
FROM `saved_searches` s
JOIN (SELECT 0 AS klass, 0.02 AS deg, 0 AS lo, 2000 AS hi
  UNION ALL SELECT 1, 0.05, 2001, 5000 UNION ALL SELECT 2, 0.1, 5001, 10000) k
  ON s.`radius_m` BETWEEN k.lo AND k.hi;
--> statement-breakpoint
DROP TABLE `saved_search_cells`;
--> statement-breakpoint
CREATE TRIGGER `saved_search_spots_paused` AFTER UPDATE OF `status` ON `saved_searches`
WHEN NEW.`status` IS NOT OLD.`status`
BEGIN
  UPDATE `saved_search_spots` SET `paused` = NEW.`status` = 'paused' WHERE `search_id` = NEW.`id`;
END;

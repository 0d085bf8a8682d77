-- Issue 17 (round trips): a person's rating totals live on their profile, kept by triggers on
-- ride_ratings, so a page that shows a driver's stars (Discover, a ride, a booking) reads them
-- with the driver's name instead of aggregating ride_ratings in a round trip of its own.
-- Existing ratings are counted once here; a profile created after ratings exist counts them too.
ALTER TABLE `user_profiles` ADD `rating_count` integer DEFAULT 0 NOT NULL;
--> statement-breakpoint
ALTER TABLE `user_profiles` ADD `rating_stars` integer DEFAULT 0 NOT NULL;
--> statement-breakpoint
UPDATE `user_profiles` SET
  `rating_count` = (SELECT count(*) FROM `ride_ratings` r WHERE r.`ratee_id` = `user_profiles`.`user_id`),
  `rating_stars` = (SELECT coalesce(sum(r.`stars`), 0) FROM `ride_ratings` r WHERE r.`ratee_id` = `user_profiles`.`user_id`);
--> statement-breakpoint
CREATE TRIGGER `ride_ratings_totals_insert` AFTER INSERT ON `ride_ratings`
BEGIN
  UPDATE `user_profiles` SET `rating_count` = `rating_count` + 1, `rating_stars` = `rating_stars` + NEW.`stars` WHERE `user_id` = NEW.`ratee_id`;
END;
--> statement-breakpoint
CREATE TRIGGER `ride_ratings_totals_delete` AFTER DELETE ON `ride_ratings`
BEGIN
  UPDATE `user_profiles` SET `rating_count` = `rating_count` - 1, `rating_stars` = `rating_stars` - OLD.`stars` WHERE `user_id` = OLD.`ratee_id`;
END;
--> statement-breakpoint
CREATE TRIGGER `ride_ratings_totals_update` AFTER UPDATE OF `stars`, `ratee_id` ON `ride_ratings`
BEGIN
  UPDATE `user_profiles` SET `rating_count` = `rating_count` - 1, `rating_stars` = `rating_stars` - OLD.`stars` WHERE `user_id` = OLD.`ratee_id`;
  UPDATE `user_profiles` SET `rating_count` = `rating_count` + 1, `rating_stars` = `rating_stars` + NEW.`stars` WHERE `user_id` = NEW.`ratee_id`;
END;
--> statement-breakpoint
CREATE TRIGGER `user_profiles_rating_totals` AFTER INSERT ON `user_profiles`
BEGIN
  UPDATE `user_profiles` SET
    `rating_count` = (SELECT count(*) FROM `ride_ratings` r WHERE r.`ratee_id` = NEW.`user_id`),
    `rating_stars` = (SELECT coalesce(sum(r.`stars`), 0) FROM `ride_ratings` r WHERE r.`ratee_id` = NEW.`user_id`)
  WHERE `user_id` = NEW.`user_id`;
END;

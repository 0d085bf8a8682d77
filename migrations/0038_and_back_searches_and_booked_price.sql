-- Issue 35 (docs/decisions/0055-and-back-searches-and-booked-price.md).
-- A saved search "and back": the way back is a saved search of its own (destination to start,
-- around the return time), so the one matching and alert rule serves both directions. It
-- belongs to the outward search: listed, paused and deleted with it, never on its own.
ALTER TABLE `saved_searches` ADD `return_of` text REFERENCES `saved_searches`(`id`) ON DELETE cascade;
--> statement-breakpoint
-- At most one way back per search; the list joins it by this index.
CREATE UNIQUE INDEX `saved_searches_return_of_unique` ON `saved_searches` (`return_of`) WHERE "saved_searches"."return_of" IS NOT NULL;
--> statement-breakpoint
-- A standing booking keeps the seats' price the rider was shown when booking (paise, as
-- ride_requests.quoted_paise): the days the top-up adds later never record more than it,
-- even after the driver raised the commute's price. NULL for bookings made before this.
ALTER TABLE `commute_bookings` ADD `quoted_paise` integer;

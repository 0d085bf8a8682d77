-- A commute's return leg (issue 35, item 4; docs/decisions/0048-commute-return-leg.md): the
-- trip back is a commute of its own (destination -> start, same weekdays, seats, price and
-- rules), so booking, the seat rule and the top-up apply to it unchanged. `return_of` links it
-- to the outward commute; at most one return per commute.
ALTER TABLE `commutes` ADD `return_of` text REFERENCES `commutes`(`id`);
--> statement-breakpoint
-- The commute page reads its return, and the "and back" search asks whether one exists.
CREATE UNIQUE INDEX `commutes_return_of_unique` ON `commutes` (`return_of`) WHERE "commutes"."return_of" IS NOT NULL;

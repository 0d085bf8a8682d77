-- Issue 36 (ADR 0049): a standing booking keeps the rider's pickup point (a place id; NULL:
-- the commute's start), so each day the top-up asks for carries it as a single booking does.
ALTER TABLE `commute_bookings` ADD `pickup_place_id` text;

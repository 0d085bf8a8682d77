-- Issue 17: plain Discover with a cost cap merges one run of this index per whole rupee a seat
-- costs, up to the cap, instead of walking every upcoming ride when few are that cheap (ADR 0037).
CREATE INDEX `rides_seat_rupees_idx` ON `rides` (`community_id`,`status`,(("trip_cost_paise" + 100 * "seats" - 1) / (100 * "seats")),`departs_at`,`id`);
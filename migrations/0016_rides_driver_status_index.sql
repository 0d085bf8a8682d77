-- A driver's rides in one state (the pending-requests badge on every page, Manage Bookings,
-- ride counts). With only (driver_id, departs_at) SQLite, which keeps no statistics here, could
-- equally pick a (status, ...) index and read every active ride in the city (found by the city
-- budget test after migration 0011 added an index to rides).
CREATE INDEX `rides_driver_status_idx` ON `rides` (`driver_id`,`status`,`departs_at`);

-- Issue 35, item 5 (ADR 0046): the most a rider was shown for their seats when they asked
-- for them, in paise. Completion never charges more. NULL for requests made before this
-- (completion then caps at the seats' price at completion time, the figure every page shows).
ALTER TABLE `ride_requests` ADD `quoted_paise` integer;--> statement-breakpoint
-- Issue 35, item 6: a rider's one payment for a week (IST, Monday to Sunday) of rides with
-- one driver. The rides' payments point at it; `week_start` is that week's Monday.
CREATE TABLE `settlements` (
	`id` text PRIMARY KEY NOT NULL,
	`payer_id` text NOT NULL,
	`payee_id` text NOT NULL,
	`week_start` text NOT NULL,
	`amount_paise` integer NOT NULL,
	`rides` integer NOT NULL,
	`method` text NOT NULL,
	`status` text DEFAULT 'paid' NOT NULL,
	`created_at` integer NOT NULL,
	`received_at` integer,
	FOREIGN KEY (`payer_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE restrict,
	FOREIGN KEY (`payee_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE restrict,
	CONSTRAINT "settlement_amount" CHECK("settlements"."amount_paise" >= 0),
	CONSTRAINT "settlement_rides" CHECK("settlements"."rides" > 0),
	CONSTRAINT "settlement_method" CHECK("settlements"."method" IN ('upi','cash')),
	CONSTRAINT "settlement_status" CHECK("settlements"."status" IN ('paid','received')),
	CONSTRAINT "settlement_parties_differ" CHECK("settlements"."payer_id" <> "settlements"."payee_id")
);--> statement-breakpoint
CREATE INDEX `settlements_payer_idx` ON `settlements` (`payer_id`,`payee_id`,`week_start`);--> statement-breakpoint
CREATE INDEX `settlements_payee_idx` ON `settlements` (`payee_id`,`week_start`);--> statement-breakpoint
-- Added column only: payments is not rebuilt.
ALTER TABLE `payments` ADD `settlement_id` text REFERENCES settlements(id);--> statement-breakpoint
CREATE INDEX `payments_settlement_idx` ON `payments` (`settlement_id`);--> statement-breakpoint
-- The database's own guard against paying a ride twice: a payment joins one settlement at
-- most, and only while it is unpaid (not after it was paid on its own).
CREATE TRIGGER `payments_settled_once` BEFORE UPDATE OF `settlement_id` ON `payments`
WHEN OLD.`settlement_id` IS NOT NULL OR OLD.`status` IN ('paid','received')
BEGIN
	SELECT RAISE(ABORT, 'payment already settled');
END;

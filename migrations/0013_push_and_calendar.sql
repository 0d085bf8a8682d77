-- Issue 15, items 3 (Web Push) and 5 (calendar). New tables only.
-- push_subscriptions: one row per browser push subscription (PushManager.subscribe), owned by
-- the user who subscribed in that browser. The endpoint is unique: a browser that
-- subscribes again (or for another account) replaces its row. Deleted with the user.
CREATE TABLE `push_subscriptions` (
	`id` text PRIMARY KEY NOT NULL,
	`user_id` text NOT NULL,
	`endpoint` text NOT NULL,
	`p256dh` text NOT NULL,
	`auth` text NOT NULL,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	CONSTRAINT "push_endpoint_https" CHECK("push_subscriptions"."endpoint" LIKE 'https://%')
);
--> statement-breakpoint
CREATE UNIQUE INDEX `push_subscriptions_endpoint_unique` ON `push_subscriptions` (`endpoint`);--> statement-breakpoint
CREATE INDEX `push_subscriptions_user_idx` ON `push_subscriptions` (`user_id`);--> statement-breakpoint
-- calendar_feeds: at most one private calendar feed per user; only the SHA-256 of its secret
-- token is stored (the URL is shown once, when it is made). Revoking deletes the row.
CREATE TABLE `calendar_feeds` (
	`user_id` text PRIMARY KEY NOT NULL,
	`token_hash` text NOT NULL,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `calendar_feeds_token_hash_unique` ON `calendar_feeds` (`token_hash`);

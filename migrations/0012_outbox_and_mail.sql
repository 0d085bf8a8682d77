-- Issue 15: e-mail (and, through the same table, Web Push), password recovery and ride
-- reminders (docs/decisions/0018-outbox-and-email.md).
--
-- outbox: every message to a person outside the app, one row per person, event and channel.
-- idempotency_key is UNIQUE, so an event is queued at most once however often (or however
-- concurrently) it is recorded; the sender claims a row before sending and passes the same key
-- to the transport, so a retry after a failure never makes a second e-mail.
CREATE TABLE `outbox` (
	`id` text PRIMARY KEY NOT NULL,
	`channel` text NOT NULL,
	`user_id` text NOT NULL,
	`kind` text NOT NULL,
	`idempotency_key` text NOT NULL,
	`payload` text DEFAULT '{}' NOT NULL,
	`status` text DEFAULT 'pending' NOT NULL,
	`attempts` integer DEFAULT 0 NOT NULL,
	`next_attempt_at` integer NOT NULL,
	`last_error` text,
	`created_at` integer NOT NULL,
	`sent_at` integer,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	CONSTRAINT "outbox_channel" CHECK("outbox"."channel" IN ('email','push')),
	CONSTRAINT "outbox_kind" CHECK("outbox"."kind" IN ('notification','reminder','verify_email','password_reset')),
	CONSTRAINT "outbox_status" CHECK("outbox"."status" IN ('pending','sending','sent','skipped','failed'))
);
--> statement-breakpoint
CREATE UNIQUE INDEX `outbox_key_unique` ON `outbox` (`idempotency_key`);
--> statement-breakpoint
CREATE INDEX `outbox_due_idx` ON `outbox` (`status`,`next_attempt_at`);
--> statement-breakpoint
CREATE INDEX `outbox_user_idx` ON `outbox` (`user_id`);
--> statement-breakpoint
-- The notifications that also go out by e-mail/push are queued by the database itself, inside
-- the statement that inserts the notification: whatever batch writes the notification writes
-- its outbox rows, and a batch that fails leaves neither. Which ones: a new ride request (to the
-- driver), the driver's decision and a cancellation (ride_update with status accepted, rejected
-- or cancelled), and a community join decision. Chat messages, completion and payment notes stay
-- in the app.
CREATE TRIGGER `notifications_outbox` AFTER INSERT ON `notifications`
WHEN NEW.type = 'ride_request'
  OR (NEW.type = 'ride_update' AND json_extract(NEW.data, '$.status') IN ('accepted', 'rejected', 'cancelled'))
  OR (NEW.type = 'community' AND json_extract(NEW.data, '$.community_id') IS NOT NULL)
BEGIN
  INSERT OR IGNORE INTO outbox (id, channel, user_id, kind, idempotency_key, payload, status, attempts, next_attempt_at, created_at)
  SELECT lower(hex(randomblob(8))), c.channel, NEW.user_id, 'notification', 'notification:' || NEW.id || ':' || c.channel,
         json_object('notification_id', NEW.id, 'type', NEW.type, 'title', NEW.title, 'message', NEW.message, 'data', json(NEW.data)),
         'pending', 0, NEW.created_at, NEW.created_at
  FROM (SELECT 'email' AS channel UNION ALL SELECT 'push') AS c;
END;
--> statement-breakpoint
-- The local mail sink (MAIL_TRANSPORT=sink: npm start, tests, browser journeys): the rendered
-- message as a mail server would receive it. The development mailbox (/dev/mailbox, only with
-- DEV_MAILBOX=1) reads it. One row per outbox key: a redelivery stores nothing new.
CREATE TABLE `mail_sink` (
	`id` text PRIMARY KEY NOT NULL,
	`idempotency_key` text NOT NULL,
	`to_address` text NOT NULL,
	`subject` text NOT NULL,
	`text_body` text NOT NULL,
	`html_body` text NOT NULL,
	`headers` text DEFAULT '{}' NOT NULL,
	`created_at` integer NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `mail_sink_key_unique` ON `mail_sink` (`idempotency_key`);
--> statement-breakpoint
CREATE INDEX `mail_sink_created_idx` ON `mail_sink` (`created_at`);
--> statement-breakpoint
-- Password reset links: only the SHA-256 of the token is stored. Single use (used_at), 30 minutes,
-- and a newer request deletes the older ones.
CREATE TABLE `password_resets` (
	`id` text PRIMARY KEY NOT NULL,
	`user_id` text NOT NULL,
	`token_hash` text NOT NULL,
	`created_at` integer NOT NULL,
	`expires_at` integer NOT NULL,
	`used_at` integer,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `password_resets_token_unique` ON `password_resets` (`token_hash`);
--> statement-breakpoint
CREATE INDEX `password_resets_user_idx` ON `password_resets` (`user_id`);

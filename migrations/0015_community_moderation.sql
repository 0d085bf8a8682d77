-- Issue 16, item 4 (moderation): a member may be suspended until an instant (UTC ms), and
-- every moderator action is recorded in an audit log that the community's admins read.
-- Removing a member reuses the 'rejected' status (they cannot ask again until a moderator
-- clears it), so community_members keeps its CHECKs and is not rebuilt.
ALTER TABLE `community_members` ADD `suspended_until` integer;
--> statement-breakpoint
CREATE TABLE `community_audit_log` (
	`id` text PRIMARY KEY NOT NULL,
	`community_id` text NOT NULL,
	`actor_id` text NOT NULL,
	`action` text NOT NULL,
	`target_user_id` text,
	`detail` text,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`community_id`) REFERENCES `communities`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`actor_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`target_user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action,
	CONSTRAINT "audit_action" CHECK("community_audit_log"."action" IN ('approve','reject','clear','promote','remove','suspend','unsuspend','handover','rules','invite'))
);
--> statement-breakpoint
CREATE INDEX `community_audit_log_community_idx` ON `community_audit_log` (`community_id`,`created_at`);
--> statement-breakpoint
-- Issue 16, item 5 (reliability record): the driver marks an accepted rider of a completed
-- ride as a no-show (once); the rider may dispute it (once). Added columns: ride_requests is
-- not rebuilt.
ALTER TABLE `ride_requests` ADD `no_show_at` integer;
--> statement-breakpoint
ALTER TABLE `ride_requests` ADD `no_show_disputed_at` integer;
--> statement-breakpoint
-- Issue 16, item 1 (join rules): how people join, set by the community's admins. 'domain'
-- (a verified work e-mail) is reserved for the e-mail verification flow; 'invite' joins with
-- the community's current invite token (revoked by replacing or clearing it).
ALTER TABLE `communities` ADD `join_mode` text DEFAULT 'moderated' NOT NULL CHECK (`join_mode` IN ('open','moderated','domain','invite'));
--> statement-breakpoint
ALTER TABLE `communities` ADD `invite_token` text;
--> statement-breakpoint
CREATE UNIQUE INDEX `communities_invite_token_unique` ON `communities` (`invite_token`) WHERE `invite_token` IS NOT NULL;

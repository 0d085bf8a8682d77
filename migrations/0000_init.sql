CREATE TABLE `communities` (
	`id` text PRIMARY KEY NOT NULL,
	`name` text NOT NULL,
	`type` text DEFAULT 'residential' NOT NULL,
	`location` text NOT NULL,
	`description` text NOT NULL,
	`created_by` text NOT NULL,
	`member_count` integer DEFAULT 0 NOT NULL,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`created_by`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action,
	CONSTRAINT "community_type" CHECK("communities"."type" IN ('residential','workplace','interest')),
	CONSTRAINT "community_member_count" CHECK("communities"."member_count" >= 0),
	CONSTRAINT "community_name_len" CHECK(length("communities"."name") >= 3)
);
--> statement-breakpoint
CREATE INDEX `communities_created_idx` ON `communities` (`created_at`);--> statement-breakpoint
CREATE INDEX `communities_type_created_idx` ON `communities` (`type`,`created_at`);--> statement-breakpoint
CREATE TABLE `community_members` (
	`id` text PRIMARY KEY NOT NULL,
	`community_id` text NOT NULL,
	`user_id` text NOT NULL,
	`status` text NOT NULL,
	`role` text DEFAULT 'member' NOT NULL,
	`requested_at` integer NOT NULL,
	`decided_at` integer,
	`decided_by` text,
	FOREIGN KEY (`community_id`) REFERENCES `communities`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`decided_by`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action,
	CONSTRAINT "member_status" CHECK("community_members"."status" IN ('pending','approved','rejected')),
	CONSTRAINT "member_role" CHECK("community_members"."role" IN ('member','moderator','admin'))
);
--> statement-breakpoint
CREATE UNIQUE INDEX `community_members_unique` ON `community_members` (`community_id`,`user_id`);--> statement-breakpoint
CREATE INDEX `community_members_user_idx` ON `community_members` (`user_id`,`status`);--> statement-breakpoint
CREATE INDEX `community_members_status_idx` ON `community_members` (`community_id`,`status`,`requested_at`);--> statement-breakpoint
CREATE TABLE `conversations` (
	`id` text PRIMARY KEY NOT NULL,
	`user_a` text NOT NULL,
	`user_b` text NOT NULL,
	`last_message_at` integer,
	`last_message_preview` text,
	`last_sender_id` text,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`user_a`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`user_b`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	CONSTRAINT "conversation_ordered_pair" CHECK("conversations"."user_a" < "conversations"."user_b")
);
--> statement-breakpoint
CREATE UNIQUE INDEX `conversations_pair_unique` ON `conversations` (`user_a`,`user_b`);--> statement-breakpoint
CREATE INDEX `conversations_a_idx` ON `conversations` (`user_a`,`last_message_at`);--> statement-breakpoint
CREATE INDEX `conversations_b_idx` ON `conversations` (`user_b`,`last_message_at`);--> statement-breakpoint
CREATE TABLE `credit_transactions` (
	`id` text PRIMARY KEY NOT NULL,
	`user_id` text NOT NULL,
	`amount` integer NOT NULL,
	`transaction_type` text NOT NULL,
	`description` text NOT NULL,
	`reference_id` text,
	`reference_type` text,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	CONSTRAINT "credit_tx_type" CHECK("credit_transactions"."transaction_type" IN ('earned','spent')),
	CONSTRAINT "credit_tx_amount" CHECK("credit_transactions"."amount" > 0)
);
--> statement-breakpoint
CREATE INDEX `credit_tx_user_idx` ON `credit_transactions` (`user_id`,`created_at`);--> statement-breakpoint
CREATE UNIQUE INDEX `credit_tx_reference_unique` ON `credit_transactions` (`user_id`,`reference_type`,`reference_id`) WHERE "credit_transactions"."reference_id" IS NOT NULL;--> statement-breakpoint
CREATE TABLE `messages` (
	`id` text PRIMARY KEY NOT NULL,
	`conversation_id` text NOT NULL,
	`sender_id` text NOT NULL,
	`receiver_id` text NOT NULL,
	`content` text NOT NULL,
	`client_id` text,
	`created_at` integer NOT NULL,
	`read_at` integer,
	FOREIGN KEY (`conversation_id`) REFERENCES `conversations`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`sender_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`receiver_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	CONSTRAINT "message_length" CHECK(length("messages"."content") BETWEEN 1 AND 2000),
	CONSTRAINT "message_parties_differ" CHECK("messages"."sender_id" <> "messages"."receiver_id")
);
--> statement-breakpoint
CREATE INDEX `messages_conversation_idx` ON `messages` (`conversation_id`,`created_at`);--> statement-breakpoint
CREATE INDEX `messages_unread_idx` ON `messages` (`receiver_id`,`conversation_id`) WHERE "messages"."read_at" IS NULL;--> statement-breakpoint
CREATE UNIQUE INDEX `messages_client_unique` ON `messages` (`sender_id`,`client_id`) WHERE "messages"."client_id" IS NOT NULL;--> statement-breakpoint
CREATE TABLE `newsletter_subscribers` (
	`email` text PRIMARY KEY NOT NULL,
	`created_at` integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE `notifications` (
	`id` text PRIMARY KEY NOT NULL,
	`user_id` text NOT NULL,
	`type` text NOT NULL,
	`title` text NOT NULL,
	`message` text NOT NULL,
	`data` text DEFAULT '{}' NOT NULL,
	`read` integer DEFAULT false NOT NULL,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	CONSTRAINT "notification_type" CHECK("notifications"."type" IN ('ride_request','ride_update','message','community'))
);
--> statement-breakpoint
CREATE INDEX `notifications_user_idx` ON `notifications` (`user_id`,`created_at`);--> statement-breakpoint
CREATE INDEX `notifications_unread_idx` ON `notifications` (`user_id`) WHERE "notifications"."read" = 0;--> statement-breakpoint
CREATE TABLE `oauth_accounts` (
	`provider` text NOT NULL,
	`provider_account_id` text NOT NULL,
	`user_id` text NOT NULL,
	`created_at` integer NOT NULL,
	PRIMARY KEY(`provider`, `provider_account_id`),
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	CONSTRAINT "oauth_provider_known" CHECK("oauth_accounts"."provider" IN ('google'))
);
--> statement-breakpoint
CREATE INDEX `oauth_accounts_user_idx` ON `oauth_accounts` (`user_id`);--> statement-breakpoint
CREATE TABLE `passwords` (
	`user_id` text PRIMARY KEY NOT NULL,
	`hash` text NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `payments` (
	`id` text PRIMARY KEY NOT NULL,
	`ride_id` text NOT NULL,
	`payer_id` text NOT NULL,
	`payee_id` text NOT NULL,
	`seats` integer NOT NULL,
	`amount_paise` integer NOT NULL,
	`status` text DEFAULT 'pending' NOT NULL,
	`method` text,
	`created_at` integer NOT NULL,
	`requested_at` integer,
	`paid_at` integer,
	`received_at` integer,
	FOREIGN KEY (`ride_id`) REFERENCES `rides`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`payer_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`payee_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action,
	CONSTRAINT "payment_amount" CHECK("payments"."amount_paise" >= 0),
	CONSTRAINT "payment_seats" CHECK("payments"."seats" BETWEEN 1 AND 6),
	CONSTRAINT "payment_status" CHECK("payments"."status" IN ('pending','requested','paid','received')),
	CONSTRAINT "payment_method" CHECK("payments"."method" IS NULL OR "payments"."method" IN ('upi','cash')),
	CONSTRAINT "payment_parties_differ" CHECK("payments"."payer_id" <> "payments"."payee_id")
);
--> statement-breakpoint
CREATE UNIQUE INDEX `payments_ride_payer_unique` ON `payments` (`ride_id`,`payer_id`);--> statement-breakpoint
CREATE INDEX `payments_payer_idx` ON `payments` (`payer_id`,`created_at`);--> statement-breakpoint
CREATE INDEX `payments_payee_idx` ON `payments` (`payee_id`,`created_at`);--> statement-breakpoint
CREATE TABLE `rate_limits` (
	`key` text PRIMARY KEY NOT NULL,
	`window_start` integer NOT NULL,
	`count` integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE `referrals` (
	`id` text PRIMARY KEY NOT NULL,
	`referrer_id` text NOT NULL,
	`referred_user_id` text,
	`referred_email` text,
	`referral_code` text NOT NULL,
	`status` text DEFAULT 'pending' NOT NULL,
	`created_at` integer NOT NULL,
	`completed_at` integer,
	FOREIGN KEY (`referrer_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`referred_user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	CONSTRAINT "referral_status" CHECK("referrals"."status" IN ('pending','completed')),
	CONSTRAINT "referral_not_self" CHECK("referrals"."referred_user_id" IS NULL OR "referrals"."referred_user_id" <> "referrals"."referrer_id")
);
--> statement-breakpoint
CREATE UNIQUE INDEX `referrals_referred_unique` ON `referrals` (`referred_user_id`);--> statement-breakpoint
CREATE INDEX `referrals_referrer_idx` ON `referrals` (`referrer_id`);--> statement-breakpoint
CREATE TABLE `ride_ratings` (
	`id` text PRIMARY KEY NOT NULL,
	`ride_id` text NOT NULL,
	`rater_id` text NOT NULL,
	`ratee_id` text NOT NULL,
	`stars` integer NOT NULL,
	`comment` text,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`ride_id`) REFERENCES `rides`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`rater_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`ratee_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	CONSTRAINT "rating_stars" CHECK("ride_ratings"."stars" BETWEEN 1 AND 5),
	CONSTRAINT "rating_not_self" CHECK("ride_ratings"."rater_id" <> "ride_ratings"."ratee_id")
);
--> statement-breakpoint
CREATE UNIQUE INDEX `ride_ratings_once` ON `ride_ratings` (`ride_id`,`rater_id`,`ratee_id`);--> statement-breakpoint
CREATE INDEX `ride_ratings_ratee_idx` ON `ride_ratings` (`ratee_id`);--> statement-breakpoint
CREATE TABLE `ride_requests` (
	`id` text PRIMARY KEY NOT NULL,
	`ride_id` text NOT NULL,
	`rider_id` text NOT NULL,
	`seats` integer NOT NULL,
	`status` text DEFAULT 'pending' NOT NULL,
	`notes` text,
	`created_at` integer NOT NULL,
	`decided_at` integer,
	`cancelled_at` integer,
	FOREIGN KEY (`ride_id`) REFERENCES `rides`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`rider_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	CONSTRAINT "request_seats" CHECK("ride_requests"."seats" BETWEEN 1 AND 6),
	CONSTRAINT "request_status" CHECK("ride_requests"."status" IN ('pending','accepted','rejected','cancelled'))
);
--> statement-breakpoint
CREATE UNIQUE INDEX `ride_requests_live_unique` ON `ride_requests` (`ride_id`,`rider_id`) WHERE "ride_requests"."status" IN ('pending','accepted');--> statement-breakpoint
CREATE INDEX `ride_requests_ride_idx` ON `ride_requests` (`ride_id`,`status`,`created_at`);--> statement-breakpoint
CREATE INDEX `ride_requests_rider_idx` ON `ride_requests` (`rider_id`,`created_at`);--> statement-breakpoint
CREATE TABLE `rides` (
	`id` text PRIMARY KEY NOT NULL,
	`driver_id` text NOT NULL,
	`community_id` text,
	`from_location` text NOT NULL,
	`to_location` text NOT NULL,
	`date` text NOT NULL,
	`time` text NOT NULL,
	`departs_at` integer NOT NULL,
	`seats` integer NOT NULL,
	`booked_seats` integer DEFAULT 0 NOT NULL,
	`trip_cost_paise` integer NOT NULL,
	`distance_km` integer,
	`notes` text,
	`vehicle_type` text,
	`status` text DEFAULT 'active' NOT NULL,
	`split_mode` text,
	`created_at` integer NOT NULL,
	`completed_at` integer,
	`cancelled_at` integer,
	`payments_requested_at` integer,
	FOREIGN KEY (`driver_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`community_id`) REFERENCES `communities`(`id`) ON UPDATE no action ON DELETE set null,
	CONSTRAINT "ride_seats" CHECK("rides"."seats" BETWEEN 1 AND 6),
	CONSTRAINT "ride_booked" CHECK("rides"."booked_seats" BETWEEN 0 AND "rides"."seats"),
	CONSTRAINT "ride_cost" CHECK("rides"."trip_cost_paise" >= 0),
	CONSTRAINT "ride_status" CHECK("rides"."status" IN ('active','completed','cancelled')),
	CONSTRAINT "ride_split_mode" CHECK("rides"."split_mode" IS NULL OR "rides"."split_mode" IN ('split','standard')),
	CONSTRAINT "ride_places_differ" CHECK("rides"."from_location" <> "rides"."to_location"),
	CONSTRAINT "ride_date_format" CHECK("rides"."date" GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]'),
	CONSTRAINT "ride_time_format" CHECK("rides"."time" GLOB '[0-2][0-9]:[0-5][0-9]')
);
--> statement-breakpoint
CREATE INDEX `rides_discover_idx` ON `rides` (`status`,`departs_at`);--> statement-breakpoint
CREATE INDEX `rides_driver_idx` ON `rides` (`driver_id`,`departs_at`);--> statement-breakpoint
CREATE INDEX `rides_community_idx` ON `rides` (`community_id`,`status`,`departs_at`);--> statement-breakpoint
CREATE TABLE `saved_rides` (
	`user_id` text NOT NULL,
	`ride_id` text NOT NULL,
	`created_at` integer NOT NULL,
	PRIMARY KEY(`user_id`, `ride_id`),
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`ride_id`) REFERENCES `rides`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `saved_rides_ride_idx` ON `saved_rides` (`ride_id`);--> statement-breakpoint
CREATE TABLE `sessions` (
	`id` text PRIMARY KEY NOT NULL,
	`user_id` text NOT NULL,
	`created_at` integer NOT NULL,
	`expires_at` integer NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `sessions_user_idx` ON `sessions` (`user_id`);--> statement-breakpoint
CREATE INDEX `sessions_expires_idx` ON `sessions` (`expires_at`);--> statement-breakpoint
CREATE TABLE `user_credits` (
	`user_id` text PRIMARY KEY NOT NULL,
	`credits` integer DEFAULT 0 NOT NULL,
	`total_earned` integer DEFAULT 0 NOT NULL,
	`total_spent` integer DEFAULT 0 NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	CONSTRAINT "credits_non_negative" CHECK("user_credits"."credits" >= 0 AND "user_credits"."total_earned" >= 0 AND "user_credits"."total_spent" >= 0)
);
--> statement-breakpoint
CREATE TABLE `user_profiles` (
	`user_id` text PRIMARY KEY NOT NULL,
	`full_name` text,
	`first_name` text,
	`last_name` text,
	`avatar_url` text,
	`residential_area` text,
	`workplace` text,
	`phone_number` text,
	`emergency_contact` text,
	`bio` text,
	`upi_id` text,
	`vehicle_info` text DEFAULT '{}' NOT NULL,
	`smoking_allowed` integer DEFAULT false NOT NULL,
	`pets_allowed` integer DEFAULT false NOT NULL,
	`music_preference` text DEFAULT 'moderate' NOT NULL,
	`conversation_preference` text DEFAULT 'casual' NOT NULL,
	`max_detour_minutes` integer DEFAULT 15 NOT NULL,
	`gender_preference` text DEFAULT 'any' NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	CONSTRAINT "profile_music" CHECK("user_profiles"."music_preference" IN ('quiet','low','moderate','high')),
	CONSTRAINT "profile_conversation" CHECK("user_profiles"."conversation_preference" IN ('quiet','casual','talkative')),
	CONSTRAINT "profile_detour" CHECK("user_profiles"."max_detour_minutes" BETWEEN 0 AND 60),
	CONSTRAINT "profile_gender" CHECK("user_profiles"."gender_preference" IN ('any','female','male')),
	CONSTRAINT "profile_phone_format" CHECK("user_profiles"."phone_number" IS NULL OR (length("user_profiles"."phone_number") = 10 AND "user_profiles"."phone_number" NOT GLOB '*[^0-9]*'))
);
--> statement-breakpoint
CREATE TABLE `user_referral_codes` (
	`user_id` text PRIMARY KEY NOT NULL,
	`referral_code` text NOT NULL,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	CONSTRAINT "referral_code_format" CHECK(length("user_referral_codes"."referral_code") = 8 AND "user_referral_codes"."referral_code" GLOB 'LR[A-Z0-9][A-Z0-9][A-Z0-9][A-Z0-9][A-Z0-9][A-Z0-9]')
);
--> statement-breakpoint
CREATE UNIQUE INDEX `referral_code_unique` ON `user_referral_codes` (`referral_code`);--> statement-breakpoint
CREATE TABLE `user_settings` (
	`user_id` text PRIMARY KEY NOT NULL,
	`email_notifications` integer DEFAULT true NOT NULL,
	`push_notifications` integer DEFAULT true NOT NULL,
	`ride_reminders` integer DEFAULT true NOT NULL,
	`show_profile` integer DEFAULT true NOT NULL,
	`share_location` integer DEFAULT false NOT NULL,
	`dark_mode` integer DEFAULT false NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `users` (
	`id` text PRIMARY KEY NOT NULL,
	`email` text,
	`phone` text,
	`created_at` integer NOT NULL,
	CONSTRAINT "users_phone_format" CHECK("users"."phone" IS NULL OR (length("users"."phone") = 10 AND "users"."phone" NOT GLOB '*[^0-9]*'))
);
--> statement-breakpoint
CREATE UNIQUE INDEX `users_email_unique` ON `users` (`email`);--> statement-breakpoint
CREATE UNIQUE INDEX `users_phone_unique` ON `users` (`phone`);
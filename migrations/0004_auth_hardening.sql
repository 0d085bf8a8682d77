-- Issue 19, findings 8 and 10.
-- email_verified_at: when the address in users.email was proven to belong to the account
-- holder (Google's verified claim; issue 15 adds a link by e-mail). Google sign-in links
-- to an existing account only when this is set.
ALTER TABLE `users` ADD `email_verified_at` integer;--> statement-breakpoint
-- signup_address_hash: a keyed hash (HMAC-SHA-256) of the client address the account was
-- created from, never the address itself; a referral between two accounts created from
-- the same address earns nothing.
ALTER TABLE `users` ADD `signup_address_hash` text;--> statement-breakpoint
-- Accounts created by Google sign-in (no password) got their e-mail only when Google said
-- it was verified.
UPDATE `users` SET `email_verified_at` = `created_at`
WHERE `email` IS NOT NULL
  AND `id` IN (SELECT `user_id` FROM `oauth_accounts` WHERE `provider` = 'google')
  AND `id` NOT IN (SELECT `user_id` FROM `passwords`);
